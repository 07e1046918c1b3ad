//! Corrupt input never panics: every corpus glTF/GLB truncated at 20 positions and with 20 random byte flips
//! (plus 20 flips inside the JSON) imports or fails with an error. Seeded, so failures reproduce.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use common::Lcg;
use flinch::io::ImportOptions;
use flinch::io::gltf_import::{animation_names, import};

/// Imports `bytes` (every animation when there are several, so that all channels are read) and reports a panic
/// as a test failure naming the case.
fn must_not_panic(bytes: &[u8], case: &str, outcomes: &mut [usize; 2]) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let names = animation_names(bytes).unwrap_or_default();
        let picks: Vec<Option<String>> = if names.is_empty() {
            vec![None]
        } else {
            (0..names.len()).map(|i| Some(i.to_string())).collect()
        };
        picks
            .into_iter()
            .map(|animation| {
                let opts = ImportOptions {
                    animation,
                    ..Default::default()
                };
                import(bytes, None, &opts).map(|imp| {
                    // Whatever imports must be usable: finite poses on a valid skeleton.
                    assert!(imp.clip.frames.iter().all(|f| {
                        f.translations
                            .iter()
                            .all(|t| t.iter().all(|x| x.is_finite()))
                    }));
                    assert!(imp.clip.frame_time.is_finite() && imp.clip.frame_time > 0.0);
                })
            })
            .collect::<Vec<_>>()
    }));
    match result {
        Ok(rs) => {
            for r in rs {
                outcomes[usize::from(r.is_err())] += 1;
            }
        }
        Err(_) => panic!("import panicked on {case}"),
    }
}

#[test]
fn truncated_and_flipped_corpus_files_never_panic() {
    let files: Vec<_> = common::corpus_files("gltf", "gltf")
        .into_iter()
        .chain(common::corpus_files("gltf", "glb"))
        .collect();
    let mut rng = Lcg(0x05ee_d61f);
    let mut outcomes = [0usize; 2];
    // `FLINCH_FUZZ_ROUNDS` raises the 20 cases per kind for a longer local run.
    let rounds: usize = std::env::var("FLINCH_FUZZ_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let n = bytes.len();
        // The JSON region: the whole file for .gltf, the JSON chunk for .glb.
        let json_end = if bytes.starts_with(b"glTF") {
            20 + u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize
        } else {
            n
        }
        .min(n);
        for _ in 0..rounds {
            let cut = rng.below(n);
            must_not_panic(
                &bytes[..cut],
                &format!("{name} truncated at {cut}"),
                &mut outcomes,
            );
        }
        for (label, range) in [("anywhere", 0..n), ("in the JSON", 0..json_end)] {
            for _ in 0..rounds {
                let mut b = bytes.clone();
                let at = range.start + rng.below(range.len());
                let value = rng.below(256) as u8;
                b[at] = value;
                must_not_panic(
                    &b,
                    &format!("{name} byte {at} ({label}) set to {value:#04x}"),
                    &mut outcomes,
                );
            }
        }
    }
    println!("figure gltf_robustness_ok {} imports", outcomes[0]);
    println!("figure gltf_robustness_err {} imports", outcomes[1]);
    if !files.is_empty() {
        assert!(
            outcomes[1] > 0,
            "corruption should be detected at least sometimes"
        );
    }
}

/// The GLB header and JSON chunk header (first 24 bytes) of a small GLB, each byte set to extreme values.
#[test]
fn glb_header_fields_at_extremes_never_panic() {
    let Some(path) = common::corpus_files("gltf", "glb")
        .into_iter()
        .find(|p| p.ends_with("assimp_quad_skin.glb"))
    else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let mut outcomes = [0usize; 2];
    for at in 0..24 {
        for value in [0u8, 1, 0x7f, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[at] = value;
            must_not_panic(
                &b,
                &format!("quad_skin byte {at} = {value:#04x}"),
                &mut outcomes,
            );
        }
    }
}
