use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use super::*;

const ALL: (u32, u32) = (u32::MAX, u32::MAX);

/// A deterministic generator of uniform numbers in [0, 1) (the same ones every run).
fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn level_with(shape: LevelShape, pose: Isometry3<f64>) -> (Level, ColliderKey) {
    let mut level = Level::new();
    let (key, _) = level
        .add(ColliderDesc::new(shape, pose))
        .expect("valid shape");
    (level, key)
}

fn touches(level: &Level, c: Vector3<f64>, r: f64, margin: f64) -> Vec<LevelTouch> {
    let mut out = Vec::new();
    level.probe(&c, r, margin, 0.0, ALL, |t| out.push(t));
    out
}

/// A horizontal plane gives the flat floor's contact: the point below the centre, its foot on the plane, +Y.
#[test]
fn a_horizontal_plane_probes_like_the_flat_floor() {
    let (level, _) = level_with(
        LevelShape::Plane {
            normal: Vector3::y(),
        },
        Isometry3::translation(0.0, 0.25, 0.0),
    );
    for (c, r) in [
        (Vector3::new(0.3, 0.26, -1.0), 0.0),
        (Vector3::new(-2.0, 0.3, 4.0), 0.04),
    ] {
        let t = touches(&level, c, r, 0.02);
        assert_eq!(t.len(), 1);
        let t = t[0];
        assert!((t.point - (c - Vector3::y() * r)).norm() < 1e-12);
        assert!((t.other_point - Vector3::new(c.x, 0.25, c.z)).norm() < 1e-12);
        assert!((t.normal - Vector3::y()).norm() < 1e-12);
        assert!((t.gap - (c.y - r - 0.25)).abs() < 1e-12);
    }
    // Beyond the margin: nothing.
    assert!(touches(&level, Vector3::new(0.0, 0.3, 0.0), 0.0, 0.02).is_empty());
}

/// Every shape kind: the probe's gap is the exact distance to the surface and the normal its gradient (a
/// central difference of the gap along the normal is 1, across it 0).
#[test]
fn probe_gaps_are_distances_and_normals_their_gradient() {
    let tilt = Isometry3::from_parts(
        Translation3::new(0.2, 0.1, -0.3),
        UnitQuaternion::from_euler_angles(0.3, -0.5, 0.2),
    );
    let cube: Vec<Point3<f64>> = (0..8)
        .map(|i| {
            Point3::new(
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.3 } else { 0.3 },
                if i & 4 == 0 { -0.4 } else { 0.4 },
            )
        })
        .collect();
    let mut mesh = LevelMesh::new("cube");
    mesh.add_box(Vector3::new(-0.5, -0.3, -0.4), Vector3::new(0.5, 0.3, 0.4));
    let shapes = [
        LevelShape::Box {
            half_extents: Vector3::new(0.5, 0.3, 0.4),
        },
        LevelShape::Sphere { radius: 0.4 },
        LevelShape::Capsule {
            half_height: 0.3,
            radius: 0.2,
        },
        LevelShape::ConvexHull { points: cube },
        LevelShape::TriMesh {
            vertices: mesh.vertices,
            triangles: mesh.triangles,
        },
        LevelShape::HeightField {
            rows: 3,
            cols: 4,
            heights: vec![0.0, 0.1, 0.05, 0.0, 0.1, 0.2, 0.1, 0.0, 0.0, 0.05, 0.1, 0.0],
            size_x: 2.0,
            size_z: 2.0,
        },
    ];
    for shape in shapes {
        let (level, _) = level_with(shape.clone(), tilt);
        let probe_at = |c: Vector3<f64>| touches(&level, c, 0.05, 0.5).first().copied();
        // A point above the shape (world +Y of the tilted frame's origin).
        let c = tilt * Point3::new(0.05, 0.55, 0.02);
        let t = probe_at(c.coords).unwrap_or_else(|| panic!("{shape:?}: no touch"));
        assert!((t.normal.norm() - 1.0).abs() < 1e-9);
        let eps = 1e-5;
        let gap = |p: Vector3<f64>| probe_at(p).map(|t| t.gap).expect("touch");
        let along = (gap(c.coords + t.normal * eps) - gap(c.coords - t.normal * eps)) / (2.0 * eps);
        assert!(
            (along - 1.0).abs() < 1e-4,
            "{shape:?}: d gap / d n = {along}"
        );
        let side = t.normal.cross(&Vector3::new(0.3, 0.1, 0.9)).normalize();
        let across = (gap(c.coords + side * eps) - gap(c.coords - side * eps)) / (2.0 * eps);
        assert!(across.abs() < 1e-4, "{shape:?}: d gap / d t = {across}");
        // The gap is the distance from the probe's surface to the collider's witness point.
        assert!(((t.point - t.other_point).norm() - t.gap.abs()).abs() < 1e-9);
    }
}

/// The hierarchy's ray casts agree with testing every collider, on the sample level (2000 random rays).
#[test]
fn ray_casts_agree_with_brute_force_on_the_sample_level() {
    let level = sample_level();
    assert!(level.triangle_count() > 28_800);
    let mut rnd = uniform(7);
    let mut hits = 0;
    for _ in 0..2000 {
        let o = Vector3::new(rnd() * 24.0 - 12.0, rnd() * 3.0, rnd() * 24.0 - 12.0);
        let d = Vector3::new(rnd() - 0.5, rnd() - 0.7, rnd() - 0.5);
        let a = level.cast_ray(&o, &d, 30.0, u32::MAX);
        let b = level.cast_ray_brute(&o, &d, 30.0, u32::MAX);
        match (a, b) {
            (Some(a), Some(b)) => {
                hits += 1;
                assert!((a.distance - b.distance).abs() < 1e-9, "{a:?} vs {b:?}");
                assert!((a.point - b.point).norm() < 1e-9);
            }
            (None, None) => {}
            other => panic!("hierarchy and brute force disagree: {other:?}"),
        }
    }
    assert!(hits > 1000, "{hits} hits");
}

/// A ray down onto the floor plane and a sphere swept onto a box: the analytic distances and normals.
#[test]
fn ray_and_sphere_sweep_distances() {
    let mut level = Level::new();
    level
        .add(ColliderDesc::new(
            LevelShape::Plane {
                normal: Vector3::y(),
            },
            Isometry3::identity(),
        ))
        .expect("plane");
    let (bx, _) = level
        .add(ColliderDesc::new(
            LevelShape::Box {
                half_extents: Vector3::new(0.5, 0.5, 0.5),
            },
            Isometry3::translation(3.0, 0.5, 0.0),
        ))
        .expect("box");
    let h = level
        .cast_ray(
            &Vector3::new(0.0, 2.0, 0.0),
            &Vector3::new(0.0, -2.0, 0.0),
            10.0,
            u32::MAX,
        )
        .expect("floor");
    assert!((h.distance - 2.0).abs() < 1e-12 && (h.normal - Vector3::y()).norm() < 1e-12);
    let s = level
        .cast_sphere(
            &Vector3::new(0.0, 0.5, 0.0),
            0.2,
            &Vector3::x(),
            10.0,
            u32::MAX,
        )
        .expect("box face");
    assert_eq!(s.collider, bx);
    assert!((s.distance - 2.3).abs() < 1e-6, "{s:?}");
    assert!((s.point.x - 2.5).abs() < 1e-6 && (s.normal + Vector3::x()).norm() < 1e-6);
    // Layers: a mask without the box's bits sees the floor only.
    assert!(
        level
            .cast_ray(&Vector3::new(3.0, 2.0, 0.0), &-Vector3::y(), 10.0, 0)
            .is_none()
    );
}

#[test]
fn heightfield_probe_untilted() {
    let (level, _) = level_with(
        LevelShape::HeightField {
            rows: 2,
            cols: 2,
            heights: vec![0.0, 0.0, 0.0, 0.0],
            size_x: 2.0,
            size_z: 2.0,
        },
        Isometry3::identity(),
    );
    let t = touches(&level, Vector3::new(0.1, 0.3, 0.1), 0.05, 0.5);
    assert_eq!(t.len(), 1, "{t:?}");
}

#[test]
fn bad_shapes_are_clear_errors() {
    let mut level = Level::new();
    let nan = Point3::new(f64::NAN, 0.0, 0.0);
    let cases = [
        (
            LevelShape::TriMesh {
                vertices: vec![],
                triangles: vec![],
            },
            "empty mesh",
        ),
        (
            LevelShape::TriMesh {
                vertices: vec![Point3::origin(), nan, Point3::new(0.0, 0.0, 1.0)],
                triangles: vec![[0, 1, 2]],
            },
            "vertex 1 is not finite",
        ),
        (
            LevelShape::TriMesh {
                vertices: vec![
                    Point3::origin(),
                    Point3::new(1.0, 0.0, 0.0),
                    Point3::new(2.0, 0.0, 0.0),
                ],
                triangles: vec![[0, 1, 2]],
            },
            "degenerate",
        ),
        (
            LevelShape::TriMesh {
                vertices: vec![Point3::origin()],
                triangles: vec![[0, 0, 5]],
            },
            "names vertex 5",
        ),
        (
            LevelShape::HeightField {
                rows: 2,
                cols: 2,
                heights: vec![0.0, f64::NAN, 0.0, 0.0],
                size_x: 1.0,
                size_z: 1.0,
            },
            "height 1 (row 0, column 1) is not finite",
        ),
        (
            LevelShape::HeightField {
                rows: 1,
                cols: 5,
                heights: vec![0.0; 5],
                size_x: 1.0,
                size_z: 1.0,
            },
            "≥ 2 rows",
        ),
        (
            LevelShape::Plane {
                normal: Vector3::zeros(),
            },
            "plane normal",
        ),
        (LevelShape::Sphere { radius: -1.0 }, "sphere radius"),
        (
            LevelShape::ConvexHull {
                points: vec![
                    Point3::origin(),
                    Point3::new(1.0, 0.0, 0.0),
                    Point3::new(0.0, 0.0, 1.0),
                    Point3::new(1.0, 0.0, 1.0),
                ],
            },
            "one plane",
        ),
    ];
    for (shape, want) in cases {
        let e = level
            .add(ColliderDesc::new(shape, Isometry3::identity()).named("bad"))
            .expect_err(want);
        assert!(
            e.to_string().contains(want) && e.to_string().contains("'bad'"),
            "{e} (want {want})"
        );
    }
    assert!(level.is_empty());
    // The triangle limit.
    level.set_max_triangles(10);
    let mut grid = LevelMesh::new("grid");
    grid.add_box(Vector3::zeros(), Vector3::repeat(1.0));
    let e = level
        .add(ColliderDesc::new(
            LevelShape::TriMesh {
                vertices: grid.vertices,
                triangles: grid.triangles,
            },
            Isometry3::identity(),
        ))
        .expect_err("12 > 10 triangles");
    assert!(e.to_string().contains("max_triangles"), "{e}");
}

/// A soup with a non-manifold edge and a degenerate triangle still collides; the report says what it found.
#[test]
fn a_triangle_soup_is_usable_and_reported() {
    let v = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
    let vertices = vec![
        v(0.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, 0.0, 1.0),
        v(0.0, 1.0, 0.0),
        v(0.0, -1.0, 0.0),
        v(2.0, 0.0, 0.0),
    ];
    // Edge 0-1 is shared by three triangles; triangle [0, 1, 5] has zero area.
    let triangles = vec![[0, 2, 1], [0, 1, 3], [0, 4, 1], [0, 1, 5]];
    let mut level = Level::new();
    let (_, report) = level
        .add(ColliderDesc::new(
            LevelShape::TriMesh {
                vertices,
                triangles,
            },
            Isometry3::identity(),
        ))
        .expect("a soup is usable");
    assert_eq!(report.degenerate, 1);
    assert_eq!(report.non_manifold_edges, 1);
    assert!(!report.is_clean());
    assert_eq!(
        touches(&level, Vector3::new(0.3, 0.01, 0.3), 0.0, 0.02).len(),
        1
    );
}

#[test]
fn keys_are_generational_and_per_level() {
    let mut a = Level::new();
    let mut b = Level::new();
    let sphere = || ColliderDesc::new(LevelShape::Sphere { radius: 1.0 }, Isometry3::identity());
    let (ka, _) = a.add(sphere()).expect("sphere");
    let (kb, _) = b.add(sphere()).expect("sphere");
    assert_ne!(ka, kb);
    assert!(matches!(b.remove(ka), Err(LevelError::StaleCollider(_))));
    a.remove(ka).expect("live");
    assert!(matches!(a.remove(ka), Err(LevelError::StaleCollider(_))));
    let (ka2, _) = a.add(sphere()).expect("sphere");
    assert_ne!(ka, ka2);
    assert!(a.pose(ka).is_err() && a.pose(ka2).is_ok());
    // A removed collider no longer touches.
    a.remove(ka2).expect("live");
    assert!(touches(&a, Vector3::new(0.0, 1.01, 0.0), 0.0, 0.02).is_empty());
}

#[test]
fn kinematic_velocity_comes_from_the_motion_and_teleports_are_at_rest() {
    let mut level = Level::new();
    let (s, _) = level
        .add(ColliderDesc::new(
            LevelShape::Sphere { radius: 0.1 },
            Isometry3::identity(),
        ))
        .expect("static");
    assert!(
        level
            .set_kinematic_pose(s, Isometry3::identity(), None, 0.01)
            .is_err()
    );
    level.remove(s).expect("live");
    let (k, _) = level
        .add(
            ColliderDesc::new(
                LevelShape::Capsule {
                    half_height: 0.4,
                    radius: 0.04,
                },
                Isometry3::identity(),
            )
            .kinematic(),
        )
        .expect("bat");
    let next = Isometry3::from_parts(
        Translation3::new(0.08, 0.0, 0.0),
        UnitQuaternion::from_euler_angles(0.0, 0.02, 0.0),
    );
    level
        .set_kinematic_pose(k, next, None, 0.01)
        .expect("moved");
    let Motion::Kinematic { linear, angular } = level.motion(k).expect("live") else {
        panic!("kinematic");
    };
    assert!((linear - Vector3::new(8.0, 0.0, 0.0)).norm() < 1e-12);
    assert!((angular - Vector3::new(0.0, 2.0, 0.0)).norm() < 1e-9);
    // The probe sees the collider's point velocity.
    let t = touches(&level, Vector3::new(0.08, 0.0, 0.2), 0.0, 0.5)[0];
    assert!(
        (t.velocity - (linear + angular.cross(&(t.other_point - next.translation.vector)))).norm()
            < 1e-12
    );
    // 100 m in one frame: a teleport, at rest.
    level
        .set_kinematic_pose(k, Isometry3::translation(100.0, 0.0, 0.0), None, 1.0 / 60.0)
        .expect("teleported");
    assert_eq!(
        level.motion(k).expect("live"),
        Motion::Kinematic {
            linear: Vector3::zeros(),
            angular: Vector3::zeros()
        }
    );
    assert!(
        level
            .set_kinematic_pose(k, Isometry3::translation(f64::NAN, 0.0, 0.0), None, 0.01)
            .is_err()
    );
}

#[test]
fn probe_below_a_mesh_floor_is_pushed_up() {
    let mut floor = LevelMesh::new("f");
    floor.vertices = vec![
        Point3::new(-1.0, 0.0, -1.0),
        Point3::new(1.0, 0.0, -1.0),
        Point3::new(-1.0, 0.0, 1.0),
        Point3::new(1.0, 0.0, 1.0),
    ];
    floor.triangles = vec![[0, 2, 3], [0, 3, 1]];
    let (level, _) = level_with(
        LevelShape::TriMesh {
            vertices: floor.vertices,
            triangles: floor.triangles,
        },
        Isometry3::identity(),
    );
    for (y, r) in [
        (0.001, 0.0),
        (-0.0005, 0.0),
        (-0.002, 0.0),
        (0.03, 0.04),
        (0.0, 0.0),
    ] {
        let t = touches(&level, Vector3::new(0.1, y, 0.2), r, 0.02);
        eprintln!("y {y} r {r}: {t:?}");
        assert_eq!(t.len(), 1);
        assert!(
            (t[0].normal - Vector3::y()).norm() < 1e-9,
            "y {y}: {:?}",
            t[0]
        );
        assert!((t[0].gap - (y - r)).abs() < 1e-9);
    }
}

#[test]
fn mesh_floor_probes_like_a_plane() {
    let (plane, _) = level_with(
        LevelShape::Plane {
            normal: Vector3::y(),
        },
        Isometry3::translation(0.0, 0.1, 0.0),
    );
    let mut floor = Level::new();
    let (mesh, _) = sample::sample_level().into_iter().next().unwrap();
    floor
        .add(ColliderDesc::new(
            LevelShape::TriMesh {
                vertices: mesh.vertices,
                triangles: mesh.triangles,
            },
            Isometry3::translation(0.0, 0.1, 0.0),
        ))
        .unwrap();
    let mut rnd = uniform(3);
    let mut worst: f64 = 0.0;
    for _ in 0..2000 {
        let c = Vector3::new(
            rnd() * 4.0 - 2.0,
            0.1 + rnd() * 0.03 - 0.01,
            rnd() * 4.0 - 2.0,
        );
        let r = if rnd() < 0.5 { 0.0 } else { 0.03 };
        let a = touches(&plane, c, r, 0.02);
        let b = touches(&floor, c, r, 0.02);
        assert_eq!(a.len(), b.len(), "{c:?} {r}: {a:?} {b:?}");
        if let (Some(a), Some(b)) = (a.first(), b.first()) {
            worst = worst
                .max((a.point - b.point).norm())
                .max((a.other_point - b.other_point).norm())
                .max((a.normal - b.normal).norm());
        }
    }
    assert!(worst < 1e-9, "{worst}");
}

/// The sample level, every mesh a collider at its place.
fn sample_level() -> Level {
    let mut level = Level::new();
    for (mesh, at) in sample::sample_level() {
        let desc = ColliderDesc::new(
            LevelShape::TriMesh {
                vertices: mesh.vertices,
                triangles: mesh.triangles,
            },
            Isometry3::translation(at.x, at.y, at.z),
        );
        level.add(desc).expect("sample mesh");
    }
    level
}

/// A probe's memory finds the closest point parry's hierarchy finds (same distance and point to 1e-12 m, same
/// inside test) for probes wandering over every sample mesh (refreshing as they go, two meshes at the stairs'
/// foot), and a probe with a memory reports the contacts and depths of one without.
#[test]
fn a_probe_memory_finds_what_the_hierarchy_finds() {
    use parry3d_f64::query::PointQueryWithLocation;
    let level = sample_level();
    let meshes: Vec<(u64, &Entry)> = level
        .entries
        .iter()
        .map(|(k, e)| (k.index as u64, e))
        .filter(|(_, e)| e.shape.as_trimesh().is_some())
        .collect();
    assert!(meshes.len() >= 5);
    let mut rnd = uniform(11);
    let (mut found, mut refreshed_tests) = (0, 0);
    for (key, e) in &meshes {
        let mesh = e.shape.as_trimesh().expect("mesh");
        let owner = (*key, 1);
        let mut memory = ProbeMemory::default();
        // Walks from vertex to vertex with steps of 0–6 cm, and jumps.
        for walk in 0..40 {
            let v = mesh.vertices()[(rnd() * mesh.vertices().len() as f64) as usize];
            let mut p =
                v + parry3d_f64::math::Vector::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 0.2;
            for _ in 0..60 {
                let step = parry3d_f64::math::Vector::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5);
                p += step * 0.06 * f64::from(walk % 3);
                let max = [0.001, 0.02, 0.1, 0.13][(rnd() * 4.0) as usize];
                let want = mesh.project_local_point_and_get_location_with_max_dist(p, false, max);
                let got = memory.meshes.project(mesh, owner, p, max);
                refreshed_tests += 1;
                match (want, got) {
                    (None, None) => {}
                    (Some((a, (ta, _))), Some((b, (tb, _)))) => {
                        found += 1;
                        let (da, db) = ((a.point - p).length(), (b.point - p).length());
                        assert!((da - db).abs() < 1e-12, "{da} vs {db} at {p:?}");
                        // The same triangle, the same side (two triangles can tie: a face doubled back to
                        // back tells the sides apart by which one answers, in either search).
                        if ta == tb {
                            assert_eq!(a.is_inside, b.is_inside, "at {p:?}");
                        }
                    }
                    other => {
                        panic!("memory and hierarchy disagree at {p:?} (max {max}): {other:?}")
                    }
                }
            }
        }
    }
    assert!(found > refreshed_tests / 4, "{found} of {refreshed_tests}");

    // Through the probe: the same touches and depths with and without a memory, while a kinematic ball moves
    // about the probe and a box comes and goes (the level's revision changes under the memory).
    let mut level = level;
    let ball = level
        .add(
            ColliderDesc::new(LevelShape::Sphere { radius: 0.2 }, Isometry3::identity())
                .kinematic(),
        )
        .expect("ball")
        .0;
    let mut crate_box = None;
    let mut memory = ProbeMemory::default();
    let mut c = Vector3::new(-1.0, 0.05, 0.0);
    for i in 0..3000 {
        c += Vector3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 0.05;
        if i % 500 == 0 {
            c = Vector3::new(rnd() * 16.0 - 8.0, rnd() * 1.2, rnd() * 16.0 - 8.0);
        }
        if i % 7 == 0 {
            let at = c + Vector3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 0.6;
            level
                .set_kinematic_pose(ball, Isometry3::translation(at.x, at.y, at.z), None, 1.0)
                .expect("move");
        }
        if i % 97 == 0 {
            match crate_box.take() {
                Some(k) => level.remove(k).expect("remove"),
                None => {
                    let at = c + Vector3::new(0.3, 0.0, 0.0);
                    let desc = ColliderDesc::new(
                        LevelShape::Box {
                            half_extents: Vector3::repeat(0.2),
                        },
                        Isometry3::translation(at.x, at.y, at.z),
                    );
                    crate_box = Some(level.add(desc).expect("box").0);
                }
            }
        }
        let mut plain = Vec::new();
        level.probe(&c, 0.0, 0.02, 0.0, ALL, |t| plain.push(t));
        let mut remembered = Vec::new();
        level.probe_remembering(&c, 0.0, 0.02, 0.0, ALL, Some(&mut memory), |t| {
            remembered.push(t)
        });
        assert_eq!(plain.len(), remembered.len(), "at {c:?}");
        for (a, b) in plain.iter().zip(&remembered) {
            assert_eq!(a.collider, b.collider);
            assert!(
                (a.gap - b.gap).abs() < 1e-12 && (a.other_point - b.other_point).norm() < 1e-12
            );
        }
        let depth = level.probe_depth(&c, 0.03, ALL);
        let remembered = level.probe_depth_remembering(&c, 0.03, ALL, Some(&mut memory));
        assert!(
            (depth - remembered).abs() < 1e-12,
            "{depth} vs {remembered} at {c:?}"
        );
    }
}
