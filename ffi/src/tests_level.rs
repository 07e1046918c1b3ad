//! The level through the C ABI: colliders added, moved and removed (a removed collider, one of another world and
//! the zero handle are `FLINCH_STATUS_INVALID_HANDLE`), refused shapes (NaN vertex, empty mesh, NaN height, bad
//! enum, zero rotation) with messages, the sample level loaded (11 colliders; the count asked first; a short
//! buffer adds nothing), a ray onto its floor and at a character's bone, a kinematic sphere's push as a hit event
//! naming the collider, and bad level paths.

use std::ffi::CString;
use std::ptr::{null, null_mut};

use crate::FlinchStatus as S;
use crate::level::*;
use crate::query::*;
use crate::tests::{expect, world_with_walk};
use crate::world::*;

/// The sample level shipped with the repository.
fn sample_level() -> CString {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/level/training_ground.glb"
    );
    CString::new(path).unwrap()
}

fn new_world() -> FlinchWorld {
    let mut w = FlinchWorld { id: 0 };
    // SAFETY: valid output.
    expect(unsafe { flinch_world_create(&mut w) }, S::Ok, &[]);
    w
}

fn default_desc() -> FlinchColliderDesc {
    let mut d = std::mem::MaybeUninit::<FlinchColliderDesc>::uninit();
    // SAFETY: valid output; written by the call.
    unsafe {
        expect(flinch_collider_desc_default(d.as_mut_ptr()), S::Ok, &[]);
        d.assume_init()
    }
}

/// Adds `desc` to `w`: the status and the handle.
fn add(w: FlinchWorld, desc: &FlinchColliderDesc) -> (S, FlinchCollider) {
    let mut c = FlinchCollider { id: 0 };
    // SAFETY: valid description (its arrays outlive the call) and output.
    let s = unsafe { flinch_world_add_collider(w, desc, &mut c) };
    (s, c)
}

fn cast_ray(w: FlinchWorld, origin: [f64; 3], direction: [f64; 3]) -> Option<FlinchRayHit> {
    let mut out = std::mem::MaybeUninit::<FlinchRayHit>::uninit();
    let mut hit = -1;
    // SAFETY: valid vectors and outputs.
    let s = unsafe {
        flinch_world_cast_ray(
            w,
            origin.as_ptr(),
            direction.as_ptr(),
            100.0,
            u32::MAX,
            out.as_mut_ptr(),
            &mut hit,
        )
    };
    expect(s, S::Ok, &[]);
    // SAFETY: written by the successful call.
    let out = unsafe { out.assume_init() };
    assert!(hit == 0 || hit == 1);
    assert_eq!(hit == 0, out.kind == FlinchRayHitKind::None as u32);
    (hit == 1).then_some(out)
}

fn collider_count(w: FlinchWorld) -> usize {
    with_scene("test", w, |scene| Ok(scene.level().len())).unwrap()
}

#[test]
fn colliders_are_added_moved_removed_and_stale_handles_refused() {
    let (w, other) = (new_world(), new_world());
    let mut d = default_desc();
    assert_eq!(d.shape, FlinchColliderShape::Plane as i32);
    assert_eq!(d.pose.rotation, [0.0, 0.0, 0.0, 1.0]);
    d.shape = FlinchColliderShape::Box as i32;
    d.size = [0.5, 0.25, 0.5];
    d.pose.position = [0.0, 1.0, 0.0];
    let (s, static_box) = add(w, &d);
    expect(s, S::Ok, &[]);
    assert_ne!(static_box.id, 0);
    d.kinematic = 1;
    d.shape = FlinchColliderShape::Capsule as i32;
    d.size = [0.45, 0.035, 0.0];
    let name = CString::new("bat").unwrap();
    d.name = name.as_ptr();
    let (s, bat) = add(w, &d);
    expect(s, S::Ok, &[]);
    let (s, elsewhere) = add(other, &d);
    expect(s, S::Ok, &[]);
    assert_eq!(collider_count(w), 2);

    let pose = FlinchTransform {
        position: [0.1, 1.0, 0.0],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
    // SAFETY: valid pose and velocities (or NULL).
    unsafe {
        expect(
            flinch_world_move_collider(w, bat, &pose, null(), null()),
            S::Ok,
            &[],
        );
        expect(
            flinch_world_move_collider(w, bat, &pose, [1.0, 0.0, 0.0].as_ptr(), null()),
            S::Ok,
            &[],
        );
        expect(
            flinch_world_move_collider(w, static_box, &pose, null(), null()),
            S::InvalidArgument,
            &["flinch_world_move_collider", "static"],
        );
        expect(
            flinch_world_move_collider(w, bat, null(), null(), null()),
            S::NullPointer,
            &["`pose`"],
        );
        let nan = [f64::NAN, 0.0, 0.0];
        expect(
            flinch_world_move_collider(w, bat, &pose, nan.as_ptr(), null()),
            S::InvalidArgument,
            &["`linear_velocity`", "finite"],
        );
        let zero = FlinchTransform {
            rotation: [0.0; 4],
            ..pose
        };
        expect(
            flinch_world_move_collider(w, bat, &zero, null(), null()),
            S::InvalidArgument,
            &["`pose`", "nonzero rotation"],
        );
        // A collider of another world, and the zero handle.
        expect(
            flinch_world_move_collider(w, elsewhere, &pose, null(), null()),
            S::InvalidHandle,
            &["stale collider"],
        );
    }
    expect(flinch_world_step(w, 1.0 / 120.0), S::Ok, &[]);
    expect(
        flinch_world_remove_collider(w, elsewhere),
        S::InvalidHandle,
        &["flinch_world_remove_collider", "stale collider"],
    );
    expect(
        flinch_world_remove_collider(w, FlinchCollider { id: 0 }),
        S::InvalidHandle,
        &["stale collider"],
    );
    expect(flinch_world_remove_collider(w, bat), S::Ok, &[]);
    expect(
        flinch_world_remove_collider(w, bat),
        S::InvalidHandle,
        &["stale collider", "removed"],
    );
    // SAFETY: valid pose.
    expect(
        unsafe { flinch_world_move_collider(w, bat, &pose, null(), null()) },
        S::InvalidHandle,
        &["stale collider"],
    );
    assert_eq!(collider_count(w), 1);
    expect(flinch_world_remove_collider(w, static_box), S::Ok, &[]);
    assert_eq!(collider_count(w), 0);
    expect(flinch_world_destroy(w), S::Ok, &[]);
    expect(
        flinch_world_remove_collider(w, static_box),
        S::InvalidHandle,
        &["world"],
    );
    expect(flinch_world_destroy(other), S::Ok, &[]);
}

#[test]
fn refused_shapes_name_their_problem() {
    let w = new_world();
    let d = default_desc();
    let nan_vertex = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, f64::NAN, 1.0];
    let tri = [0u32, 1, 2];
    let mesh = FlinchColliderDesc {
        shape: FlinchColliderShape::TriangleMesh as i32,
        points: nan_vertex.as_ptr(),
        point_count: 3,
        triangles: tri.as_ptr(),
        triangle_count: 1,
        ..d
    };
    expect(
        add(w, &mesh).0,
        S::InvalidArgument,
        &["flinch_world_add_collider", "vertex 2", "not finite"],
    );
    let empty = FlinchColliderDesc {
        shape: FlinchColliderShape::TriangleMesh as i32,
        ..d
    };
    expect(add(w, &empty).0, S::InvalidArgument, &["empty mesh"]);
    let past = [0u32, 1, 7];
    let good = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    let beyond = FlinchColliderDesc {
        points: good.as_ptr(),
        triangles: past.as_ptr(),
        ..mesh
    };
    expect(add(w, &beyond).0, S::InvalidArgument, &["vertex 7"]);
    let null_points = FlinchColliderDesc {
        points: null(),
        ..mesh
    };
    expect(add(w, &null_points).0, S::NullPointer, &["`points`"]);
    let heights = [0.0, 0.1, f64::NAN, 0.3];
    let field = FlinchColliderDesc {
        shape: FlinchColliderShape::HeightField as i32,
        points: heights.as_ptr(),
        point_count: 4,
        rows: 2,
        cols: 2,
        size_x: 1.0,
        size_z: 1.0,
        ..d
    };
    expect(
        add(w, &field).0,
        S::InvalidArgument,
        &["height field", "row 1, column 0", "not finite"],
    );
    let wrong_count = FlinchColliderDesc {
        point_count: 3,
        ..field
    };
    expect(add(w, &wrong_count).0, S::InvalidArgument, &["2 × 2"]);
    let huge = FlinchColliderDesc {
        rows: usize::MAX,
        cols: 3,
        ..field
    };
    expect(add(w, &huge).0, S::InvalidArgument, &["height field"]);
    let flat_hull = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0];
    let hull = FlinchColliderDesc {
        shape: FlinchColliderShape::ConvexHull as i32,
        points: flat_hull.as_ptr(),
        point_count: 4,
        ..d
    };
    expect(add(w, &hull).0, S::InvalidArgument, &["one plane"]);
    let bad_enum = FlinchColliderDesc { shape: 42, ..d };
    expect(
        add(w, &bad_enum).0,
        S::InvalidArgument,
        &["`shape` 42", "HEIGHT_FIELD"],
    );
    let zero_plane = FlinchColliderDesc {
        size: [0.0; 3],
        ..d
    };
    expect(add(w, &zero_plane).0, S::InvalidArgument, &["plane normal"]);
    let nan_box = FlinchColliderDesc {
        shape: FlinchColliderShape::Box as i32,
        size: [1.0, f64::NAN, 1.0],
        ..d
    };
    expect(
        add(w, &nan_box).0,
        S::InvalidArgument,
        &["box half extents"],
    );
    let zero_rotation = FlinchColliderDesc {
        pose: FlinchTransform::default(),
        ..d
    };
    expect(
        add(w, &zero_rotation).0,
        S::InvalidArgument,
        &["`pose`", "{0, 0, 0, 1}"],
    );
    let nan_friction = FlinchColliderDesc {
        friction: f64::NAN,
        ..d
    };
    expect(add(w, &nan_friction).0, S::InvalidArgument, &["`friction`"]);
    let bouncy = FlinchColliderDesc {
        restitution: 2.0,
        ..d
    };
    expect(add(w, &bouncy).0, S::InvalidArgument, &["restitution"]);
    let mut out = FlinchCollider { id: 0 };
    // SAFETY: NULLs are what is tested; the rest is valid.
    unsafe {
        expect(
            flinch_world_add_collider(w, null(), &mut out),
            S::NullPointer,
            &["`desc`"],
        );
        expect(
            flinch_world_add_collider(w, &d, null_mut()),
            S::NullPointer,
            &["`out`"],
        );
        expect(
            flinch_collider_desc_default(null_mut()),
            S::NullPointer,
            &["`out`"],
        );
    }
    assert_eq!(out.id, 0, "outputs untouched on errors");
    assert_eq!(collider_count(w), 0, "nothing was added");
    // The same shapes, valid, are added.
    let ok_mesh = FlinchColliderDesc {
        points: good.as_ptr(),
        ..mesh
    };
    expect(add(w, &ok_mesh).0, S::Ok, &[]);
    let ok_heights = [0.0, 0.1, 0.2, 0.3];
    let ok_field = FlinchColliderDesc {
        points: ok_heights.as_ptr(),
        ..field
    };
    expect(add(w, &ok_field).0, S::Ok, &[]);
    let cube: Vec<f64> = (0..8)
        .flat_map(|i| [(i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64])
        .collect();
    let ok_hull = FlinchColliderDesc {
        points: cube.as_ptr(),
        point_count: 8,
        ..hull
    };
    expect(add(w, &ok_hull).0, S::Ok, &[]);
    assert_eq!(collider_count(w), 3);
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn the_sample_level_loads_and_a_ray_meets_its_floor() {
    let w = new_world();
    let path = sample_level();
    let mut count = 0usize;
    // SAFETY: valid path and outputs; NULL out with capacity 0 asks the count.
    unsafe {
        expect(
            flinch_world_load_level(w, path.as_ptr(), null(), null_mut(), 0, &mut count),
            S::Ok,
            &[],
        );
    }
    assert_eq!(count, 11);
    assert_eq!(collider_count(w), 0, "asking the count adds nothing");
    let mut keys = vec![FlinchCollider { id: 0 }; 3];
    count = 0;
    // SAFETY: `keys` holds 3.
    unsafe {
        expect(
            flinch_world_load_level(w, path.as_ptr(), null(), keys.as_mut_ptr(), 3, &mut count),
            S::BufferTooSmall,
            &["`out`", "11 needed"],
        );
    }
    assert_eq!(count, 11, "the count is written with a short buffer");
    assert_eq!(collider_count(w), 0, "a short buffer adds nothing");
    keys.resize(count, FlinchCollider { id: 0 });
    // The level's floor (y = 0 in the file) lifted to y = 0.25 and moved by (1, 0, 2).
    let pose = FlinchTransform {
        position: [1.0, 0.25, 2.0],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
    // SAFETY: `keys` holds `count`.
    unsafe {
        expect(
            flinch_world_load_level(
                w,
                path.as_ptr(),
                &pose,
                keys.as_mut_ptr(),
                count,
                &mut count,
            ),
            S::Ok,
            &[],
        );
    }
    assert_eq!(count, 11);
    assert_eq!(collider_count(w), 11);
    let mut ids: Vec<u64> = keys.iter().map(|k| k.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 11, "distinct handles");
    assert!(ids[0] != 0);
    // Open floor at (-10, 0, -10) in the level's frame.
    let hit = cast_ray(w, [-9.0, 5.25, -8.0], [0.0, -2.0, 0.0]).expect("the floor");
    assert_eq!(hit.kind, FlinchRayHitKind::Collider as u32);
    assert!(ids.contains(&hit.collider.id));
    assert_eq!(hit.character.id, 0);
    assert_eq!(hit.joint, usize::MAX);
    assert!((hit.distance - 5.0).abs() < 1e-9, "{}", hit.distance);
    assert!((hit.point[1] - 0.25).abs() < 1e-9, "{:?}", hit.point);
    assert!((hit.normal[1] - 1.0).abs() < 1e-9, "{:?}", hit.normal);
    // Upward over the open floor: nothing.
    assert!(cast_ray(w, [-9.0, 5.25, -8.0], [0.0, 1.0, 0.0]).is_none());
    // The wall (x 6..6.2 in the level frame, 2.5 m high): a ray along +x at 1 m height from x = 0.
    let wall = cast_ray(w, [1.0 + 0.0, 1.25, 2.0 - 8.0], [1.0, 0.0, 0.0]).expect("the wall");
    assert!((wall.distance - 6.0).abs() < 1e-9, "{}", wall.distance);
    assert!((wall.normal[0] + 1.0).abs() < 1e-9);
    // A sphere sweep stops its radius short of the floor.
    let mut out = std::mem::MaybeUninit::<FlinchRayHit>::uninit();
    let mut hit = 0;
    // SAFETY: valid vectors and outputs.
    unsafe {
        expect(
            flinch_world_cast_sphere(
                w,
                [-9.0, 5.25, -8.0].as_ptr(),
                0.5,
                [0.0, -1.0, 0.0].as_ptr(),
                10.0,
                u32::MAX,
                out.as_mut_ptr(),
                &mut hit,
            ),
            S::Ok,
            &[],
        );
        assert_eq!(hit, 1);
        let out = out.assume_init();
        assert!((out.distance - 4.5).abs() < 1e-6, "{}", out.distance);
    }
    // Removing one loaded collider leaves the others.
    expect(flinch_world_remove_collider(w, keys[0]), S::Ok, &[]);
    assert_eq!(collider_count(w), 10);
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

#[test]
fn bad_level_paths_and_bad_casts_are_errors() {
    let w = new_world();
    let mut count = 0usize;
    let missing = CString::new("/nonexistent/level.glb").unwrap();
    let bvh = CString::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../samples/data/cmu_02_01_walk.bvh"
    ))
    .unwrap();
    // SAFETY: valid strings and outputs; NULLs are what is tested.
    unsafe {
        expect(
            flinch_world_load_level(w, missing.as_ptr(), null(), null_mut(), 0, &mut count),
            S::Io,
            &["flinch_world_load_level", "/nonexistent/level.glb"],
        );
        expect(
            flinch_world_load_level(w, bvh.as_ptr(), null(), null_mut(), 0, &mut count),
            S::Parse,
            &["flinch_world_load_level"],
        );
        expect(
            flinch_world_load_level(w, null(), null(), null_mut(), 0, &mut count),
            S::NullPointer,
            &["`path`"],
        );
        let path = sample_level();
        expect(
            flinch_world_load_level(w, path.as_ptr(), null(), null_mut(), 0, null_mut()),
            S::NullPointer,
            &["`count`"],
        );
        expect(
            flinch_world_load_level(w, path.as_ptr(), null(), null_mut(), 5, &mut count),
            S::NullPointer,
            &["`out`"],
        );
        expect(
            flinch_world_load_level(
                FlinchWorld { id: 12345 },
                path.as_ptr(),
                null(),
                null_mut(),
                0,
                &mut count,
            ),
            S::InvalidHandle,
            &["world"],
        );
        let mut out = std::mem::MaybeUninit::<FlinchRayHit>::uninit();
        let mut hit = 0;
        let o = [0.0, 1.0, 0.0];
        expect(
            flinch_world_cast_ray(
                w,
                o.as_ptr(),
                [0.0; 3].as_ptr(),
                1.0,
                u32::MAX,
                out.as_mut_ptr(),
                &mut hit,
            ),
            S::InvalidArgument,
            &["`direction` is zero"],
        );
        expect(
            flinch_world_cast_ray(
                w,
                o.as_ptr(),
                o.as_ptr(),
                f64::NAN,
                u32::MAX,
                out.as_mut_ptr(),
                &mut hit,
            ),
            S::InvalidArgument,
            &["`max_distance`"],
        );
        expect(
            flinch_world_cast_ray(
                w,
                null(),
                o.as_ptr(),
                1.0,
                u32::MAX,
                out.as_mut_ptr(),
                &mut hit,
            ),
            S::NullPointer,
            &["`origin`"],
        );
        expect(
            flinch_world_cast_ray(
                w,
                o.as_ptr(),
                o.as_ptr(),
                1.0,
                u32::MAX,
                null_mut(),
                &mut hit,
            ),
            S::NullPointer,
            &["`out`"],
        );
        expect(
            flinch_world_cast_sphere(
                w,
                o.as_ptr(),
                -1.0,
                o.as_ptr(),
                1.0,
                u32::MAX,
                out.as_mut_ptr(),
                &mut hit,
            ),
            S::InvalidArgument,
            &["`radius`"],
        );
        expect(
            flinch_world_cast_sphere(
                w,
                o.as_ptr(),
                0.1,
                o.as_ptr(),
                f64::INFINITY,
                u32::MAX,
                out.as_mut_ptr(),
                &mut hit,
            ),
            S::InvalidArgument,
            &["`max_distance`", "finite"],
        );
    }
    assert_eq!(collider_count(w), 0);
    expect(flinch_world_destroy(w), S::Ok, &[]);
}

/// The index of the joint named `name`.
fn joint_index(w: FlinchWorld, k: FlinchCharacterKey, name: &str) -> usize {
    let mut n = 0usize;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_joint_count(w, k, &mut n) },
        S::Ok,
        &[],
    );
    (0..n)
        .find(|&j| {
            let mut buf = [0 as std::ffi::c_char; 64];
            // SAFETY: valid buffer.
            expect(
                unsafe { flinch_character_joint_name(w, k, j, buf.as_mut_ptr(), 64, null_mut()) },
                S::Ok,
                &[],
            );
            // SAFETY: NUL-terminated by the call.
            unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }.to_bytes() == name.as_bytes()
        })
        .unwrap_or_else(|| panic!("no joint {name}"))
}

/// The world position of joint `j` of a character.
fn joint_position(w: FlinchWorld, k: FlinchCharacterKey, j: usize) -> [f64; 3] {
    let mut n = 0usize;
    // SAFETY: valid outputs.
    unsafe {
        expect(flinch_character_joint_count(w, k, &mut n), S::Ok, &[]);
        let mut t = vec![FlinchTransform::default(); n];
        expect(
            flinch_character_world_transforms(w, k, t.as_mut_ptr(), n),
            S::Ok,
            &[],
        );
        t[j].position
    }
}

#[test]
fn a_ray_meets_a_bone_and_a_kinematic_sphere_push_is_a_collider_hit_event() {
    let (w, k) = world_with_walk();
    for _ in 0..12 {
        expect(flinch_world_step(w, 1.0 / 120.0), S::Ok, &[]);
    }
    let hips = joint_position(w, k, 0);
    let origin = [hips[0] + 2.0, hips[1], hips[2]];
    let hit = cast_ray(w, origin, [-1.0, 0.0, 0.0]).expect("the character");
    assert_eq!(hit.kind, FlinchRayHitKind::Character as u32);
    assert_eq!(hit.character.id, k.id);
    assert_eq!(hit.collider.id, 0);
    let mut joints = 0usize;
    // SAFETY: valid output.
    expect(
        unsafe { flinch_character_joint_count(w, k, &mut joints) },
        S::Ok,
        &[],
    );
    assert!(hit.joint < joints, "joint {}", hit.joint);
    assert!(hit.distance > 1.0 && hit.distance < 2.0, "{}", hit.distance);
    assert!(hit.normal[0] > 0.5, "{:?}", hit.normal);
    // The bone of the hit takes a bullet's impulse at the hit point.
    let mut name = [0 as std::ffi::c_char; 64];
    // SAFETY: valid buffer.
    unsafe {
        expect(
            flinch_character_joint_name(w, k, hit.joint, name.as_mut_ptr(), 64, null_mut()),
            S::Ok,
            &[],
        );
        expect(
            flinch_world_apply_impulse(
                w,
                k,
                name.as_ptr(),
                hit.point.as_ptr(),
                [-2.0, 0.0, 0.0].as_ptr(),
            ),
            S::Ok,
            &[],
        );
    }
    expect(flinch_world_step(w, 1.0 / 120.0), S::Ok, &[]);
    expect(
        flinch_character_set_level_layers(w, k, 1, u32::MAX),
        S::Ok,
        &[],
    );
    expect(
        flinch_character_set_level_layers(w, FlinchCharacterKey { id: 7 }, 1, 1),
        S::InvalidHandle,
        &["flinch_character_set_level_layers"],
    );
    // A kinematic ball rising at 2 m/s from under the right forearm into it (following it along x and z), to
    // 5 cm under its joint.
    let arm = joint_index(w, k, "RightForeArm");
    let start = joint_position(w, k, arm);
    let mut d = default_desc();
    d.shape = FlinchColliderShape::Sphere as i32;
    d.size = [0.05, 0.0, 0.0];
    d.kinematic = 1;
    d.pose.position = [start[0], start[1] - 0.3, start[2]];
    let (s, ball) = add(w, &d);
    expect(s, S::Ok, &[]);
    let mut pushed = 0;
    for i in 1..=15 {
        let now = joint_position(w, k, arm);
        let mut pose = d.pose;
        pose.position = [now[0], start[1] - 0.3 + 2.0 * i as f64 / 120.0, now[2]];
        // SAFETY: valid pose; velocities from the motion.
        expect(
            unsafe { flinch_world_move_collider(w, ball, &pose, null(), null()) },
            S::Ok,
            &[],
        );
        expect(flinch_world_step(w, 1.0 / 120.0), S::Ok, &[]);
        let mut n = 0usize;
        // SAFETY: valid outputs.
        unsafe {
            expect(flinch_world_event_count(w, &mut n), S::Ok, &[]);
            for e in 0..n {
                let mut ev = std::mem::MaybeUninit::<FlinchHitEvent>::uninit();
                expect(flinch_world_event(w, e, ev.as_mut_ptr()), S::Ok, &[]);
                let ev = ev.assume_init();
                if ev.collider.id != 0 {
                    assert_eq!(ev.collider.id, ball.id);
                    assert_eq!(ev.ball.id, 0);
                    assert_eq!(ev.character.id, k.id);
                    pushed += 1;
                }
            }
        }
    }
    assert!(pushed > 0, "the sphere's push made no hit event");
    expect(flinch_world_destroy(w), S::Ok, &[]);
}
