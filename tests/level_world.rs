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
    assert_eq!(file.triangles, 28_800 + 7 * 12);
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
    let mut on = Vec::new();
    for (name, level) in [("plane", &plane), ("mesh", &mesh)] {
        let mut c = assisted_walk();
        let f = c
            .run_free_root_in(duration, Some(level), |_| Ok(()))
            .unwrap();
        eprintln!("flat {f0:?}\n{name} {f:?}");
        assert_eq!(f.nan_steps, 0);
        // Within 1e-4 of the flat floor (the level's speculative margins grow with speed).
        assert!(
            (f.track_rms_deg - f0.track_rms_deg).abs() < 1e-3,
            "{name}: {} vs {}",
            f.track_rms_deg,
            f0.track_rms_deg
        );
        assert!(
            (f.root_pos_rms_mm - f0.root_pos_rms_mm).abs() < 0.01,
            "{name}"
        );
        assert!((f.foot_slide_mm - f0.foot_slide_mm).abs() < 0.01, "{name}");
        assert!(
            (f.feet_support_frac - f0.feet_support_frac).abs() < 1e-4,
            "{name}"
        );
        assert!(
            f.max_penetration_mm <= 1.0,
            "{name}: {}",
            f.max_penetration_mm
        );
        on.push(f);
    }
    // The mesh floor reads what the plane reads.
    assert!((on[0].track_rms_deg - on[1].track_rms_deg).abs() < 1e-9);
    assert!((on[0].feet_support_frac - on[1].feet_support_frac).abs() < 1e-9);
}

/// The level loader's bad input: each a clear error naming the mesh or the limit, never a panic.
#[test]
fn bad_level_files_are_clear_errors() {
    use flinch::level::{LevelMesh, LoadOptions, level_glb, load_level};
    let glb = |meshes: Vec<LevelMesh>| {
        level_glb(
            &meshes
                .into_iter()
                .map(|m| (m, Vector3::zeros()))
                .collect::<Vec<_>>(),
        )
        .unwrap()
    };
    let mut cube = LevelMesh::new("Crate");
    cube.add_box(Vector3::zeros(), Vector3::repeat(1.0));
    // A NaN vertex.
    let mut bad = cube.clone();
    bad.vertices[3].y = f64::NAN;
    let e = load_level(&glb(vec![bad]), None, &LoadOptions::default()).unwrap_err();
    eprintln!("NaN vertex: {e}");
    assert!(
        e.to_string().contains("Crate") || e.to_string().contains("accessor"),
        "{e}"
    );
    // Only meshes marked not to collide: nothing to collide with.
    let mut sky = cube.clone();
    sky.name = "Sky_nocollide".into();
    let e = load_level(&glb(vec![sky]), None, &LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("no mesh to collide with"), "{e}");
    // The triangle limit, before the indices are read.
    let mut opts = LoadOptions::default();
    opts.limits.max_triangles = 1000;
    let e = load_level(&std::fs::read(sample_path()).unwrap(), None, &opts).unwrap_err();
    assert!(e.to_string().contains("max_triangles"), "{e}");
    // Truncated and garbage bytes.
    let bytes = std::fs::read(sample_path()).unwrap();
    assert!(load_level(&bytes[..1000], None, &LoadOptions::default()).is_err());
    assert!(load_level(b"not a level", None, &LoadOptions::default()).is_err());
    // A sidecar: the crate as a box, a friction; a bad kind is refused.
    let opts =
        LoadOptions::from_sidecar(r#"{"colliders": {"Crate": "box"}, "friction": {"Crate": 0.2}}"#)
            .unwrap();
    let file = load_level(&glb(vec![cube.clone()]), None, &opts).unwrap();
    assert!(matches!(file.colliders[0].shape, LevelShape::Box { .. }));
    assert_eq!(file.colliders[0].friction, Some(0.2));
    assert!(LoadOptions::from_sidecar(r#"{"colliders": {"Crate": "sphere"}}"#).is_err());
    assert!(LoadOptions::from_sidecar(r#"{"friction": {"Crate": -1}}"#).is_err());
    // A convex hull by suffix.
    let mut rock = cube;
    rock.name = "Rock_convex".into();
    let file = load_level(&glb(vec![rock]), None, &LoadOptions::default()).unwrap();
    assert!(matches!(
        file.colliders[0].shape,
        LevelShape::ConvexHull { .. }
    ));
}

/// Issue 38's `stairs_walk` and `slope_walk`: the flat-ground walk adapted to the sample level's stairs (up four
/// 15 cm steps and down again) and 10° ramp (up and down), assisted root, the flat floor's defaults: it does not
/// fall, stays within 1 mm of the ground, tracks within 1°, its feet slide ≤ 15 mm in stance, and the ground carries
/// as much of the weight as on the flat floor less 0.05 (measured: stairs 0.828 and ramp 0.795 against 0.822;
/// 0.733 and 0.705 before the adapted clip kept the flat clip's soles, docs/world.md). Unadapted, the stairs read
/// 33.9 mm of penetration and 8.49° of tracking.
#[test]
fn the_flat_walk_takes_the_stairs_and_the_ramp() {
    use flinch::scene::world_runs::{TERRAIN_WALKS, terrain_walk};
    let file = load_level_file(&sample_path(), None).unwrap();
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Assisted;
    let walk = load_embedded_walk(&ImportOptions::default()).unwrap();
    for (start, seconds) in &TERRAIN_WALKS {
        let name = start.name;
        let w = terrain_walk(&file, start, &config, &walk, *seconds).unwrap();
        let (f, flat) = (&w.on_terrain, &w.flat);
        eprintln!("{name}: {f:?}\nflat: {flat:?}");
        assert!(!f.fell, "{name}");
        assert_eq!(f.nan_steps, 0, "{name}");
        assert!(
            f.max_penetration_mm <= 1.0,
            "{name}: {} mm",
            f.max_penetration_mm
        );
        assert!(f.track_rms_deg <= 1.0, "{name}: {} deg", f.track_rms_deg);
        assert!(f.foot_slide_mm <= 15.0, "{name}: {} mm", f.foot_slide_mm);
        assert!(
            f.feet_support_frac >= flat.feet_support_frac - 0.05,
            "{name}: support {} against the flat floor's {}",
            f.feet_support_frac,
            flat.feet_support_frac
        );
    }
}

/// Issue 38's `knockdown_world`: the 5 kg ball at 12 m/s into the chest in front of the sample level's wall,
/// on its stairs' landing and at its ledge: it falls, nothing passes through the level (no body centre crosses a
/// collider surface), penetration ≤ 5 mm, at rest within 4 s, no NaN step.
#[test]
fn knockdowns_in_the_level_fall_onto_it_without_passing_through() {
    use flinch::scene::KnockdownHit;
    use flinch::scene::world_runs::{WORLD_HIT_TIME, knockdown_at};
    let file = load_level_file(&sample_path(), None).unwrap();
    let hit = KnockdownHit {
        time: WORLD_HIT_TIME,
        ..KnockdownHit::heavy()
    };
    for spot in &sample::SPOTS {
        let (f, _) = knockdown_at(assisted_walk(), &file, spot, &hit, 4.5, |_| {}).unwrap();
        eprintln!("{}: {f:?}", spot.name);
        assert!(f.fell, "{}", spot.name);
        assert_eq!(f.tunnel_count, 0, "{}", spot.name);
        assert_eq!(f.nan_steps, 0, "{}", spot.name);
        assert!(
            f.max_penetration_mm <= 5.0,
            "{}: {} mm",
            spot.name,
            f.max_penetration_mm
        );
        assert!(
            f.rest_after_s.is_some_and(|t| t <= 4.0),
            "{}: {:?}",
            spot.name,
            f.rest_after_s
        );
        assert!(f.max_joint_gap_mm < 1e-6, "{}", spot.name);
    }
}

/// Issue 38's `bat_swing`: a kinematic bat at 8 m/s through the walking (kinematic-root) character's head is a
/// hit event on the head with its point and impulse, moves the neck chain ≥ 15° and every joint is back within 2°
/// of the clip within 1 s (issue 38's `hit_return_s`); at 15 m/s it knocks an assisted free root down.
#[test]
fn a_kinematic_bat_hits_the_head_and_knocks_a_free_root_down() {
    use flinch::scene::world_runs::bat_swing;
    let imported = load_embedded_walk(&ImportOptions::default()).unwrap();
    let kinematic = Character::from_imported(imported, &CharacterConfig::default()).unwrap();
    let f = bat_swing(kinematic, 8.0, 1.0, 2.3, |_, _| {}).unwrap();
    eprintln!("{f:?}");
    let (bone, point, impulse) = f.first.clone().expect("a bat hit event");
    assert_eq!(bone, "Head");
    assert!(impulse.norm() > 1.0 && point.iter().all(|x| x.is_finite()));
    assert!(f.hit_peak_deg >= 15.0, "{}", f.hit_peak_deg);
    assert!(f.hit_return_s.is_some_and(|t| t <= 1.0), "{f:?}");
    let f = bat_swing(assisted_walk(), 15.0, 1.0, 2.5, |_, _| {}).unwrap();
    assert!(f.fell, "{f:?}");
}

/// Rays through the scene's bounding spheres and the level's hierarchy agree with brute force over every capsule
/// and collider; a ray at the character finds the bone it crosses.
#[test]
fn scene_rays_agree_with_brute_force_and_find_bones() {
    use flinch::scene::world_runs::posed_level;
    use flinch::scene::{RayTarget, Scene};
    let file = load_level_file(&sample_path(), None).unwrap();
    let mut scene = Scene::new();
    let c = assisted_walk();
    let floor = c.ground().unwrap().floor;
    scene.set_level(posed_level(&file, &Isometry3::translation(-10.0, floor, -5.0)).unwrap());
    let key = scene.add_character(c);
    for _ in 0..60 {
        scene.step(1.0 / 120.0).unwrap();
    }
    let root = scene.character(key).unwrap().world().body(0).position;
    let mut seed = 11u64;
    let mut rnd = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut on_character = 0;
    for i in 0..2000 {
        let o = root + Vector3::new(rnd() - 0.5, rnd() * 0.5, rnd() - 0.5) * 6.0;
        let d = if i % 2 == 0 {
            root + Vector3::new(rnd() - 0.5, rnd() * 1.6 - 0.8, rnd() - 0.5) - o
        } else {
            Vector3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5)
        };
        let a = scene.cast_ray(&o, &d, 50.0, u32::MAX);
        let b = scene.cast_ray_brute(&o, &d, 50.0, u32::MAX);
        match (&a, &b) {
            (Some(a), Some(b)) => {
                assert_eq!(a.target, b.target);
                assert!((a.distance - b.distance).abs() < 1e-9);
            }
            (None, None) => {}
            _ => panic!("{a:?} vs {b:?}"),
        }
        on_character += usize::from(matches!(
            a.map(|h| h.target),
            Some(RayTarget::Character { .. })
        ));
    }
    assert!(on_character > 200, "{on_character}");
    // Straight down through the head: the head, then (without the character) the floor at the fitted height.
    let c = scene.character(key).unwrap();
    let head = (0..c.model().bodies.len())
        .find(|&b| c.model().bodies[b].name == "Head")
        .unwrap();
    let top = c.world().body(head).position + Vector3::y() * 1.0;
    let hit = scene.cast_ray(&top, &-Vector3::y(), 5.0, u32::MAX).unwrap();
    assert!(
        matches!(hit.target, RayTarget::Character { ref bone, .. } if bone == "Head"),
        "{hit:?}"
    );
    let hit = scene
        .level()
        .cast_ray(&top, &-Vector3::y(), 5.0, u32::MAX)
        .unwrap();
    assert!((hit.point.y - floor).abs() < 1e-6);
    // A swept sphere finds the head a radius earlier.
    let s = scene
        .cast_sphere(&top, 0.05, &-Vector3::y(), 5.0, u32::MAX)
        .unwrap();
    assert!(matches!(s.target, RayTarget::Character { .. }));
    assert!(
        s.distance
            < scene
                .cast_ray(&top, &-Vector3::y(), 5.0, u32::MAX)
                .unwrap()
                .distance
    );
}

/// Bad input in a running scene: a collider removed under a standing character, a kinematic collider teleported
/// 100 m in one frame, stale keys and keys of another scene, non-finite moves: defined outcomes, no NaN.
#[test]
fn world_misuse_has_defined_outcomes() {
    use flinch::scene::{Scene, SceneError};
    let mut scene = Scene::new();
    // A free root (no assist: the assist alone would hold the body up on its clip's path).
    let mut config = CharacterConfig::default();
    config.root.policy = RootPolicy::Free;
    let c = Character::from_imported(
        load_embedded_walk(&ImportOptions::default()).unwrap(),
        &config,
    )
    .unwrap();
    let floor = c.ground().unwrap().floor;
    let key = scene.add_character(c);
    let ground = scene
        .add_collider(ColliderDesc::new(
            LevelShape::Plane {
                normal: Vector3::y(),
            },
            Isometry3::translation(0.0, floor, 0.0),
        ))
        .unwrap();
    // A static box far away keeps the level the ground once the floor is gone (a level without static colliders
    // gives the character its fitted floor back).
    scene
        .add_collider(ColliderDesc::new(
            LevelShape::Box {
                half_extents: Vector3::repeat(0.5),
            },
            Isometry3::translation(50.0, 0.5, 50.0),
        ))
        .unwrap();
    let bat = scene
        .add_collider(
            ColliderDesc::new(
                LevelShape::Capsule {
                    half_height: 0.4,
                    radius: 0.04,
                },
                Isometry3::translation(5.0, 1.0, 5.0),
            )
            .kinematic(),
        )
        .unwrap();
    for _ in 0..30 {
        scene.step(1.0 / 120.0).unwrap();
    }
    // Teleported 100 m: at rest, no hit.
    scene
        .move_collider(bat, Isometry3::translation(105.0, 1.0, 5.0), None)
        .unwrap();
    scene.step(1.0 / 120.0).unwrap();
    assert_eq!(
        scene.level().motion(bat).unwrap(),
        flinch::level::Motion::Kinematic {
            linear: Vector3::zeros(),
            angular: Vector3::zeros()
        }
    );
    // Non-finite and static moves are refused; stale keys too.
    assert!(matches!(
        scene.move_collider(bat, Isometry3::translation(f64::NAN, 0.0, 0.0), None),
        Err(SceneError::Level(_))
    ));
    assert!(
        scene
            .move_collider(ground, Isometry3::identity(), None)
            .is_err()
    );
    let mut other_scene = Scene::new();
    let foreign = other_scene
        .add_collider(ColliderDesc::new(
            LevelShape::Sphere { radius: 1.0 },
            Isometry3::identity(),
        ))
        .unwrap();
    assert!(matches!(
        scene.remove_collider(foreign),
        Err(SceneError::Level(flinch::level::LevelError::StaleCollider(
            _
        )))
    ));
    // The floor removed under the standing character: it falls, finite.
    scene.remove_collider(ground).unwrap();
    assert!(scene.remove_collider(ground).is_err());
    let y0 = scene.character(key).unwrap().world().body(0).position.y;
    for _ in 0..60 {
        scene.step(1.0 / 120.0).unwrap();
    }
    let c = scene.character(key).unwrap();
    let y1 = c.world().body(0).position.y;
    assert!(y1 < y0 - 0.1, "{y0} -> {y1}");
    assert!(
        (0..c.model().bodies.len()).all(|b| c
            .world()
            .body(b)
            .position
            .iter()
            .all(|x| x.is_finite()))
    );
}
