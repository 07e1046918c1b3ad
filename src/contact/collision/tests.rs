//! Unit tests: input validation, filtering, the pair cache.

use nalgebra::{Isometry3, Point3, Vector3};

use super::*;

fn ball(body: usize, radius: f64) -> Collider {
    Collider::new(Some(body), Shape::Sphere { radius })
}

fn at(x: f64, y: f64, z: f64) -> Isometry3<f64> {
    Isometry3::translation(x, y, z)
}

#[test]
fn invalid_input_is_an_error_not_a_panic() {
    let mut w = CollisionWorld::new();
    let f = PairFilter::new();
    let frames = [at(0.0, 0.0, 0.0)];
    let bad_radius = [ball(0, -1.0)];
    assert_eq!(
        w.detect(&frames, &bad_radius, &f, 0.0),
        Err(CollisionError::Shape(0))
    );
    let zero_normal = [Collider::new(
        None,
        Shape::HalfSpace {
            point: Point3::origin(),
            normal: Vector3::zeros(),
        },
    )];
    assert_eq!(
        w.detect(&frames, &zero_normal, &f, 0.0),
        Err(CollisionError::Shape(0))
    );
    let out_of_range = [ball(3, 0.1)];
    assert!(matches!(
        w.detect(&frames, &out_of_range, &f, 0.0),
        Err(CollisionError::BodyOutOfRange {
            collider: 0,
            body: 3,
            bodies: 1
        })
    ));
    let nan = [at(f64::NAN, 0.0, 0.0)];
    assert_eq!(
        w.detect(&nan, &[ball(0, 0.1)], &f, 0.0),
        Err(CollisionError::NonFinitePose { collider: 0 })
    );
    for eps in [-1e-3, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            w.detect(&frames, &[ball(0, 0.1)], &f, eps),
            Err(CollisionError::InvalidTolerance(_))
        ));
    }
    // Two half-spaces: parry does not support the pair; static–static is skipped anyway, and a body-borne
    // half-space against a static one yields nothing rather than a panic.
    let planes = [
        Collider::new(None, Shape::ground(0.0)),
        Collider::new(Some(0), Shape::ground(0.0)),
    ];
    assert_eq!(w.detect(&frames, &planes, &f, 0.0), Ok(vec![]));
}

#[test]
fn same_body_excluded_pairs_and_groups_are_skipped() {
    let frames = [at(0.0, 0.0, 0.0), at(0.15, 0.0, 0.0)];
    let f = PairFilter::new();
    let mut w = CollisionWorld::new();
    // Two overlapping balls on one body: nothing.
    assert!(
        w.detect(&frames, &[ball(0, 0.1), ball(0, 0.1)], &f, 0.0)
            .unwrap()
            .is_empty()
    );
    // On two bodies: one contact, normal from a to b (+x), depth 0.05.
    let pair = [ball(0, 0.1), ball(1, 0.1)];
    let c = w.detect(&frames, &pair, &f, 0.0).unwrap();
    assert_eq!(c.len(), 1);
    assert!((c[0].normal - Vector3::x()).norm() < 1e-12);
    assert!((c[0].depth - 0.05).abs() < 1e-12);
    assert_eq!((c[0].a, c[0].b, c[0].colliders), (Some(0), Some(1), (0, 1)));
    // Excluded body pair.
    let mut ex = PairFilter::new();
    ex.exclude(1, 0);
    assert!(ex.excludes(0, 1) && ex.len() == 1);
    assert!(w.detect(&frames, &pair, &ex, 0.0).unwrap().is_empty());
    // Groups: character 1 (bit 1) ignores itself but touches character 2 (bit 2).
    let g = |body, group: u32, mask: u32| ball(body, 0.1).with_groups(group, mask);
    assert!(
        w.detect(&frames, &[g(0, 1, !1), g(1, 1, !1)], &f, 0.0)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        w.detect(&frames, &[g(0, 1, !1), g(1, 2, !2)], &f, 0.0)
            .unwrap()
            .len(),
        1
    );
    // One-sided masks do not interact.
    assert!(
        w.detect(&frames, &[g(0, 1, 2), g(1, 2, 0)], &f, 0.0)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn pair_cache_follows_the_broad_phase_and_collider_changes() {
    let f = PairFilter::new();
    let mut w = CollisionWorld::new();
    let pair = [ball(0, 0.1), ball(1, 0.1)];
    let near = [at(0.0, 0.0, 0.0), at(0.15, 0.0, 0.0)];
    let far = [at(0.0, 0.0, 0.0), at(5.0, 0.0, 0.0)];
    let id = w.detect(&near, &pair, &f, 0.0).unwrap()[0].id;
    assert_eq!(w.cached_pairs(), 1);
    // Same pair again: same contact id.
    assert_eq!(w.detect(&near, &pair, &f, 0.0).unwrap()[0].id, id);
    // AABBs apart: the pair leaves the cache; back in contact, a new id.
    assert!(w.detect(&far, &pair, &f, 0.0).unwrap().is_empty());
    assert_eq!(w.cached_pairs(), 0);
    let id2 = w.detect(&near, &pair, &f, 0.0).unwrap()[0].id;
    assert_ne!(id2, id);
    // A changed collider restarts the pair.
    let bigger = [ball(0, 0.12), ball(1, 0.1)];
    let c = w.detect(&near, &bigger, &f, 0.0).unwrap();
    assert!((c[0].depth - 0.07).abs() < 1e-12);
    assert_ne!(c[0].id, id2);
}

#[test]
fn aabb_rejection_respects_the_tolerance() {
    let f = PairFilter::new();
    let mut w = CollisionWorld::new();
    let pair = [ball(0, 0.1), ball(1, 0.1)];
    // Gap 5 mm.
    let frames = [at(0.0, 0.0, 0.0), at(0.205, 0.0, 0.0)];
    assert!(w.detect(&frames, &pair, &f, 1e-3).unwrap().is_empty());
    let c = w.detect(&frames, &pair, &f, 1e-2).unwrap();
    assert_eq!(c.len(), 1);
    assert!((c[0].depth + 5e-3).abs() < 1e-12);
}
