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
