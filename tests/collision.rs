//! Collision detection (`contact::collision`): figures on boxes, spheres and capsules against a ground plane and
//! each other, the contact tolerance, filtering, manifold persistence, and the CMU walk's capsules on the ground.

use flinch::contact::collision::{Collider, CollisionWorld, Contact, Feature, PairFilter, Shape};
use flinch::control::{Character, CharacterConfig};
use flinch::io::{ImportOptions, load_embedded_walk};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

const PEN: f64 = 1e-9;

fn ground() -> Collider {
    Collider::new(None, Shape::ground(0.0))
}

fn cuboid(body: usize, hx: f64, hy: f64, hz: f64) -> Collider {
    Collider::new(
        Some(body),
        Shape::Cuboid {
            half_extents: Vector3::new(hx, hy, hz),
        },
    )
}

fn capsule(body: usize, a: [f64; 3], b: [f64; 3], radius: f64) -> Collider {
    Collider::new(
        Some(body),
        Shape::Capsule {
            a: Point3::from(a),
            b: Point3::from(b),
            radius,
        },
    )
}

fn frame(t: Vector3<f64>, r: UnitQuaternion<f64>) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::from(t), r)
}

fn detect(frames: &[Isometry3<f64>], colliders: &[Collider], eps: f64) -> Vec<Contact> {
    CollisionWorld::new()
        .detect(frames, colliders, &PairFilter::new(), eps)
        .expect("valid input")
}

/// A 0.4 × 0.2 × 0.6 m box, turned 40° about Y, sunk 1e-9 m into the ground: 4 contacts, at its bottom corners,
/// each with depth 1e-9, normal +Y (ground → box).
#[test]
fn box_resting_on_the_ground_has_four_corner_contacts() {
    let r = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 40f64.to_radians());
    let f = [frame(Vector3::new(1.0, 0.1 - PEN, -2.0), r)];
    let c = detect(&f, &[ground(), cuboid(0, 0.2, 0.1, 0.3)], 0.0);
    assert_eq!(c.len(), 4);
    let mut corners: Vec<Point3<f64>> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
        .iter()
        .map(|(sx, sz)| f[0] * Point3::new(0.2 * sx, -0.1, 0.3 * sz))
        .collect();
    for k in &c {
        assert!((k.depth - PEN).abs() < 1e-15, "depth {:e}", k.depth);
        assert!((k.normal - Vector3::y()).norm() < 1e-15);
        assert_eq!((k.a, k.b, k.feature_a), (None, Some(0), Feature::Face(0)));
        assert!(matches!(k.feature_b, Feature::Vertex(_)));
        let hit = corners.iter().position(|p| (p - k.point_b).norm() < 1e-12);
        corners.remove(hit.expect("a bottom corner"));
        assert!(k.point_a.y.abs() < 1e-15, "on the plane");
    }
}

/// The same box turned 30° about Z, resting on its lowest edge sunk 1e-9 m: 2 contacts, the edge's ends.
#[test]
fn box_on_an_edge_has_two_contacts() {
    let r = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 30f64.to_radians());
    let (hx, hy) = (0.2, 0.1);
    // Lowest corner height below the centre.
    let low = (0..4)
        .map(|i| {
            let p = Point3::new(
                if i & 1 == 0 { -hx } else { hx },
                if i & 2 == 0 { -hy } else { hy },
                0.0,
            );
            (r * p).y
        })
        .fold(f64::INFINITY, f64::min);
    let f = [frame(Vector3::new(0.0, -low - PEN, 0.0), r)];
    let c = detect(&f, &[ground(), cuboid(0, hx, hy, 0.3)], 0.0);
    assert_eq!(c.len(), 2);
    for k in &c {
        assert!((k.depth - PEN).abs() < 1e-15, "depth {:e}", k.depth);
        assert!(k.point_b.y.abs() < 2e-9);
    }
    assert!(
        ((c[0].point_b - c[1].point_b).norm() - 0.6).abs() < 1e-12,
        "the edge's two ends"
    );
}

/// A 0.11 m ball on a tilted plane: one contact, normal = the plane normal, depth as imposed.
#[test]
fn sphere_on_a_plane_has_one_contact_along_the_plane_normal() {
    let n = Vector3::new(0.3, 1.0, -0.2).normalize();
    let p = Point3::new(0.5, 0.2, -0.1);
    let plane = Collider::new(
        None,
        Shape::HalfSpace {
            point: p,
            normal: n,
        },
    );
    let ball = Collider::new(Some(0), Shape::Sphere { radius: 0.11 });
    let centre = p + Vector3::new(0.3, 0.0, 0.4).cross(&n) + n * (0.11 - PEN);
    let c = detect(
        &[frame(centre.coords, UnitQuaternion::identity())],
        &[plane, ball],
        0.0,
    );
    assert_eq!(c.len(), 1);
    assert!((c[0].normal - n).norm() < 1e-14);
    assert!((c[0].depth - PEN).abs() < 1e-14, "{:e}", c[0].depth);
    assert!((c[0].point_b - (centre - n * 0.11)).norm() < 1e-14);
}

/// A 0.4 m capsule of radius 0.05 lying on the ground (axis turned 25° about Y): 2 contacts, below its ends.
#[test]
fn capsule_lying_on_the_ground_has_two_contacts_at_its_ends() {
    let r = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 25f64.to_radians());
    let f = [frame(Vector3::new(0.3, 0.05 - PEN, 0.7), r)];
    let c = detect(
        &f,
        &[
            ground(),
            capsule(0, [-0.2, 0.0, 0.0], [0.2, 0.0, 0.0], 0.05),
        ],
        0.0,
    );
    assert_eq!(c.len(), 2);
    let ends = [
        f[0] * Point3::new(-0.2, 0.0, 0.0),
        f[0] * Point3::new(0.2, 0.0, 0.0),
    ];
    for (k, end) in c.iter().zip(ends) {
        assert!((k.depth - PEN).abs() < 1e-15);
        assert!((k.point_a - Point3::new(end.x, 0.0, end.z)).norm() < 1e-12);
    }
}

/// Crossing capsules (x axis and z axis, radii 0.05 and 0.03, overlap 2 mm): one contact at the crossing.
/// Parallel capsules overlapping over x ∈ [−0.1, 0.2]: two contacts at the overlap's ends.
#[test]
fn capsule_capsule_crossing_and_parallel() {
    let d = 2e-3;
    let cols = [
        capsule(0, [-0.2, 0.0, 0.0], [0.2, 0.0, 0.0], 0.05),
        capsule(1, [0.0, 0.0, -0.3], [0.0, 0.0, 0.3], 0.03),
    ];
    let id = UnitQuaternion::identity();
    let f = [
        frame(Vector3::zeros(), id),
        frame(Vector3::new(0.0, 0.08 - d, 0.0), id),
    ];
    let c = detect(&f, &cols, 0.0);
    assert_eq!(c.len(), 1);
    assert!((c[0].depth - d).abs() < 1e-14 && (c[0].normal - Vector3::y()).norm() < 1e-14);
    assert!((c[0].point - Point3::new(0.0, 0.05 - d / 2.0, 0.0)).norm() < 1e-14);

    let cols = [
        capsule(0, [-0.2, 0.0, 0.0], [0.2, 0.0, 0.0], 0.05),
        capsule(1, [-0.2, 0.0, 0.0], [0.2, 0.0, 0.0], 0.03),
    ];
    let f = [
        frame(Vector3::zeros(), id),
        frame(Vector3::new(0.1, 0.08 - d, 0.0), id),
    ];
    let c = detect(&f, &cols, 0.0);
    for k in &c {
        println!("parallel: {:?} {:?} {:e}", k.point_a, k.point_b, k.depth);
    }
    for ax in [Vector3::x_axis(), Vector3::y_axis(), Vector3::z_axis()] {
        let r = UnitQuaternion::from_axis_angle(&ax, 0.3);
        let g = [
            frame(r * f[0].translation.vector, r),
            frame(r * f[1].translation.vector, r),
        ];
        println!("rotated about {ax:?}: {}", detect(&g, &cols, 0.0).len());
    }
    assert_eq!(c.len(), 2);
    let mut xs: Vec<f64> = c.iter().map(|k| k.point.x).collect();
    xs.sort_by(f64::total_cmp);
    assert!(
        (xs[0] + 0.1).abs() < 1e-12 && (xs[1] - 0.2).abs() < 1e-12,
        "{xs:?}"
    );
    for k in &c {
        assert!((k.depth - d).abs() < 1e-14 && (k.normal - Vector3::y()).norm() < 1e-14);
    }
}

/// Sphere against capsule: the reported separation is the analytic |c − closest point of the axis| − r₁ − r₂,
/// touching, overlapping or up to ε apart, beside the segment and past its ends.
#[test]
fn sphere_capsule_matches_the_analytic_distance() {
    let (a, b, rc, rs) = (
        Point3::new(-0.1, 0.05, 0.0),
        Point3::new(0.25, -0.1, 0.1),
        0.06,
        0.04,
    );
    let cols = [
        capsule(0, a.coords.into(), b.coords.into(), rc),
        Collider::new(Some(1), Shape::Sphere { radius: rs }),
    ];
    let id = UnitQuaternion::identity();
    let mut checked = 0;
    for centre in [
        Point3::new(0.0, 0.1, 0.05),
        Point3::new(0.1, -0.05, -0.08),
        Point3::new(-0.2, 0.1, 0.0),
        Point3::new(0.33, -0.12, 0.15),
        Point3::new(0.05, 0.0, 0.12),
    ] {
        let ab = b - a;
        let t = ((centre - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
        let analytic = (centre - (a + ab * t)).norm() - rc - rs;
        let f = [frame(Vector3::zeros(), id), frame(centre.coords, id)];
        let c = detect(&f, &cols, 0.2);
        assert_eq!(c.len(), 1);
        println!(
            "sphere-capsule: analytic {analytic:+.6e} reported {:+.6e}",
            -c[0].depth
        );
        assert!((c[0].depth + analytic).abs() < 1e-14);
        checked += 1;
    }
    assert_eq!(checked, 5);
}

/// A box 0.5 mm above the ground: ε = 1 mm reports its 4 corners at depth −0.5 mm; ε = 0.1 mm reports nothing.
#[test]
fn tolerance_reports_near_contacts() {
    let f = [frame(
        Vector3::new(0.0, 0.1 + 5e-4, 0.0),
        UnitQuaternion::identity(),
    )];
    let cols = [ground(), cuboid(0, 0.2, 0.1, 0.3)];
    let c = detect(&f, &cols, 1e-3);
    assert_eq!(c.len(), 4);
    for k in &c {
        assert!((k.depth + 5e-4).abs() < 1e-15, "{:e}", k.depth);
    }
    assert!(detect(&f, &cols, 1e-4).is_empty());
}

/// Two overlapping boxes on bodies sharing a joint produce nothing; without the exclusion they touch.
#[test]
fn excluded_pairs_produce_nothing() {
    let id = UnitQuaternion::identity();
    let f = [
        frame(Vector3::zeros(), id),
        frame(Vector3::new(0.0, 0.15, 0.0), id),
    ];
    let cols = [cuboid(0, 0.1, 0.1, 0.1), cuboid(1, 0.1, 0.1, 0.1)];
    assert!(!detect(&f, &cols, 0.0).is_empty());
    let mut filter = PairFilter::new();
    filter.exclude(0, 1);
    let c = CollisionWorld::new()
        .detect(&f, &cols, &filter, 0.0)
        .unwrap();
    assert!(c.is_empty());
}

/// A resting box (on the ground, and a box on it) moved by tiny motions (µm, 10 µrad) over 50 calls keeps the same
/// contacts: same feature ids, same persistent ids.
#[test]
fn manifolds_persist_under_tiny_motions() {
    let cols = [
        ground(),
        cuboid(0, 0.2, 0.1, 0.3),
        cuboid(1, 0.1, 0.05, 0.1),
    ];
    let mut world = CollisionWorld::new();
    let filter = PairFilter::new();
    type Key = (usize, usize, Feature, Feature, u64);
    let mut first: Option<Vec<Key>> = None;
    for step in 0..50 {
        let s = step as f64;
        let wobble = UnitQuaternion::from_euler_angles(1e-5 * (0.3 * s).sin(), 1e-5 * s, 0.0);
        let f = [
            frame(Vector3::new(1e-6 * s, 0.1 - PEN, 0.0), wobble),
            frame(Vector3::new(1e-6 * s, 0.25 - PEN, 1e-6 * s), wobble),
        ];
        let c = world.detect(&f, &cols, &filter, 1e-4).unwrap();
        let keys: Vec<_> = c
            .iter()
            .map(|k| (k.colliders.0, k.colliders.1, k.feature_a, k.feature_b, k.id))
            .collect();
        match &first {
            None => {
                let ground_box = keys.iter().filter(|k| (k.0, k.1) == (0, 1)).count();
                let box_box = keys.iter().filter(|k| (k.0, k.1) == (1, 2)).count();
                println!("persistence: {ground_box} ground-box and {box_box} box-box contacts");
                assert_eq!(ground_box, 4);
                assert!(box_box >= 4);
                first = Some(keys);
            }
            Some(k0) => assert_eq!(&keys, k0, "call {step}"),
        }
    }
}

/// The CMU walk's capsules against the ground plane y = 0 over the clip (reference poses at the preprocessed
/// step): feet touch in some frames and no other body ever does.
#[test]
fn walk_capsules_on_the_ground() {
    let imported = load_embedded_walk(&ImportOptions::default()).expect("embedded walk");
    let character =
        Character::from_imported(imported, &CharacterConfig::default()).expect("character");
    let model = character.model();
    let reference = character.reference();
    // Ground: group bit 0; the character: bit 1, touching only the ground.
    let mut colliders = vec![Collider::new(None, Shape::ground(0.0)).with_groups(1, u32::MAX)];
    colliders.extend(Collider::from_model(model, 0, 2, 1));
    let filter = PairFilter::from_model(model, 0);
    let is_foot = |b: usize| {
        let n = &model.bodies[b].name;
        n.contains("Foot") || n.contains("Toe")
    };
    let mut kin = Vec::new();
    let mut frames = Vec::new();
    // Frame 0 of the reference is the character's initial pose.
    reference.kinematics(0, &mut kin);
    for (b, k) in kin.iter().enumerate() {
        let f = character.body_frame(b);
        assert!((f.translation.vector - k.origin).norm() < 1e-9);
        assert!(f.rotation.angle_to(&k.rotation) < 1e-9);
    }
    let eps = 1e-3;
    let mut world = CollisionWorld::new();
    let (mut touching_frames, mut max_pen, mut max_contacts) = (0, 0.0f64, 0);
    let mut per_frame = Vec::new();
    let mut lowest = Vec::new();
    for step in 0..reference.steps {
        reference.kinematics(step, &mut kin);
        frames.clear();
        frames.extend(kin.iter().map(|k| frame(k.origin, k.rotation)));
        let c = world
            .detect(&frames, &colliders, &filter, eps)
            .expect("valid");
        for k in &c {
            let b = k.b.expect("a body");
            assert!(
                is_foot(b),
                "{} touches the ground at step {step}",
                model.bodies[b].name
            );
            max_pen = max_pen.max(k.depth);
        }
        touching_frames += usize::from(!c.is_empty());
        max_contacts = max_contacts.max(c.len());
        per_frame.push(c.len());
        // Lowest point of the foot capsules (analytic: the lower end's sphere).
        let low = colliders
            .iter()
            .filter_map(|col| match (col.body, col.shape) {
                (Some(b), Shape::Capsule { a, b: e, radius }) if is_foot(b) => {
                    Some((frames[b] * a).y.min((frames[b] * e).y) - radius)
                }
                _ => None,
            })
            .fold(f64::INFINITY, f64::min);
        lowest.push(low);
    }
    let windows: Vec<String> = lowest
        .chunks(60)
        .map(|w| format!("{:+.3}", w.iter().copied().fold(f64::INFINITY, f64::min)))
        .collect();
    println!("lowest foot point (m) per 0.5 s: {}", windows.join(" "));
    println!(
        "walk vs ground: {} steps of {:.4} s, {} bodies, {} capsules, ε = {eps} m",
        reference.steps,
        reference.h,
        model.bodies.len(),
        colliders.len() - 1
    );
    println!("foot contacts per step: {per_frame:?}");
    println!(
        "figure collision_walk_touching_steps {touching_frames}\nfigure collision_walk_max_contacts {max_contacts}\n\
         figure collision_walk_max_penetration_m {max_pen:.6}"
    );
    assert!(touching_frames > 0, "the feet never touch the ground");
}
