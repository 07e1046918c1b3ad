//! The mocap-character benchmarks (issue 4). `cargo bench --bench character`.
//!
//! - Preprocessing of a 60 s, 120 fps clip (the embedded CMU walk played forwards and backwards until 60 s, so the
//!   motion stays continuous): forward kinematics, zero-phase filter, resampling, finite differences and both
//!   inverse dynamics (`ReferenceMotion::build`); goal ≤ 20 ms. `Character::new` (which adds the model, the world
//!   and the drives' residual corrections) is timed too.
//! - One `Character::step` of the CMU walk character (19 bodies), h = 1/120 s; goal ≤ 10 µs; beside MuJoCo's
//!   humanoid `mj_step` and `mj_inverse` measured in the same run.

#[path = "../examples/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Instant;

use common::mujoco::mujoco_timings;
use common::worlds::quantile;
use flinch::control::{Character, CharacterConfig, ReferenceMotion};
use flinch::model::Model;

fn main() {
    println!("{}", flinch::cpu_report());
    let imported = flinch::io::load_embedded_walk(&Default::default()).unwrap();
    let mut clip = imported.clip.clone();
    clip.drop_first_frame();
    let one_way = clip.frames.clone();
    let target = (60.0 / clip.frame_time).round() as usize + 1;
    let mut forward = false;
    while clip.frames.len() < target {
        let mut leg: Vec<_> = one_way.iter().skip(1).cloned().collect();
        if !forward {
            leg.reverse();
        }
        forward = !forward;
        clip.frames.extend(leg);
    }
    clip.frames.truncate(target);
    let config = CharacterConfig::default();
    let model = Model::from_skeleton(&imported.skeleton, &config.model).unwrap();
    let mut t: Vec<f64> = (0..11)
        .map(|_| {
            let t0 = Instant::now();
            black_box(
                ReferenceMotion::build(&model, &imported.skeleton, &clip, &config.preprocess)
                    .unwrap(),
            );
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let preprocess = quantile(&mut t, 0.5);
    let mut t: Vec<f64> = (0..5)
        .map(|_| {
            let t0 = Instant::now();
            black_box(Character::new(imported.skeleton.clone(), clip.clone(), &config).unwrap());
            t0.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let build = quantile(&mut t, 0.5);
    println!(
        "preprocess: {} frames ({:.1} s at {:.0} fps), {} bodies: median {preprocess:.2} ms; Character::new {build:.2} ms",
        clip.frames.len(),
        clip.duration(),
        clip.frame_rate(),
        model.bodies.len()
    );

    let mut character = Character::new(imported.skeleton.clone(), clip, &config).unwrap();
    let h = character.step_size();
    for _ in 0..240 {
        character.step(h).unwrap();
    }
    let mut t: Vec<f64> = (0..4000)
        .map(|_| {
            let t0 = Instant::now();
            black_box(character.step(h).unwrap());
            t0.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    let median = quantile(&mut t, 0.5);
    let p90 = quantile(&mut t, 0.9);
    println!(
        "Character::step (CMU walk, 19 bodies, h = 1/120 s): median {median:.2} µs, p90 {p90:.2} µs over 4000 steps"
    );
    println!("figure preprocess_60s_ms {preprocess:.2} ms");
    println!("figure character_build_60s_ms {build:.2} ms");
    println!("figure character_step_us {median:.2} us");
    if let Some(mj) = mujoco_timings() {
        println!("figure mujoco_step_us {:.2} us", mj.step_us);
        println!("figure mujoco_inverse_us {:.2} us", mj.inverse_us);
        println!(
            "figure character_over_mujoco_step {:.3} ratio",
            median / mj.step_us
        );
        println!(
            "figure preprocess_step_over_mujoco_inverse {:.3} ratio",
            preprocess * 1e3 / 7200.0 / mj.inverse_us
        );
    }
}
