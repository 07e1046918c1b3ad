//! `flinch demo`: the README's first command writes what it says and prints the hit figures.

mod common;

use common::flinch;

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

fn figure(stdout: &str, name: &str) -> f64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("figure {name} ")))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no figure {name} in:\n{stdout}"))
}

#[test]
fn demo_writes_motion_pictures_and_figures() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_demo");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, stdout, stderr) = flinch(&["demo", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    for name in [
        "demo_reacted.bvh",
        "demo_reacted.glb",
        "demo_filmstrip.png",
        "demo_filmstrip_front.png",
        "demo_deviation.png",
    ] {
        let path = dir.join(name);
        assert!(path.is_file(), "{name} missing:\n{stdout}");
        assert!(
            stdout.contains(&format!("wrote {}", path.display())),
            "{stdout}"
        );
    }
    let (w, h) = png_size(&std::fs::read(dir.join("demo_filmstrip.png")).unwrap());
    assert!(w > 800 && h > 200, "filmstrip {w}x{h}");
    let (w, h) = png_size(&std::fs::read(dir.join("demo_deviation.png")).unwrap());
    assert!(w >= 400 && h >= 300, "plot {w}x{h}");
    // The ball transfers about its momentum and the character reacts and recovers.
    let impulse = figure(&stdout, "hit_impulse_ns");
    assert!((0.8 * 6.75..=1.2 * 6.75).contains(&impulse), "{impulse}");
    let peak = figure(&stdout, "hit_peak_deg");
    assert!((15.0..60.0).contains(&peak), "{peak}");
    let back = figure(&stdout, "hit_return_s");
    assert!(back < 1.0, "{back}");
    assert!(figure(&stdout, "max_joint_gap_mm") < 1e-3);
    // The knock-down scene: the demo's ball leaves an assisted free root standing and back on its clip; the
    // heavy ball into the chest fells it, it comes to rest and gets up, the state events in that order.
    assert_eq!(figure(&stdout, "knockdown_small_fell"), 0.0, "{stdout}");
    assert!(
        figure(&stdout, "knockdown_small_hit_return_s") < 1.5,
        "{stdout}"
    );
    assert_eq!(figure(&stdout, "knockdown_fell"), 1.0, "{stdout}");
    assert!(figure(&stdout, "knockdown_rest_after_s") < 5.0, "{stdout}");
    let impulse = figure(&stdout, "knockdown_hit_impulse_ns");
    assert!((0.5 * 60.0..=1.5 * 60.0).contains(&impulse), "{impulse}");
    for prefix in ["knockdown_small_", "knockdown_"] {
        assert_eq!(figure(&stdout, &format!("{prefix}nan_steps")), 0.0);
        assert!(figure(&stdout, &format!("{prefix}max_joint_gap_mm")) < 1e-3);
        assert!(figure(&stdout, &format!("{prefix}max_penetration_mm")) < 5.0);
    }
    let transitions: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("event t "))
        .filter_map(|l| l.split_once(" s ").map(|(_, t)| t))
        .collect();
    let expected = [
        "Tracking -> Staggering",
        "Staggering -> Falling",
        "Falling -> Ragdoll",
        "Ragdoll -> Resting",
        "Resting -> GettingUp",
        "GettingUp -> Tracking",
    ];
    assert_eq!(transitions, expected, "{stdout}");
    let strip = dir.join("demo_knockdown_filmstrip.png");
    assert!(
        stdout.contains(&format!("wrote {}", strip.display())),
        "{stdout}"
    );
    // One slot every 0.25 s from before the hit to after the get-up: a long, low strip.
    let (w, h) = png_size(&std::fs::read(&strip).unwrap());
    assert!(w > 8 * h && h > 150, "knock-down filmstrip {w}x{h}");
    // The world scene (issue 38): three knock-downs in the sample level, none passing through it; the bat's hit
    // events; the bullets find bones.
    for place in ["wall", "stairs", "ledge"] {
        let f = |name: &str| figure(&stdout, &format!("knockdown_world_{place}_{name}"));
        assert_eq!(f("fell"), 1.0, "{place}: {stdout}");
        assert_eq!(f("tunnel_count"), 0.0, "{place}");
        assert_eq!(f("nan_steps"), 0.0, "{place}");
        assert!(f("max_penetration_mm") < 5.0, "{place}");
        assert!(f("rest_after_s") <= 4.0, "{place}");
        let strip = dir.join(format!("demo_world_{place}_filmstrip.png"));
        let (w, h) = png_size(&std::fs::read(&strip).unwrap());
        assert!(w > 8 * h && h > 150, "{place} filmstrip {w}x{h}");
    }
    assert!(figure(&stdout, "bat_hits") >= 1.0, "{stdout}");
    assert!(figure(&stdout, "bat_hit_peak_deg") >= 15.0, "{stdout}");
    assert!(figure(&stdout, "world_bullet_hits") >= 15.0, "{stdout}");
    // The GLB passes Khronos' validator without errors.
    if let Some(report) = common::gltf_validate(&dir.join("demo_reacted.glb")) {
        assert_eq!(report["numErrors"].as_u64(), Some(0), "{report}");
    }
    // Both motion files read back through flinch's importers, with the input's frame count.
    for name in ["demo_reacted.bvh", "demo_reacted.glb"] {
        let back = flinch::io::load_file(&dir.join(name), &Default::default()).expect(name);
        assert!(
            back.clip.frames.len() >= 340,
            "{name}: {}",
            back.clip.frames.len()
        );
    }
}

#[test]
fn demo_knockdown_options() {
    // A bad heavy ball is refused before anything is simulated: exit 2, one line naming the option.
    for (args, flag) in [
        (vec!["demo", "--knockdown-mass", "0"], "--knockdown-mass"),
        (vec!["demo", "--knockdown-speed=-3"], "--knockdown-speed"),
        (
            vec!["demo", "--knockdown-duration", "0.5"],
            "--knockdown-duration",
        ),
    ] {
        let (code, out, err) = flinch(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
    // --no-knockdown: the demo as before, no scene and no fall filmstrip.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_demo_no_knockdown");
    let _ = std::fs::remove_dir_all(&dir);
    let (code, stdout, stderr) = flinch(&[
        "demo",
        "--out",
        dir.to_str().unwrap(),
        "--no-knockdown",
        "--no-world",
        "--knockdown-mass",
        "0",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(figure(&stdout, "hit_peak_deg") > 15.0);
    assert!(
        !stdout.contains("knockdown:") && !stdout.contains("figure knockdown_"),
        "{stdout}"
    );
    assert!(dir.join("demo_filmstrip.png").is_file());
    assert!(!dir.join("demo_knockdown_filmstrip.png").exists());
}
