//! `flinch view` end to end in a real browser (issue 40): Debian's chromium, headless, driven by puppeteer-core
//! (`tools/view-e2e/e2e.mjs`, `npm ci` run here when its node_modules is missing; no browser is downloaded)
//! loads the page, clicks the right forearm, and the test checks the hit event, a deviation ≥ 10° in the plot
//! data and a screenshot that is not blank (the character's red pixels), which becomes the README's picture
//! (`docs/images/view.png`) with `FLINCH_UPDATE_SCREENSHOT=1`. Prints `figure view_*` lines (speed figures are printed, never asserted). A missing
//! node, npm package or chromium is a loud skip, a failure under `CI=true`.
//!
//! Then the skinned run (the corpus' RobotExpressive, `flinch view --onto`): the page reports the skinned mesh
//! loaded, and the screenshot of the skin alone differs from the same view without the characters on thousands
//! of pixels (`docs/images/view_skin.png` is its picture with translucent capsules); the render time with 10
//! skinned characters in each draw mode (`figure view_frame_ms_skin*`).

mod common;
mod view_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn skip(why: &str) {
    assert!(!common::ci(), "{why}; CI=true makes this a failure");
    eprintln!("\n!!!!! SKIPPED view_e2e: {why} !!!!!\n");
}

/// node, the npm packages (installed from the lock when missing) and chromium, or why not.
fn tools() -> Result<PathBuf, String> {
    let tools = root().join("tools/view-e2e");
    Command::new("node")
        .arg("--version")
        .output()
        .map_err(|e| format!("node is not runnable ({e})"))?;
    if !tools.join("node_modules/puppeteer-core").is_dir() {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--prefix"])
            .arg(&tools)
            .env("PUPPETEER_SKIP_DOWNLOAD", "1")
            .status()
            .map_err(|e| format!("npm is not runnable ({e})"))?;
        if !status.success() || !tools.join("node_modules/puppeteer-core").is_dir() {
            return Err("npm ci --prefix tools/view-e2e failed".into());
        }
    }
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.is_file() {
        return Err(format!(
            "{} not found (apt-get install chromium)",
            chromium.display()
        ));
    }
    Ok(chromium)
}

/// Pixels of the simulated character's red (shaded) against the page's dark background, and pixels that differ
/// from the background at all.
fn count_pixels(png_path: &Path) -> (usize, usize, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_path).expect("screenshot"),
    ));
    let mut reader = decoder.read_info().expect("png");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("frame");
    let channels = info.color_type.samples();
    let (mut red, mut differ) = (0, 0);
    for px in buf[..info.buffer_size()].chunks(channels) {
        let (r, g, b) = (px[0] as i32, px[1] as i32, px[2] as i32);
        if r > g + 50 && r > b + 50 && r > 90 {
            red += 1;
        }
        if (r - 0x20).abs() + (g - 0x24).abs() + (b - 0x2b).abs() > 40 {
            differ += 1;
        }
    }
    (red, differ, (info.width * info.height) as usize)
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Pixels that differ between two screenshots of the same size (sum of channel differences over 40).
fn differing_pixels(a: &Path, b: &Path) -> (usize, usize) {
    let read = |p: &Path| {
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(p).expect("screenshot"),
        ));
        let mut reader = decoder.read_info().expect("png");
        let mut buf = vec![0; reader.output_buffer_size().expect("size")];
        let info = reader.next_frame(&mut buf).expect("frame");
        buf.truncate(info.buffer_size());
        (
            buf,
            info.color_type.samples(),
            (info.width * info.height) as usize,
        )
    };
    let (a, ca, total) = read(a);
    let (b, cb, _) = read(b);
    let differ = a
        .chunks(ca)
        .zip(b.chunks(cb))
        .filter(|(x, y)| {
            (0..3)
                .map(|i| (x[i] as i32 - y[i] as i32).abs())
                .sum::<i32>()
                > 40
        })
        .count();
    (differ, total)
}

/// Runs the driver on a server's page; its JSON result.
fn drive(url: &str, shot: &Path, chromium: &Path, extra: &[&str]) -> Value {
    let out = Command::new("node")
        .arg(root().join("tools/view-e2e/e2e.mjs"))
        .arg(url)
        .arg(shot)
        .args(extra)
        .env("CHROMIUM", chromium)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.lines().last().unwrap_or("")).unwrap_or_else(|e| {
        panic!(
            "e2e output is not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn view_in_headless_chromium() {
    let chromium = match tools() {
        Ok(c) => c,
        Err(why) => return skip(&why),
    };
    let mut figures = capsule_run(&chromium);
    match common::corpus_dir() {
        Some(dir) => figures.push_str(&skin_run(
            &chromium,
            &dir.join("gltf/RobotExpressive_threejs_reexport.glb"),
        )),
        None => eprintln!(
            "\n!!!!! SKIPPED the skinned run of view_e2e: no corpus (RobotExpressive) !!!!!\n"
        ),
    }
    let out_dir = root().join("target/view-e2e");
    std::fs::write(out_dir.join("figures.txt"), figures).expect("figures");
}

/// The skinned run: `flinch view --onto ROBOT`; returns its figure lines.
fn skin_run(chromium: &Path, robot: &Path) -> String {
    let server = view_support::Server::start(&["--onto", robot.to_str().expect("utf-8 path")]);
    let out_dir = root().join("target/view-e2e");
    let shot = out_dir.join("view_skin.png");
    for tag in ["", "_empty", "_both"] {
        let _ = std::fs::remove_file(out_dir.join(format!("view_skin{tag}.png")));
    }
    let result = drive(&server.url, &shot, chromium, &["skin"]);
    eprintln!("e2e skinned result: {result}");
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["skin"]["loaded"], 1, "{result}");
    assert_eq!(result["skin10"]["loaded"], 10, "{result}");
    let (skin_pixels, total) = differing_pixels(&shot, &out_dir.join("view_skin_empty.png"));
    assert!(
        skin_pixels > 2000,
        "the skin drew {skin_pixels} of {total} pixels (screenshot against the same view without it)"
    );
    if std::env::var_os("FLINCH_UPDATE_SCREENSHOT").is_some() {
        std::fs::copy(
            out_dir.join("view_skin_both.png"),
            root().join("docs/images/view_skin.png"),
        )
        .expect("copy screenshot");
    }
    let ms = |m: &str, k: &str| result["frameMs"][m][k].as_f64().unwrap_or(f64::NAN);
    let mut figures = format!("figure view_skin_pixels {skin_pixels} (of {total})\n");
    for (mode, name) in [
        ("both", "view_frame_ms_skin"),
        ("skin", "view_frame_ms_skin_only"),
        ("capsules", "view_frame_ms_skin_as_capsules"),
    ] {
        println!("figure {name} {:.2} ms", ms(mode, "median"));
        figures.push_str(&format!(
            "figure {name} {:.2} ms (mean {:.2}, {} frames, 10 RobotExpressive characters, draw mode {mode})\n",
            ms(mode, "median"),
            ms(mode, "mean"),
            result["frameMs"][mode]["count"],
        ));
    }
    println!("figure view_skin_pixels {skin_pixels}");
    eprint!("{figures}");
    figures
}

/// The capsule run of the embedded walk; returns its figure lines.
fn capsule_run(chromium: &Path) -> String {
    let server = view_support::Server::start(&[]);
    // The simulation alone for 2 s: the step time without a page, against with one (same run, same scene).
    std::thread::sleep(std::time::Duration::from_secs(2));
    let out_dir = root().join("target/view-e2e");
    std::fs::create_dir_all(&out_dir).expect("out dir");
    let shot = out_dir.join("view.png");
    let _ = std::fs::remove_file(&shot);
    let result = drive(&server.url, &shot, chromium, &[]);
    eprintln!("e2e result: {result}");
    assert_eq!(result["ok"], true, "{result}");
    let hit = &result["hitEvent"];
    assert_eq!(hit["bone"], "RightForeArm", "the click hit {hit}");
    let peak = result["peakDeviationDeg"].as_f64().expect("peak");
    assert!(peak >= 10.0, "peak deviation {peak}° after the click");
    let (red, differ, total) = count_pixels(&shot);
    assert!(
        red > 2000 && differ > total / 50,
        "blank screenshot: {red} character pixels, {differ} of {total} differ from the background"
    );
    // The README's picture is this screenshot; it is refreshed on request only, so a test run leaves the
    // checkout clean (FLINCH_UPDATE_SCREENSHOT=1 cargo test --test view_e2e).
    if std::env::var_os("FLINCH_UPDATE_SCREENSHOT").is_some() {
        std::fs::copy(&shot, root().join("docs/images/view.png")).expect("copy screenshot");
    } else {
        eprintln!(
            "screenshot: {} (FLINCH_UPDATE_SCREENSHOT=1 copies it to docs/images/view.png)",
            shot.display()
        );
    }

    // The page has closed: the same 10-character scene runs alone for 3 s, then a client asks for the timings
    // (per physics step, the simulation thread's work with the page connected and without).
    std::thread::sleep(std::time::Duration::from_secs(3));
    let mut client = server.connect(None).expect("connect");
    client.send(r#"{"type":"stats"}"#);
    let stats = client
        .wait_json(std::time::Duration::from_secs(10), |v| v["type"] == "stats")
        .expect("stats");
    let stats = &stats;
    let alone = stats["step_us_alone"].as_f64().unwrap_or(f64::NAN);
    let watched = stats["step_us_watched"].as_f64().unwrap_or(f64::NAN);
    let latency: Vec<f64> = result["latencyMs"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    println!(
        "figure view_frame_ms {:.2} ms",
        result["frameMsMedian"].as_f64().unwrap_or(f64::NAN)
    );
    println!(
        "figure view_sim_overhead_pct {:.1} %",
        (watched / alone - 1.0) * 100.0
    );
    let arrival: Vec<f64> = result["arrivalMs"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    println!("figure view_latency_ms {:.1} ms", median(&latency));
    println!("figure view_e2e_ok 1");
    let figures = format!(
        "figure view_frame_ms {:.2} ms (mean {:.2}, {} frames, 10 characters, antialias {})\nfigure view_sim_overhead_pct {:.1} % \
         ({alone:.1} µs per step alone over {} steps, {watched:.1} µs with the page over {})\nfigure view_latency_ms \
         {:.1} ms (median of {latency:?}; the frame's arrival alone: median {:.1} of {arrival:?})\nfigure \
         view_e2e_ok 1\n",
        result["frameMsMedian"].as_f64().unwrap_or(f64::NAN),
        result["frameMsMean"].as_f64().unwrap_or(f64::NAN),
        result["framesMeasured"],
        result["antialias"],
        (watched / alone - 1.0) * 100.0,
        stats["steps_alone"],
        stats["steps_watched"],
        median(&latency),
        median(&arrival),
    );
    eprint!("{figures}");
    figures
}
