//! A clip walked over a world's level through the C ABI: `flinch_clip_looped` (length, limits, bad lengths),
//! `flinch_prepared_clip_root_target` and `flinch_prepared_clip_floor` (where the clip walks), and
//! `flinch_prepared_clip_create_on_level`: on a plane at the clip's own floor the adapted clip is the flat one
//! (root within a millimetre), and a world with no static collider (empty, or a kinematic bat only) is refused.

use std::ptr::{null, null_mut};

use crate::FlinchStatus as S;
use crate::clip::*;
use crate::level::*;
use crate::prepared::*;
use crate::query::FlinchTransform;
use crate::tests::{expect, walk_clip};
use crate::world::*;

fn new_world() -> FlinchWorld {
    let mut w = FlinchWorld { id: 0 };
    // SAFETY: valid output.
    expect(unsafe { flinch_world_create(&mut w) }, S::Ok, &[]);
    w
}

fn duration(clip: FlinchClip) -> f64 {
    let mut d = f64::NAN;
    // SAFETY: valid output.
    expect(unsafe { flinch_clip_duration(clip, &mut d) }, S::Ok, &[]);
    d
}

fn root_target(p: FlinchPreparedClip, t: f64) -> FlinchTransform {
    let mut out = FlinchTransform::default();
    // SAFETY: valid output.
    expect(
        unsafe { flinch_prepared_clip_root_target(p, t, &mut out) },
        S::Ok,
        &[],
    );
    out
}

/// A static collider of shape `shape` and `size` at `position`, or a kinematic one.
fn add_collider(
    w: FlinchWorld,
    shape: FlinchColliderShape,
    size: [f64; 3],
    position: [f64; 3],
    kinematic: bool,
) {
    let mut d = std::mem::MaybeUninit::<FlinchColliderDesc>::uninit();
    let mut c = FlinchCollider { id: 0 };
    // SAFETY: valid outputs; the description has no arrays.
    unsafe {
        expect(flinch_collider_desc_default(d.as_mut_ptr()), S::Ok, &[]);
        let mut d = d.assume_init();
        d.shape = shape as i32;
        d.size = size;
        d.pose.position = position;
        d.kinematic = i32::from(kinematic);
        expect(flinch_world_add_collider(w, &d, &mut c), S::Ok, &[]);
    }
}

#[test]
fn looped_clip_has_the_asked_length_and_bad_lengths_are_refused() {
    let clip = walk_clip();
    let mut long = FlinchClip { id: 0 };
    // SAFETY: valid outputs (or NULL on purpose).
    unsafe {
        expect(flinch_clip_looped(clip, 6.0, &mut long), S::Ok, &[]);
        // Six seconds of frames (the duration runs from the first frame to the last: one frame less).
        let frame = 1.0 / 120.0;
        assert!(
            (duration(long) - 6.0).abs() <= 1.5 * frame,
            "{}",
            duration(long)
        );
        let mut out = FlinchClip { id: 0 };
        for bad in [f64::NAN, -1.0, 0.0, f64::INFINITY] {
            expect(
                flinch_clip_looped(clip, bad, &mut out),
                S::InvalidArgument,
                &["flinch_clip_looped", "loop length"],
            );
        }
        // Ten million seconds are past the import limits: refused before anything is allocated.
        expect(
            flinch_clip_looped(clip, 1e7, &mut out),
            S::InvalidArgument,
            &["limits"],
        );
        assert_eq!(out.id, 0);
        expect(
            flinch_clip_looped(clip, 6.0, null_mut()),
            S::NullPointer,
            &["out"],
        );
    }
    expect(flinch_clip_destroy(long), S::Ok, &[]);
    expect(flinch_clip_destroy(clip), S::Ok, &[]);
    let mut out = FlinchClip { id: 0 };
    // SAFETY: valid output.
    expect(
        unsafe { flinch_clip_looped(clip, 6.0, &mut out) },
        S::InvalidHandle,
        &["flinch_clip_looped"],
    );
}

#[test]
fn a_clip_prepared_on_a_plane_at_its_floor_walks_where_the_flat_one_does() {
    let clip = walk_clip();
    let assisted = c"{\"root\": {\"policy\": \"assisted\"}}";
    let (mut flat, mut on) = (FlinchPreparedClip { id: 0 }, FlinchPreparedClip { id: 0 });
    let mut floor = f64::NAN;
    // SAFETY: valid strings and outputs.
    unsafe {
        expect(
            flinch_prepared_clip_create(clip, assisted.as_ptr(), &mut flat),
            S::Ok,
            &[],
        );
        expect(flinch_prepared_clip_floor(flat, &mut floor), S::Ok, &[]);
    }
    // The walk's root centre of mass is about a metre over its fitted floor.
    let start = root_target(flat, 0.0);
    let height = start.position[1] - floor;
    assert!(
        (0.8..1.1).contains(&height),
        "root {height} m over the floor"
    );
    // Times past the clip are clamped to its ends.
    assert_eq!(root_target(flat, -5.0), start);
    let end = root_target(flat, 1e6);
    assert!((end.position[0] - start.position[0]).hypot(end.position[2] - start.position[2]) > 2.0);

    // No static collider: nothing to walk on.
    let w = new_world();
    // SAFETY: valid strings and outputs.
    unsafe {
        expect(
            flinch_prepared_clip_create_on_level(clip, assisted.as_ptr(), w, &mut on),
            S::InvalidArgument,
            &["flinch_prepared_clip_create_on_level", "no static collider"],
        );
    }
    add_collider(
        w,
        FlinchColliderShape::Sphere,
        [0.1, 0.0, 0.0],
        [0.0, 50.0, 0.0],
        true,
    );
    // SAFETY: valid strings and outputs.
    unsafe {
        expect(
            flinch_prepared_clip_create_on_level(clip, assisted.as_ptr(), w, &mut on),
            S::InvalidArgument,
            &["no static collider"],
        );
    }
    // A plane at the clip's own floor: the adapted clip is the flat one.
    add_collider(
        w,
        FlinchColliderShape::Plane,
        [0.0, 1.0, 0.0],
        [0.0, floor, 0.0],
        false,
    );
    // SAFETY: valid strings and outputs.
    unsafe {
        expect(
            flinch_prepared_clip_create_on_level(clip, assisted.as_ptr(), w, &mut on),
            S::Ok,
            &[],
        );
    }
    let mut worst = 0.0f64;
    for k in 0..=20 {
        let t = 2.5 * f64::from(k) / 20.0;
        let (a, b) = (root_target(flat, t), root_target(on, t));
        let d = (0..3)
            .map(|i| (a.position[i] - b.position[i]).powi(2))
            .sum::<f64>()
            .sqrt();
        worst = worst.max(d);
    }
    assert!(worst < 1e-3, "adapted root {worst} m from the flat one");

    // Bad arguments.
    let mut out = FlinchTransform::default();
    // SAFETY: valid outputs (or NULL on purpose).
    unsafe {
        expect(
            flinch_prepared_clip_root_target(flat, f64::NAN, &mut out),
            S::InvalidArgument,
            &["time"],
        );
        expect(
            flinch_prepared_clip_root_target(flat, 0.0, null_mut()),
            S::NullPointer,
            &["out"],
        );
        expect(
            flinch_prepared_clip_create_on_level(clip, null(), FlinchWorld { id: 0 }, &mut on),
            S::InvalidHandle,
            &["world"],
        );
    }
    for p in [flat, on] {
        expect(flinch_prepared_clip_destroy(p), S::Ok, &[]);
    }
    // SAFETY: valid output.
    expect(
        unsafe { flinch_prepared_clip_floor(flat, &mut floor) },
        S::InvalidHandle,
        &["prepared clip"],
    );
    expect(flinch_world_destroy(w), S::Ok, &[]);
    expect(flinch_clip_destroy(clip), S::Ok, &[]);
}
