//! Issue 11's `free_root_walk`: the CMU walk (and the shared jump and SFU walk) with an assisted free root —
//! the feet on a fitted floor through the contact LCP, the ground reaction in the feedforward, the residual root
//! wrench and an implicit spring toward the clip's root pose carrying the rest — no hit; then each clip with a
//! balanced root (issue 39: no external wrench; its figures are prefixed `balanced_`).
//! `cargo run --release --example free_root_walk [CLIP.bvh ...]`

use std::path::PathBuf;

use flinch::control::{Character, CharacterConfig, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk, load_file};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data = std::env::var("FLINCH_DATA").unwrap_or_else(|_| "../shared/data".into());
    let mut clips: Vec<(String, Option<PathBuf>)> = vec![("cmu_02_01_walk".into(), None)];
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        for name in ["cmu_01_01_jump", "sfu_0005_Walking001"] {
            let path = PathBuf::from(&data).join("bvh").join(format!("{name}.bvh"));
            if path.exists() {
                clips.push((name.into(), Some(path)));
            } else {
                eprintln!("{} not found (set FLINCH_DATA): skipped", path.display());
            }
        }
    } else {
        clips = args
            .iter()
            .map(|a| {
                let p = PathBuf::from(a);
                let name = p
                    .file_stem()
                    .map_or(a.clone(), |s| s.to_string_lossy().into());
                (name, Some(p))
            })
            .collect();
    }
    // Each clip assisted (the figures of issue 11), then balanced (no external wrench; issue 39's `balance_walk`
    // figures, prefixed `balanced_`).
    let runs = clips.iter().enumerate().flat_map(|(i, clip)| {
        [RootPolicy::Assisted, RootPolicy::Balanced]
            .into_iter()
            .map(move |p| (i, clip, p))
    });
    for (i, (name, path), policy) in runs {
        let mut config = CharacterConfig::default();
        config.root.policy = policy;
        let imported = match path {
            None => load_embedded_walk(&ImportOptions::default())?,
            Some(p) => load_file(p, &ImportOptions::default())?,
        };
        let started = std::time::Instant::now();
        let mut c = Character::from_imported(imported, &config)?;
        let prepare_ms = started.elapsed().as_secs_f64() * 1e3;
        let ground = c.ground().ok_or("no ground")?;
        println!(
            "{name} ({}): floor {:.4} m, stance-foot height error {:.2} mm, {} sole points, root lift up to {:.2} mm, \
             prepared in {prepare_ms:.0} ms",
            policy.name(),
            ground.floor,
            ground.stance_height_error * 1e3,
            ground.point_count(),
            ground.lift.iter().fold(0.0f64, |a, l| a.max(l.abs())) * 1e3
        );
        let duration = c.reference().duration();
        let started = std::time::Instant::now();
        let f = c.run_free_root(duration, |_| Ok(()))?;
        let us = started.elapsed().as_secs_f64() * 1e6 / f.steps.max(1) as f64;
        println!(
            "  {} steps, {us:.1} µs per step, final state {:?}",
            f.steps,
            c.root_state()
        );
        for e in c.root_events() {
            println!(
                "  event t {:.3} s {} -> {}",
                e.time,
                e.from.name(),
                e.to.name()
            );
        }
        // The embedded walk's figures carry the names; the others are prefixed by the clip.
        let clip = if i == 0 {
            String::new()
        } else {
            format!("{name}_")
        };
        let prefix = match policy {
            RootPolicy::Balanced => format!("balanced_{clip}"),
            _ => clip,
        };
        let mut by_body: Vec<(usize, f64)> = f
            .track_rms_by_body_deg
            .iter()
            .copied()
            .enumerate()
            .collect();
        by_body.sort_by(|a, b| b.1.total_cmp(&a.1));
        let bones = &c.model().bodies;
        let worst: Vec<String> = by_body
            .iter()
            .take(6)
            .map(|(b, e)| format!("{} {e:.2}", bones[*b].name))
            .collect();
        println!("  worst joints (rms deg): {}", worst.join(", "));
        for line in f.figure_lines(&prefix) {
            println!("{line}");
        }
    }
    Ok(())
}
