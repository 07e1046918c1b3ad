//! Issue 39's balanced-root experiments: each clip (the CMU walk, and the shared jump and SFU walk) with a balanced
//! root, its `BalanceConfig` overridden from the environment (`BAL_<FIELD>=value`, e.g. `BAL_REANCHOR_HZ=0.5`;
//! `FALL_DISTANCE_M` for the fall test's distance), printing the first fall's time and a trace every 0.1 s of the
//! root's lag behind the un-anchored clip root, its pitch against the clip's and the anchor's shift.
//! `cargo run --release --example balance_probe`

use std::path::PathBuf;

use flinch::control::{Character, CharacterConfig, RootPolicy, RootState};
use flinch::io::{ImportOptions, load_embedded_walk, load_file};

fn env(name: &str) -> Option<f64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data = std::env::var("FLINCH_DATA").unwrap_or_else(|_| "../shared/data".into());
    let only = std::env::var("CLIPS").unwrap_or_else(|_| "walk,jump,sfu".into());
    let trace = std::env::var("TRACE").is_ok();
    let mut clips: Vec<(&str, Option<PathBuf>)> = Vec::new();
    for (key, name) in [
        ("walk", "cmu_02_01_walk"),
        ("jump", "cmu_01_01_jump"),
        ("sfu", "sfu_0005_Walking001"),
    ] {
        if !only.split(',').any(|c| c == key) {
            continue;
        }
        if key == "walk" {
            clips.push((name, None));
        } else {
            clips.push((
                name,
                Some(PathBuf::from(&data).join("bvh").join(format!("{name}.bvh"))),
            ));
        }
    }
    for (name, path) in clips {
        let mut config = CharacterConfig::default();
        config.root.policy = match std::env::var("POLICY").as_deref() {
            Ok("free") => RootPolicy::Free,
            Ok("assisted") => RootPolicy::Assisted,
            _ => RootPolicy::Balanced,
        };
        if let Some(d) = env("FALL_DISTANCE_M") {
            config.root.fall_distance_m = d;
        }
        let b = &mut config.root.balance;
        for (field, slot) in [
            ("FREQUENCY_HZ", &mut b.frequency_hz),
            ("ANGULAR_FREQUENCY_HZ", &mut b.angular_frequency_hz),
            ("TORSO_GAIN", &mut b.torso_gain),
            ("STEP_GAIN", &mut b.step_gain),
            ("CAPTURE_TIME_S", &mut b.capture_time_s),
            ("TOUCH_HEIGHT_M", &mut b.touch_height_m),
            ("REANCHOR_HZ", &mut b.reanchor_hz),
            ("HORIZONTAL_FEEDBACK", &mut b.horizontal_feedback),
            ("WARP_TIME_S", &mut b.warp_time_s),
        ] {
            if let Some(v) = env(&format!("BAL_{field}")) {
                *slot = v;
            }
        }
        if let Some(v) = env("BAL_STEPPING") {
            b.stepping = v != 0.0;
        }
        let imported = match &path {
            None => load_embedded_walk(&ImportOptions::default())?,
            Some(p) => load_file(p, &ImportOptions::default())?,
        };
        let mut c = Character::from_imported(imported, &config)?;
        if std::env::var("POINTS").is_ok() {
            let g = c.ground().unwrap();
            for (i, p) in g.points.iter().enumerate() {
                println!(
                    "point {i} body {} ({}) side {:?} local {:?}",
                    p.body,
                    c.model().bodies[p.body].name,
                    p.side,
                    p.local
                );
            }
        }
        let duration = env("DURATION").unwrap_or(c.reference().duration());
        let h = c.step_size();
        let every = (0.1 / h).round() as usize;
        let prepared = c.prepared().clone();
        let mut n = 0usize;
        let mut clip_at_fall = None;
        let f = c.run_free_root(duration, |c| {
            n += 1;
            if clip_at_fall.is_none() && c.root_state() == RootState::Falling {
                clip_at_fall = Some(c.clip_time());
            }
            if trace && n % every == 0 && c.root_state() == RootState::Tracking {
                let t = c.time();
                let tc = c.clip_time();
                let (clip, q_clip) = prepared.root_target(tc);
                let (anchored, _) = c.root_target(t);
                let root = c.world().body(0);
                let v = root.velocity.fixed_rows::<3>(3).into_owned();
                let d = root.position - clip;
                let dt = 0.02;
                let (clip_next, _) = prepared.root_target(tc + dt);
                let vc = (clip_next - clip) / dt;
                let tilt = root.orientation.angle_to(&q_clip).to_degrees();
                let e = (root.orientation * q_clip.inverse()).scaled_axis() * 57.3;
                println!(
                    "  t {t:.2} clip {tc:.2} root-clip ({:+.3} {:+.3} {:+.3}) m, anchor shift ({:+.3} {:+.3}) m, v ({:+.2} {:+.2} {:+.2}) clip vz {:+.2}, tilt {tilt:.1}° ({:+.1} {:+.1} {:+.1})",
                    d.x,
                    d.y,
                    d.z,
                    anchored.x - clip.x,
                    anchored.z - clip.z,
                    v.x,
                    v.y,
                    v.z,
                    vc.z,
                    e.x,
                    e.y,
                    e.z
                );
            }
            Ok(())
        })?;
        let fell_at = c
            .root_events()
            .iter()
            .find(|e| e.to == RootState::Falling)
            .map(|e| e.time);
        println!(
            "{name}: fell at {} (clip {:.3}, end clip {:.3}) | track {:.2}° root rms {:.1} mm floor {:.3} slide {:.1} mm pen {:.2} mm assist {}",
            fell_at.map_or("-".into(), |t| format!("{t:.3} s")),
            clip_at_fall.unwrap_or(-1.0),
            c.clip_time(),
            f.track_rms_deg,
            f.root_pos_rms_mm,
            f.feet_support_frac,
            f.foot_slide_mm,
            f.max_penetration_mm,
            f.assist_wrench_frac
        );
    }
    Ok(())
}
