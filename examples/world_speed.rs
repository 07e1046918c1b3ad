//! Issue 38's `raycast` and `level_step_overhead_pct`:
//! - 10 000 random rays against the walking CMU character (posed at t = 1 s) and the sample level, through the
//!   scene's query (bounding spheres, the level's hierarchy) and by brute force over every capsule and collider:
//!   the agreement (same target, same distance to 1e-9 m) and the time per ray;
//! - the assisted free-root walk stepped on the flat floor fitted to its clip, on a level of one plane at that
//!   floor, and in the sample level (28 884 triangles: its 28 800-triangle floor under the walk): µs per step
//!   (the best of 25 alternated rounds: on a shared VM a round the scheduler or a neighbour slows is the rule, and
//!   the median of 5 read the overhead anywhere from 11 to 55 % on one build) and the level's overhead.
//!
//! `cargo run --release --example world_speed`

use std::path::Path;
use std::time::Instant;

use flinch::control::{Character, CharacterConfig, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::level::{ColliderDesc, Level, LevelShape, load_level_file};
use flinch::scene::world_runs::posed_level;
use flinch::scene::{RayTarget, Scene};
use nalgebra::{Isometry3, Vector3};

fn walk(policy: RootPolicy) -> Result<Character, Box<dyn std::error::Error>> {
    let mut config = CharacterConfig::default();
    config.root.policy = policy;
    Ok(Character::from_imported(
        load_embedded_walk(&ImportOptions::default())?,
        &config,
    )?)
}

/// A small deterministic generator (the same rays every run).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}", flinch::cpu_report());
    let file = load_level_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/level/training_ground.glb"),
        None,
    )?;
    // The level's floor at the walk's fitted floor; the walk on its open floor (its features ≥ 2 m away).
    let probe = walk(RootPolicy::Assisted)?;
    let floor = probe.ground().map_or(0.0, |g| g.floor);
    let level_pose = Isometry3::translation(-10.0, floor, -5.0);

    // Rays.
    let mut scene = Scene::new();
    scene.set_level(posed_level(&file, &level_pose)?);
    let key = scene.add_character(walk(RootPolicy::Kinematic)?);
    let h = scene.character(key)?.step_size();
    for _ in 0..120 {
        scene.step(h)?;
    }
    let centre = scene.character(key)?.world().body(0).position;
    let mut rng = Lcg(42);
    let n = 10_000;
    let rays: Vec<(Vector3<f64>, Vector3<f64>)> = (0..n)
        .map(|i| {
            let o =
                centre + Vector3::new(rng.next() - 0.5, rng.next() * 0.5, rng.next() - 0.5) * 6.0;
            // Half the rays aimed at the character (within 0.5 m of its root), half in random directions.
            let d = if i % 2 == 0 {
                centre + Vector3::new(rng.next() - 0.5, rng.next() * 1.6 - 0.8, rng.next() - 0.5)
                    - o
            } else {
                Vector3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5)
            };
            (o, d)
        })
        .collect();
    let (mut agree, mut on_character, mut on_level) = (0, 0, 0);
    for (o, d) in &rays {
        let a = scene.cast_ray(o, d, 50.0, u32::MAX);
        let b = scene.cast_ray_brute(o, d, 50.0, u32::MAX);
        let same = match (&a, &b) {
            (Some(a), Some(b)) => a.target == b.target && (a.distance - b.distance).abs() < 1e-9,
            (None, None) => true,
            _ => false,
        };
        agree += usize::from(same);
        match a.map(|h| h.target) {
            Some(RayTarget::Character { .. }) => on_character += 1,
            Some(RayTarget::Collider(_)) => on_level += 1,
            None => {}
        }
    }
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        let mut hits = 0usize;
        for (o, d) in &rays {
            hits += usize::from(scene.cast_ray(o, d, 50.0, u32::MAX).is_some());
        }
        std::hint::black_box(hits);
        best = best.min(t.elapsed().as_secs_f64() / n as f64);
    }
    println!(
        "{n} rays: {on_character} on the character, {on_level} on the level, {} miss",
        n - on_character - on_level
    );
    println!(
        "figure ray_agreement_pct {:.2} %",
        100.0 * agree as f64 / n as f64
    );
    println!("figure ray_us {:.3} us", best * 1e6);

    // Steps.
    let mut plane = Level::new();
    plane.add(ColliderDesc::new(
        LevelShape::Plane {
            normal: Vector3::y(),
        },
        Isometry3::translation(0.0, floor, 0.0),
    ))?;
    let sample = posed_level(&file, &level_pose)?;
    let cases: [(&str, Option<&Level>); 3] = [
        ("flat floor", None),
        ("plane", Some(&plane)),
        ("level", Some(&sample)),
    ];
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..25 {
        for (i, (_, level)) in cases.iter().enumerate() {
            let mut c = walk(RootPolicy::Assisted)?;
            let steps = ((c.reference().duration() / c.step_size()) as usize).min(330);
            let t = Instant::now();
            for _ in 0..steps {
                c.step_in(c.step_size(), *level)?;
            }
            times[i].push(t.elapsed().as_secs_f64() * 1e6 / steps as f64);
        }
    }
    let best = |v: &Vec<f64>| v.iter().copied().fold(f64::INFINITY, f64::min);
    let us: Vec<f64> = times.iter().map(best).collect();
    for ((name, _), t) in cases.iter().zip(&us) {
        println!("{name}: {t:.2} us per free-root step");
    }
    println!("figure level_step_us {:.2} us", us[2]);
    println!("figure plane_step_us {:.2} us", us[1]);
    println!("figure flat_step_us {:.2} us", us[0]);
    println!(
        "figure level_step_overhead_pct {:.1} %",
        100.0 * (us[2] / us[1] - 1.0)
    );
    println!(
        "figure level_step_overhead_vs_flat_pct {:.1} %",
        100.0 * (us[2] / us[0] - 1.0)
    );
    Ok(())
}
