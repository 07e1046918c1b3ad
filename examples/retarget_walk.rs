//! Issue 15's `retarget_walk`: CMU and SFU clips retargeted onto RobotExpressive, simulated unperturbed and
//! with a ball on the right forearm, and written as the robot's own GLB (validated when node and
//! tools/gltf-validator are installed). Prints `figure <name> <value> <unit>` per pair (the retarget figures,
//! the unperturbed tracking, and the hit: `hit_peak_deg`, `hit_return_s`, `hit_impulse_ns`, for the demo's ball
//! sized by the leg ratio and with the impulse that turns the forearm as the demo turns the performer's, `retarget::hit_scale`); the Fox is refused.
//! `FLINCH_DATA=/work/shared/data cargo run --release --example retarget_walk`

use std::path::{Path, PathBuf};

use flinch::bake::{BakeMode, HitScript, bake};
use flinch::control::{Character, CharacterConfig};
use flinch::io::ImportOptions;
use flinch::retarget::{
    RetargetOptions, bake_onto, hit_scale, load_onto, performer_config, retarget, scaled_ball,
};
use flinch::scene::impulse_on_body;

fn data() -> PathBuf {
    std::env::var_os("FLINCH_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// Validator errors of a written file, `None` when node or the validator package is missing.
fn validator_errors(file: &Path) -> Option<u64> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root
        .join("tools/gltf-validator/node_modules/gltf-validator")
        .is_dir()
    {
        return None;
    }
    let out = std::process::Command::new("node")
        .arg(root.join("tools/gltf-validator/validate.mjs"))
        .arg(file)
        .output()
        .ok()?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    v["numErrors"].as_u64().or_else(|| v["errors"].as_u64())
}

fn run_pair(clip: &str, character: &str) -> Result<(), Box<dyn std::error::Error>> {
    let data = data();
    let clip_path = data.join("bvh").join(clip);
    let char_path = data.join("gltf").join(character);
    let onto = load_onto(
        &char_path,
        Some(&clip_path),
        None,
        &ImportOptions::default(),
    )?;
    let r = retarget(
        &onto.source.skeleton,
        &onto.source.clip,
        &onto.target.skeleton,
        &onto.map,
        &RetargetOptions::default(),
    )?;
    let pair = format!("{} -> {}", clip, character);
    println!("== {pair}");
    println!(
        "  leg ratio {:.3}, heading turn {:.1} deg, {} frames",
        r.leg_ratio,
        r.heading_deg,
        r.clip.frames.len()
    );
    let f = &r.figures;
    println!("figure leg_ratio {:.3} x", r.leg_ratio);
    println!("figure foot_skate_mm {:.3} mm", f.foot_skate_mm);
    println!("figure foot_penetration_mm {:.3} mm", f.foot_penetration_mm);
    println!("figure root_path_err_pct {:.3} %", f.root_path_err_pct);
    println!("figure limb_dir_err_deg {:.3} deg", f.limb_dir_err_deg);

    let config = performer_config(
        &onto.source.skeleton,
        &onto.target.skeleton,
        &onto.tree,
        &CharacterConfig::default(),
    );
    let character = Character::new(onto.target.skeleton.clone(), r.clip.clone(), &config)?;
    let still = bake(character, &HitScript::default(), BakeMode::Layered, |_| {})?;
    println!(
        "figure track_rms_deg {:.4e} deg",
        still.evaluation.track_rms_deg
    );
    let forearm = onto
        .tree
        .key("right_forearm")
        .map(|k| onto.target.skeleton.joints[k.target].name.clone())
        .ok_or("no right forearm")?;
    let out = std::env::temp_dir().join(format!(
        "retarget_walk_{}_{}.glb",
        clip.trim_end_matches(".bvh"),
        std::process::id()
    ));
    // The impulse under which the robot's forearm turns as fast as the performer's under the demo's ball.
    let kick = hit_scale(
        &onto.source.skeleton,
        &onto.target.skeleton,
        &onto.tree,
        &CharacterConfig::default(),
        &forearm,
    )
    .ok_or("no hit scale for the forearm")?;
    println!("figure hit_scale {kick:.3} x");
    let character = Character::new(onto.target.skeleton.clone(), r.clip.clone(), &config)?;
    // The demo's ball as is (aimed across the path), for comparison with the scaled one below.
    let demo_ball = scaled_ball(&onto.target.skeleton, &r.clip, &forearm, 1.0, 1.0);
    let plain = bake(character, &demo_ball, BakeMode::Layered, |_| {})?;
    if let Some(h) = &plain.evaluation.hit {
        println!("figure hit_peak_unscaled_ball_deg {:.3} deg", h.peak_deg);
        println!(
            "figure hit_return_unscaled_ball_s {:.4} s",
            h.return_s.unwrap_or(f64::INFINITY)
        );
    }
    let summary = bake_onto(
        &char_path,
        Some(&clip_path),
        None,
        &out,
        &scaled_ball(&onto.target.skeleton, &r.clip, &forearm, r.leg_ratio, kick),
        &CharacterConfig::default(),
        &ImportOptions::default(),
        BakeMode::Layered,
        |_| {},
    )?;
    if let Some(e) = summary.baked.events.first() {
        // The ball's momentum goes over a first large contact and a few small ones while it rolls off the
        // limb: their sum on the body first hit is what it transferred, as ball_hits_arm measures it (the demo's 6.0 N·s on the CMU walker).
        let transferred = impulse_on_body(&summary.baked.events, e.character, e.body).norm();
        println!(
            "  first contact: {} at {:.3} s, {:.3} N*s",
            e.bone,
            e.time,
            e.impulse.norm()
        );
        println!("figure hit_impulse_ns {transferred:.3} N*s");
    }
    match &summary.baked.evaluation.hit {
        Some(h) => {
            println!(
                "  ball on {forearm}: peak at {} ({:.3} s)",
                h.peak_joint, h.peak_time
            );
            println!("figure hit_peak_deg {:.3} deg", h.peak_deg);
            println!(
                "figure hit_return_s {:.4} s",
                h.return_s.unwrap_or(f64::INFINITY)
            );
        }
        None => println!("  the ball missed {forearm}"),
    }
    match validator_errors(&out) {
        Some(n) => println!("figure validator_errors {n} count"),
        None => println!("  (validator not installed: npm ci --prefix tools/gltf-validator)"),
    }
    let _ = std::fs::remove_file(&out);
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let robot = "RobotExpressive_threejs_reexport.glb";
    for clip in [
        "cmu_02_01_walk.bvh",
        "cmu_01_01_jump.bvh",
        "sfu_0005_Walking001.bvh",
    ] {
        run_pair(clip, robot)?;
    }
    let fox = data().join("gltf/Fox.glb");
    let walk = data().join("bvh/cmu_02_01_walk.bvh");
    match load_onto(&fox, Some(&walk), None, &ImportOptions::default()) {
        Ok(_) => println!("Fox.glb: unexpectedly accepted as a humanoid"),
        Err(e) => println!("== cmu_02_01_walk.bvh -> Fox.glb refused: {e}"),
    }
    Ok(())
}
