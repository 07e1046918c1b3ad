//! Reading a reference at any time: the sample grid position, interpolated quantities, the root path.

use nalgebra::{UnitQuaternion, Vector3};

use super::reference::ReferenceMotion;

/// Where a time falls on the reference grid: sample `k` and fraction `s` towards `k + 1` (clamped to the clip).
pub(super) fn locate(reference: &ReferenceMotion, t: f64) -> (usize, f64) {
    let u = (t / reference.h).max(0.0);
    let last = reference.steps - 1;
    let r = u.round();
    if (u - r).abs() < 1e-6 {
        return ((r as usize).min(last), 0.0);
    }
    let k = u.floor() as usize;
    if k >= last {
        (last, 0.0)
    } else {
        (k, u - k as f64)
    }
}

/// The root body's CoM pose on the reference at time `t` (interpolated between samples).
pub(super) fn root_pose(
    reference: &ReferenceMotion,
    t: f64,
) -> (Vector3<f64>, UnitQuaternion<f64>) {
    let at = |k: usize| {
        let q = reference.rotation(k, 0);
        (reference.root_pos[k] + q * reference.topology.com[0], q)
    };
    let (k, s) = locate(reference, t);
    let (x0, q0) = at(k);
    if s == 0.0 {
        return (x0, q0);
    }
    let (x1, q1) = at(k + 1);
    (x0.lerp(&x1, s), q0.slerp(&q1, s))
}

/// A per-sample quantity interpolated linearly at `(k, s)`.
pub(super) fn lerp_sample(
    reference: &ReferenceMotion,
    k: usize,
    s: f64,
    f: impl Fn(usize) -> Vector3<f64>,
) -> Vector3<f64> {
    if s == 0.0 || k + 1 >= reference.steps {
        f(k)
    } else {
        f(k).lerp(&f(k + 1), s)
    }
}
