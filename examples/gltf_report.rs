//! Prints what the glTF importer makes of every file in the corpus (or of the files given):
//! `cargo run --release --example gltf_report [files...]`.
//!
//! Per file: format, joints, animations, the chosen clip, unit, rest-pose extent and warnings; then one
//! `figure` line per file for the joint count.

use std::path::PathBuf;

use flinch::io::ImportOptions;
use flinch::io::gltf_import::{animation_names, import_file};
use flinch::skeleton::Pose;

fn main() {
    let mut files: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        let dir = std::env::var_os("FLINCH_DATA")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
            .join("gltf");
        files = std::fs::read_dir(&dir)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
    }
    for path in &files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let names = std::fs::read(path)
            .ok()
            .and_then(|b| animation_names(&b).ok())
            .unwrap_or_default();
        println!("== {name}: animations {names:?}");
        let anims: Vec<Option<String>> = if names.is_empty() {
            vec![None]
        } else {
            (0..names.len()).map(|i| Some(i.to_string())).collect()
        };
        for anim in anims {
            let opts = ImportOptions {
                animation: anim.clone(),
                ..Default::default()
            };
            match import_file(path, &opts) {
                Ok(imp) => {
                    let sk = &imp.skeleton;
                    let world = Pose::rest(sk).world_transforms(sk);
                    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
                    for w in &world {
                        lo = lo.min(w.translation.vector.y);
                        hi = hi.max(w.translation.vector.y);
                    }
                    let pos_joints = sk
                        .joints
                        .iter()
                        .filter(|j| j.has_position_channels())
                        .count();
                    println!(
                        "  anim {:?}: {} {} joints (root '{}'), {} frames at {:.3} fps = {:.4} s, unit {}, \
                         rest height {:.3} m, {} joints with position channels",
                        anim.as_deref()
                            .and_then(|a| a.parse::<usize>().ok())
                            .and_then(|i| names.get(i)),
                        imp.report.format,
                        sk.len(),
                        sk.joints.first().map(|j| j.name.as_str()).unwrap_or(""),
                        imp.clip.frame_count(),
                        imp.clip.frame_rate(),
                        imp.clip.duration(),
                        imp.report.unit.name(),
                        hi - lo,
                        pos_joints
                    );
                    for w in &imp.report.warnings {
                        println!("    warning: {w}");
                    }
                }
                Err(e) => println!("  anim {anim:?}: ERROR {e}"),
            }
        }
    }
}
