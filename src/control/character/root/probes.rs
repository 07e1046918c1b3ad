//! The points of a free-root character that can touch the ground: the sole points of the ground reference (the
//! feet stand on them) and the end spheres of every other body's capsules (a fallen body lies on them). Each step
//! the probes near the floor become static contacts of the step's LCP (Cline §§2.6–2.7).

use nalgebra::Vector3;

use crate::control::ground::GroundReference;
use crate::control::kinematics::Topology;
use crate::dynamics::{Body, ContactOther, ContactPoint};
use crate::level::{ColliderKey, Level, ProbeMemory};
use crate::model::Model;

/// Probes closer to the floor than this become contacts (m): the LCP lets them close the gap within the step
/// (speculative contacts), so a foot landing at 1 m/s at 120 Hz is caught.
const CONTACT_MARGIN_M: f64 = 0.02;

/// A sphere fixed in a body (radius 0 for a sole point).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Probe {
    pub body: usize,
    /// Centre relative to the body's centre of mass, body frame (m).
    pub local: Vector3<f64>,
    pub radius: f64,
    /// A sole point (part of the support polygon).
    pub sole: bool,
}

/// A surface whose normal has at least this upward component is ground (a wall or a table's side is not).
const GROUND_NORMAL_Y: f64 = 0.7;

impl Probe {
    /// The sphere's centre (world).
    pub(super) fn centre(&self, bodies: &[Body]) -> Vector3<f64> {
        let b = &bodies[self.body];
        b.position + b.orientation * self.local
    }

    /// The sphere's lowest point (world).
    fn lowest(&self, bodies: &[Body]) -> Vector3<f64> {
        let b = &bodies[self.body];
        b.position + b.orientation * self.local - Vector3::y() * self.radius
    }
}

/// The probes of a character: sole points first, then the capsule ends of the bodies without sole points.
pub(super) fn probes(model: &Model, topology: &Topology, ground: &GroundReference) -> Vec<Probe> {
    let mut out: Vec<Probe> = ground
        .points
        .iter()
        .map(|p| Probe {
            body: p.body,
            local: p.local - topology.com[p.body],
            radius: 0.0,
            sole: true,
        })
        .collect();
    for (b, body) in model.bodies.iter().enumerate() {
        if !body.collides || ground.points.iter().any(|p| p.body == b) {
            continue;
        }
        for c in &body.capsules {
            for end in [c.a.coords, c.b.coords] {
                out.push(Probe {
                    body: b,
                    local: end - topology.com[b],
                    radius: c.radius,
                    sole: false,
                });
            }
        }
    }
    out
}

/// Appends the ground contacts of the probes near the floor to `out`; returns whether a non-sole probe is among
/// them.
pub(super) fn ground_contacts(
    probes: &[Probe],
    bodies: &[Body],
    floor: f64,
    friction: f64,
    out: &mut Vec<ContactPoint>,
) -> bool {
    let mut body_touch = false;
    for p in probes {
        let point = p.lowest(bodies);
        if point.y - floor < CONTACT_MARGIN_M {
            body_touch |= !p.sole;
            out.push(ContactPoint {
                body: p.body,
                other: ContactOther::Static,
                point,
                other_point: Vector3::new(point.x, floor, point.z),
                normal: Vector3::y(),
                friction,
                restitution: 0.0,
            });
        }
    }
    body_touch
}

/// Appends the contacts of the probes with a level's colliders within the contact margin (each probe against
/// each collider near it: the flat floor's contact generalised, the same points on a level's horizontal floor;
/// with `kinematic_only`, its kinematic colliders alone); returns whether a non-sole probe rests on an
/// upward-facing surface (a body on the ground).
pub(super) fn level_contacts(
    probes: &[Probe],
    bodies: &[Body],
    level: &Level,
    (layers, kinematic_only): ((u32, u32), bool),
    friction: f64,
    h: f64,
    ProbeOutputs {
        contacts: out,
        kinematic,
        starts,
        memories,
    }: ProbeOutputs<'_>,
) -> bool {
    let mut body_touch = false;
    starts.clear();
    for (p, memory) in probes.iter().zip(memories.iter_mut()) {
        let centre = p.centre(bodies);
        // Speculative: a probe moving more than the margin in a step is met that much further out, so a fast
        // fall cannot pass through a thin collider (the LCP lets the step close the gap, no more).
        let speed = bodies[p.body].point_velocity(&centre).norm();
        let margin = CONTACT_MARGIN_M + speed * h;
        let before = out.len();
        level.probe_remembering(&centre, p.radius, margin, h, layers, Some(memory), |t| {
            if kinematic_only && !t.kinematic {
                return;
            }
            body_touch |= !p.sole && t.normal.y > GROUND_NORMAL_Y;
            if t.kinematic {
                kinematic.push((out.len(), t.collider));
            }
            out.push(t.contact_point(p.body, friction));
        });
        starts.push(ProbeStart {
            centre,
            margin,
            touched: out.len() > before,
        });
    }
    body_touch
}

/// What [`level_contacts`] appends to: the contacts, which of them touch kinematic colliders (index, collider),
/// and every probe's start (cleared first); and each probe's memory of the level near it (one per probe).
pub(super) struct ProbeOutputs<'a> {
    pub contacts: &'a mut Vec<ContactPoint>,
    pub kinematic: &'a mut Vec<(usize, ColliderKey)>,
    pub starts: &'a mut Vec<ProbeStart>,
    pub memories: &'a mut [ProbeMemory],
}

/// Where a probe was at the start of a step, with its contact margin and whether it touched the level.
#[derive(Debug, Clone, Copy)]
pub(super) struct ProbeStart {
    centre: Vector3<f64>,
    margin: f64,
    touched: bool,
}

/// The deepest probe inside a level's colliders after a step (m, ≥ 0). Only probes that can be inside are
/// measured: those that touched the level at the step's start, or moved farther than their contact margin in the
/// step (a probe farther than its margin from every collider, moving less, cannot have reached one).
pub(super) fn level_penetration(
    probes: &[Probe],
    bodies: &[Body],
    level: &Level,
    layers: (u32, u32),
    starts: &[ProbeStart],
    memories: &mut [ProbeMemory],
) -> f64 {
    probes
        .iter()
        .zip(starts)
        .zip(memories)
        .filter_map(|((p, s), memory)| {
            let centre = p.centre(bodies);
            (s.touched || (centre - s.centre).norm() > s.margin)
                .then(|| level.probe_depth_remembering(&centre, p.radius, layers, Some(memory)))
        })
        .fold(0.0, f64::max)
}

/// The deepest probe below the floor (m, ≥ 0).
pub(super) fn penetration(probes: &[Probe], bodies: &[Body], floor: f64) -> f64 {
    probes
        .iter()
        .map(|p| floor - p.lowest(bodies).y)
        .fold(0.0, f64::max)
}

/// How far (m) the point `c` (x, z) lies outside the convex hull of the sole points within `height` of the floor;
/// `None` when no sole point is that low (in flight).
pub(super) fn outside_support(
    probes: &[Probe],
    bodies: &[Body],
    floor: impl Fn(usize) -> f64,
    height: f64,
    c: [f64; 2],
) -> Option<f64> {
    let mut pts = [[0.0; 2]; 16];
    let mut n = 0;
    for (i, p) in probes.iter().enumerate().filter(|(_, p)| p.sole) {
        let w = p.lowest(bodies);
        if w.y - floor(i) < height && n < pts.len() {
            pts[n] = [w.x, w.z];
            n += 1;
        }
    }
    (n > 0).then(|| distance_outside_hull(&mut pts[..n], c))
}

/// Distance from `c` to the convex hull of `pts` (0 inside). Monotone-chain hull; `pts` is reordered.
fn distance_outside_hull(pts: &mut [[f64; 2]], c: [f64; 2]) -> f64 {
    pts.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut hull = [[0.0; 2]; 34];
    let mut k = 0;
    for &p in pts.iter() {
        while k >= 2 && cross(hull[k - 2], hull[k - 1], p) <= 0.0 {
            k -= 1;
        }
        hull[k] = p;
        k += 1;
    }
    let lower = k + 1;
    for &p in pts.iter().rev().skip(1) {
        while k >= lower && cross(hull[k - 2], hull[k - 1], p) <= 0.0 {
            k -= 1;
        }
        hull[k] = p;
        k += 1;
    }
    k -= 1;
    let hull = &hull[..k.max(1)];
    let seg_dist = |a: [f64; 2], b: [f64; 2]| {
        let (dx, dz) = (b[0] - a[0], b[1] - a[1]);
        let len2 = dx * dx + dz * dz;
        let s = if len2 > 0.0 {
            (((c[0] - a[0]) * dx + (c[1] - a[1]) * dz) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        ((c[0] - a[0] - s * dx).powi(2) + (c[1] - a[1] - s * dz).powi(2)).sqrt()
    };
    if hull.len() < 3 {
        return seg_dist(hull[0], hull[hull.len() - 1]);
    }
    let inside = (0..hull.len()).all(|i| cross(hull[i], hull[(i + 1) % hull.len()], c) >= 0.0);
    if inside {
        return 0.0;
    }
    (0..hull.len())
        .map(|i| seg_dist(hull[i], hull[(i + 1) % hull.len()]))
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::distance_outside_hull;

    #[test]
    fn hull_distance() {
        let mut square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.5, 0.5]];
        assert_eq!(distance_outside_hull(&mut square, [0.5, 0.5]), 0.0);
        assert!((distance_outside_hull(&mut square, [2.0, 0.5]) - 1.0).abs() < 1e-12);
        assert!((distance_outside_hull(&mut square, [-3.0, -4.0]) - 5.0).abs() < 1e-12);
        let mut line = [[0.0, 0.0], [2.0, 0.0]];
        assert!((distance_outside_hull(&mut line, [1.0, 0.3]) - 0.3).abs() < 1e-12);
        let mut point = [[1.0, 1.0]];
        assert!((distance_outside_hull(&mut point, [1.0, 2.0]) - 1.0).abs() < 1e-12);
    }
}
