//! `flinch demo`'s world scene (issue 38): the embedded walk in the sample level `samples/level/
//! training_ground.glb` (embedded in the binary). The heavy ball knocks it into the wall, down the stairs and off
//! the ledge (a filmstrip each, seen along the walk with the level's cross-section), a kinematic bat is swung
//! through its head, and 20 ray-cast bullets find the bones they hit. Prints the figures.

use std::path::Path;
use std::sync::Arc;

use flinch::control::{Character, CharacterConfig, PreparedClip, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::level::{LevelFile, LoadOptions, load_level, sample::SPOTS};
use flinch::render::{Color, FilmFrame, FilmstripOptions, StickFigure, ViewAxis, filmstrip};
use flinch::scene::world_runs::{WORLD_HIT_TIME, bat_swing, knockdown_at, posed_level, spot_pose};
use flinch::scene::{KnockdownHit, RayTarget, Scene};
use nalgebra::{Isometry3, Vector3};

use crate::CliError;
use crate::stick::stick_figure_of;

/// The sample level, embedded so the demo runs from any folder.
pub(crate) const LEVEL_GLB: &[u8] = include_bytes!("../../../samples/level/training_ground.glb");
/// Time between filmstrip frames (s).
const FRAME_STEP: f64 = 0.25;
/// Simulated time of each knock-down (s): the fall, the rest and the get-up.
const DURATION: f64 = 7.0;

fn failed(e: &dyn std::fmt::Display) -> CliError {
    CliError::Other(format!("world scene: {e}"))
}

/// The level's cross-section under a line through `centre` along `across` (1 m before it, 2.2 m after), as
/// segments: what the filmstrip draws under the character.
fn cross_section(
    level: &flinch::level::Level,
    centre: &Vector3<f64>,
    across: &Vector3<f64>,
) -> StickFigure {
    let mut points = Vec::new();
    for i in -50..=110 {
        let x = centre + across * (i as f64 * 0.02) + Vector3::y() * 4.0;
        if let Some(hit) = level.cast_ray(&x, &-Vector3::y(), 8.0, u32::MAX) {
            points.push(hit.point);
        }
    }
    StickFigure {
        segments: points.windows(2).map(|w| [w[0], w[1]]).collect(),
        joints: Vec::new(),
    }
}

/// The view that looks along the walk, with the level's `across` direction (toward the spot's feature) to the
/// right.
fn along_walk(across: &Vector3<f64>) -> ViewAxis {
    if across.x.abs() >= across.z.abs() {
        if across.x > 0.0 {
            ViewAxis::MinusZ
        } else {
            ViewAxis::PlusZ
        }
    } else if across.z > 0.0 {
        ViewAxis::PlusX
    } else {
        ViewAxis::MinusX
    }
}

/// Runs the three knock-downs, writing a filmstrip each; returns the written paths.
fn knockdowns(
    out: &Path,
    prepared: &Arc<PreparedClip>,
    file: &LevelFile,
) -> Result<Vec<std::path::PathBuf>, CliError> {
    let skeleton = prepared.skeleton().clone();
    let hit = KnockdownHit {
        time: WORLD_HIT_TIME,
        ..KnockdownHit::heavy()
    };
    let mut written = Vec::new();
    for spot in &SPOTS {
        let character = Character::from_prepared(Arc::clone(prepared));
        let pose = spot_pose(&character, spot, hit.time);
        let level = posed_level(file, &pose).map_err(|e| failed(&e))?;
        // Backward along the walk: toward the feature.
        let across = -(pose.rotation * spot.facing);
        let mut frames = Vec::new();
        let mut sampled = None;
        let (f, _) = knockdown_at(character, file, spot, &hit, DURATION, |c| {
            let k = (c.time() / FRAME_STEP + 1e-6).floor() as usize;
            if sampled != Some(k) && c.time() >= hit.time - FRAME_STEP - 1e-6 {
                sampled = Some(k);
                let root = c.world().body(0).position;
                frames.push(FilmFrame {
                    time: c.time(),
                    layers: vec![
                        (
                            stick_figure_of(&skeleton, &c.world_transforms()),
                            Color::RED,
                        ),
                        (
                            cross_section(&level, &root, &across),
                            Color::rgb(90, 90, 90),
                        ),
                    ],
                    highlight: (c.time() - hit.time).abs() < 0.5 * FRAME_STEP,
                });
            }
        })
        .map_err(|e| failed(&e))?;
        println!(
            "world {}: {:.1} N·s from the side, {}",
            spot.name,
            f.impulse_ns,
            if f.fell { "falls" } else { "stays up" }
        );
        for e in &f.events {
            println!("  {e}");
        }
        for line in f.figure_lines(&format!("knockdown_world_{}_", spot.name)) {
            println!("{line}");
        }
        let strip = filmstrip(
            &frames,
            &FilmstripOptions {
                title: format!(
                    "CMU 02_01 walk, assisted free root, in the sample level, the {} behind it: a 5 kg ball at \
                     12 m/s into the chest at {:.2} s (seen from the side, every {FRAME_STEP} s; grey: the level's \
                     cross-section)",
                    spot.name, hit.time
                ),
                legend: vec![
                    ("simulated (flinch)".into(), Color::RED),
                    ("level".into(), Color::rgb(90, 90, 90)),
                ],
                view: along_walk(&across),
                pixels_per_metre: 80.0,
                ..Default::default()
            },
        )
        .map_err(|e| failed(&e))?;
        let path = out.join(format!("demo_world_{}_filmstrip.png", spot.name));
        strip
            .write_png(&path)
            .map_err(|e| CliError::Other(format!("{}: {e}", path.display())))?;
        written.push(path);
    }
    Ok(written)
}

/// Fires 20 bullets (rays) at the walking character from around it and puts each one's impulse (10 g at
/// 400 m/s: 4 N·s) on the point of the bone it hits.
fn bullets(prepared: &Arc<PreparedClip>) -> Result<(), CliError> {
    let mut scene = Scene::new();
    let key = scene.add_prepared(prepared);
    let h = prepared.step_size();
    let mut hits = 0;
    for shot in 0..20 {
        for _ in 0..6 {
            scene.step(h).map_err(|e| failed(&e))?;
        }
        let c = scene.character(key).map_err(|e| failed(&e))?;
        let chest = c.world().body(0).position + Vector3::y() * 0.3;
        let angle = shot as f64 * 0.9;
        let from =
            chest + Vector3::new(angle.cos(), 0.1 * (shot % 5) as f64 - 0.2, angle.sin()) * 5.0;
        let dir = chest - from;
        let Some(hit) = scene.cast_ray(&from, &dir, 10.0, u32::MAX) else {
            println!("bullet {shot:2}: miss");
            continue;
        };
        if let RayTarget::Character { bone, body, .. } = &hit.target {
            let impulse = dir.normalize() * 4.0;
            scene
                .character_mut(key)
                .and_then(|c| Ok(c.apply_body_impulse(*body, hit.point, impulse)?))
                .map_err(|e| failed(&e))?;
            hits += 1;
            println!(
                "bullet {shot:2}: {bone} at {:.3} m, point ({:.3}, {:.3}, {:.3})",
                hit.distance, hit.point.x, hit.point.y, hit.point.z
            );
        }
    }
    println!("figure world_bullet_hits {hits}");
    Ok(())
}

/// Runs the world scene and writes its filmstrips into `out` (which exists).
pub fn run(out: &Path) -> Result<(), CliError> {
    let file = load_level(LEVEL_GLB, None, &LoadOptions::default()).map_err(|e| failed(&e))?;
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    let imported = load_embedded_walk(&ImportOptions::default()).map_err(|e| failed(&e))?;
    let prepared =
        Arc::new(PreparedClip::from_imported(imported, &config).map_err(|e| failed(&e))?);
    println!(
        "world: samples/level/training_ground.glb ({} colliders, {} triangles), the walk placed beside its wall, \
         on its stairs' landing and at its ledge",
        file.colliders.len(),
        file.triangles
    );
    let written = knockdowns(out, &prepared, &file)?;
    let mut kinematic = CharacterConfig::default();
    kinematic.root.policy = RootPolicy::Kinematic;
    let imported = load_embedded_walk(&ImportOptions::default()).map_err(|e| failed(&e))?;
    let walker = Character::from_imported(imported, &kinematic).map_err(|e| failed(&e))?;
    let bat =
        bat_swing(walker, 8.0, 1.0, 2.5, |_, _: &Isometry3<f64>| {}).map_err(|e| failed(&e))?;
    if let Some((bone, p, j)) = &bat.first {
        println!(
            "bat (8 m/s, kinematic root): first touch {bone} at ({:.3}, {:.3}, {:.3}), {:.2} N·s",
            p.x,
            p.y,
            p.z,
            j.norm()
        );
    }
    println!("figure bat_hits {}", bat.hits);
    println!("figure bat_impulse_ns {:.3} N*s", bat.impulse_ns);
    println!("figure bat_hit_peak_deg {:.2} deg", bat.hit_peak_deg);
    println!(
        "figure bat_hit_return_s {} s",
        bat.hit_return_s
            .map_or("none".into(), |t| format!("{t:.3}"))
    );
    bullets(&prepared)?;
    for p in written {
        println!("wrote {}", p.display());
    }
    Ok(())
}
