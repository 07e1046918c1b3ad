//! Issue 38: the game's world. A free root stands on a level's colliders as it stands on the flat floor fitted
//! to its clip; it falls into walls, down stairs and off ledges without passing through; kinematic colliders hit
//! it; rays find its bones (`docs/world.md`).

mod common;

use std::path::{Path, PathBuf};

use flinch::control::{Character, CharacterConfig, RootPolicy};
use flinch::io::{ImportOptions, load_embedded_walk};
use flinch::level::{ColliderDesc, Level, LevelShape, load_level_file, sample};
use nalgebra::{Isometry3, Vector3};

fn assisted_walk() -> Character {
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    Character::from_imported(imported, &config).unwrap()
}

fn sample_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/level/training_ground.glb")
}

/// The committed sample level is what `examples/make_level.rs` writes, passes Khronos' validator, and loads with
/// its node transforms and `_box` suffixes applied.
#[test]
fn the_sample_level_is_generated_valid_and_loads() {
    let generated = flinch::level::level_glb(&sample::sample_level()).unwrap();
    let committed = std::fs::read(sample_path()).unwrap();
    assert!(
        generated == committed,
        "samples/level/training_ground.glb is stale: cargo run --example make_level"
    );
    if let Some(report) = common::gltf_validate(&sample_path()) {
        assert_eq!(report["numErrors"], 0, "{report}");
        assert_eq!(report["numWarnings"], 0, "{report}");
    }
    let file = load_level_file(&sample_path(), None).unwrap();
    assert_eq!(file.colliders.len(), 11);
    // The floor grid, the stairs' seven boxes and the two ramps; `_box` meshes are boxes, not triangles.
    assert_eq!(file.triangles, 28_800 + 7 * 12 + 2 * 12);
    let mut level = Level::new();
    for d in &file.colliders {
        level.add(d.clone()).unwrap();
    }
    // Boxes by suffix; the table top posed by its node: its top face at 0.75 m.
    let top = file
        .colliders
        .iter()
        .find(|d| d.name.starts_with("TableTop_box"))
        .unwrap();
    assert!(matches!(top.shape, LevelShape::Box { .. }));
    let down = -Vector3::y();
    let hit = level
        .cast_ray(&Vector3::new(-7.4, 2.0, 0.0), &down, 5.0, u32::MAX)
        .unwrap();
    assert!((hit.point.y - 0.75).abs() < 1e-6, "{hit:?}");
    // The stairs: four 15 cm rises from the floor to the landing, treads 0.3 m.
    for (i, x) in [1.75, 1.45, 1.15, 0.0].iter().enumerate() {
        let hit = level
            .cast_ray(&Vector3::new(*x, 2.0, 0.0), &down, 5.0, u32::MAX)
            .unwrap();
        let want = 0.15 * (i + 1) as f64;
        assert!((hit.point.y - want).abs() < 1e-6, "step {i}: {hit:?}");
    }
    // The 20° ramp's surface normal.
    let hit = level
        .cast_ray(&Vector3::new(8.0, 3.0, -2.5), &down, 5.0, u32::MAX)
        .unwrap();
    let slope = hit.normal.y.acos().to_degrees();
    assert!((slope - 20.0).abs() < 1e-4, "{slope}°");
}

/// The walk on a level whose floor is a plane, or the sample level's 28 800-triangle floor mesh, at the fitted
/// floor's height gives the flat floor's figures.
#[test]
fn a_level_floor_carries_the_walk_like_the_flat_floor() {
    let mut flat = assisted_walk();
    let floor = flat.ground().unwrap().floor;
    let duration = flat.reference().duration();
    let f0 = flat.run_free_root(duration, |_| Ok(())).unwrap();
    let mut plane = Level::new();
    plane
        .add(ColliderDesc::new(
            LevelShape::Plane {
                normal: Vector3::y(),
            },
            Isometry3::translation(0.0, floor, 0.0),
        ))
        .unwrap();
    let mut mesh = Level::new();
    let file = load_level_file(&sample_path(), None).unwrap();
    let floor_mesh = file
        .colliders
        .iter()
        .find(|d| d.name.starts_with("Floor"))
        .unwrap();
    let mut d = floor_mesh.clone();
    d.pose = Isometry3::translation(0.0, floor, 0.0);
    mesh.add(d).unwrap();
    for (name, level) in [("plane", &plane), ("mesh", &mesh)] {
        let mut c = assisted_walk();
        let f = c
            .run_free_root_in(duration, Some(level), |_| Ok(()))
            .unwrap();
        eprintln!("flat {f0:?}\n{name} {f:?}");
        assert_eq!(f.nan_steps, 0);
        assert!(
            (f.track_rms_deg - f0.track_rms_deg).abs() < 0.01,
            "{name}: {} vs {}",
            f.track_rms_deg,
            f0.track_rms_deg
        );
        assert!(
            (f.root_pos_rms_mm - f0.root_pos_rms_mm).abs() < 0.1,
            "{name}"
        );
        assert!((f.foot_slide_mm - f0.foot_slide_mm).abs() < 0.5, "{name}");
        assert!(
            (f.feet_support_frac - f0.feet_support_frac).abs() < 0.005,
            "{name}"
        );
        assert!(
            f.max_penetration_mm <= 1.0,
            "{name}: {}",
            f.max_penetration_mm
        );
    }
}
