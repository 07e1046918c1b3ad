//! Where a stance puts its foot: the sole's samples, the shift off a step's edge, the tilt onto a slope, the raise.

use nalgebra::{UnitQuaternion, Vector3};

use super::*;

/// Points spread over a sole: each heel point and the toe point on its side (the pairs' order), and two between
/// them, so that a step's edge under the foot never looks like a plane (two pairs at two heights always fit one).
pub(super) fn sole_samples(points: &[Vector3<f64>]) -> Vec<Vector3<f64>> {
    let half = points.len() / 2;
    if half == 0 || points.len() != 2 * half {
        return points.to_vec();
    }
    let (heel, toe) = points.split_at(half);
    let mut out = Vec::with_capacity(4 * half);
    for (h, t) in heel.iter().zip(toe) {
        for s in [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0] {
            out.push(h.lerp(t, s));
        }
    }
    out
}

/// Where a stance's foot goes, from points over its sole on the flat floor ([`sole_samples`]), which of its ends
/// (heel, toe) carries the stance there, and the relief under a point. A foot across a step's edge is moved along
/// its length by the least distance (at most `MAX_SHIFT_M`) that puts it on one level: its whole sole and
/// `EDGE_MARGIN_M` past heel and toe within `FLAT_SPREAD_M` (a foot on a nosing rolls off it), or else its
/// carrying end and the margin past it on the highest ground under the sole (the ball of a foot on a step, its
/// heel over the step below), with the margin halved then dropped when a tread is too shallow for it. A foot on
/// ground that is a plane (a slope: the points' reliefs within `PLANE_FIT_M` of their best plane) is tilted onto
/// it, up to `MAX_TILT_DEG`. The raise puts the sole on that ground; without a plane, on the highest ground under
/// its points.
pub(super) fn place_stance(
    points: &[Vector3<f64>],
    ends: [bool; 2],
    ankle: &Vector3<f64>,
    relief: &dyn Fn(&Vector3<f64>) -> f64,
) -> Held {
    // Heel to toe: the samples run from heel to toe on each side (`sole_samples`), heel end first.
    let per_side = points.len().min(4);
    let along = {
        let d = points[per_side - 1] - points[0];
        Vector3::new(d.x, 0.0, d.z)
            .try_normalize(1e-9)
            .unwrap_or_else(Vector3::z)
    };
    let reliefs = |shift: &Vector3<f64>| -> Vec<f64> {
        points.iter().map(|p| relief(&(p + shift))).collect()
    };
    let max = |r: &[f64]| r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = |r: &[f64]| r.iter().copied().fold(f64::INFINITY, f64::min);
    let spread = |r: &[f64]| max(r) - min(r);
    // The reliefs past the heel and the toe (a foot rolls over its stance: a toe right at an edge goes over it).
    let past = |shift: &Vector3<f64>, margin: f64| {
        [
            relief(&(points[0] - along * margin + shift)),
            relief(&(points[points.len() - 1] + along * margin + shift)),
        ]
    };
    // The whole sole on one level.
    let level = |shift: &Vector3<f64>, margin: f64| {
        let mut r = reliefs(shift);
        r.extend(past(shift, margin));
        spread(&r) <= FLAT_SPREAD_M
    };
    // The carrying end on the highest ground under the sole.
    let carried = |shift: &Vector3<f64>, margin: f64| {
        let r = reliefs(shift);
        let beyond = past(shift, margin);
        let carrying = |j: usize| {
            let heel_end = j % per_side < per_side.div_ceil(2);
            if heel_end { ends[0] } else { ends[1] }
        };
        let mut on: Vec<f64> = (0..r.len())
            .filter(|&j| carrying(j))
            .map(|j| r[j])
            .collect();
        on.extend((0..2).filter(|&e| ends[e]).map(|e| beyond[e]));
        !on.is_empty()
            && spread(&on) <= FLAT_SPREAD_M
            && max(&r).max(max(&beyond)) <= min(&on) + FLAT_SPREAD_M
    };
    let mut shift = Vector3::zeros();
    let mut used_margin = EDGE_MARGIN_M;
    let r0 = reliefs(&shift);
    if !level(&shift, EDGE_MARGIN_M) && plane_fit(points, &r0).is_none() {
        let tries = (MAX_SHIFT_M / SHIFT_STEP_M).round() as usize;
        let tests: [(f64, bool); 3] = [
            (EDGE_MARGIN_M, true),
            (0.5 * EDGE_MARGIN_M, false),
            (0.0, false),
        ];
        'search: for (margin, whole) in tests {
            for j in 0..=tries {
                for sign in [1.0, -1.0] {
                    let s = along * (sign * j as f64 * SHIFT_STEP_M);
                    if (whole && level(&s, margin)) || carried(&s, margin) {
                        shift = s;
                        used_margin = margin;
                        break 'search;
                    }
                }
            }
        }
    }
    let r = reliefs(&shift);
    let moved: Vec<Vector3<f64>> = points.iter().map(|p| p + shift).collect();
    let tilt = plane_fit(&moved, &r)
        .filter(|_| spread(&r) > FLAT_SPREAD_M)
        .and_then(|normal| UnitQuaternion::rotation_between(&Vector3::y(), &normal))
        .filter(|tilt| tilt.angle() <= MAX_TILT_DEG.to_radians())
        .unwrap_or_else(UnitQuaternion::identity);
    // The raise that puts every sole point, tilted about the ankle, at least as high above the ground under it
    // as it was above the flat floor (on one level, untilted: the highest relief under the sole).
    let raise = points
        .iter()
        .map(|p| {
            let arm = p - ankle;
            let turned = ankle + shift + tilt * arm;
            relief(&turned) - (turned.y - (ankle.y + shift.y + arm.y))
        })
        .fold(f64::NEG_INFINITY, f64::max);
    // What the foot stands on: its sole and the margins its placement kept clear.
    let mut under = reliefs(&shift);
    under.extend(past(&shift, used_margin));
    Held {
        a: 0,
        b: 0,
        raise,
        shift,
        tilt,
        top: max(&under),
        pivot: *ankle,
    }
}

/// The unit up normal of the least-squares plane `y = a·x + b·z + c` through `(p.x, r, p.z)`, when every point is
/// within `PLANE_FIT_M` of it (`None` for fewer than three points or a plane that does not fit: a step's edge).
pub(super) fn plane_fit(points: &[Vector3<f64>], r: &[f64]) -> Option<Vector3<f64>> {
    if points.len() < 3 {
        return None;
    }
    let mut m = nalgebra::Matrix3::zeros();
    let mut v = Vector3::zeros();
    for (p, y) in points.iter().zip(r) {
        let row = Vector3::new(p.x, p.z, 1.0);
        m += row * row.transpose();
        v += row * *y;
    }
    let c = m.try_inverse()? * v;
    let fits = points
        .iter()
        .zip(r)
        .all(|(p, y)| (c.x * p.x + c.y * p.z + c.z - y).abs() <= PLANE_FIT_M);
    fits.then(|| Vector3::new(-c.x, 1.0, -c.y).normalize())
}
