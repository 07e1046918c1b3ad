//! Whole-body sums of a free root's simulated bodies, shared by the balance plan and the protective fall.

use nalgebra::Vector3;

use crate::dynamics::Body;

/// Whole-body centre of mass and its velocity.
pub(super) fn centre_of_mass(bodies: &[Body]) -> (Vector3<f64>, Vector3<f64>) {
    let mass: f64 = bodies.iter().map(|b| b.mass).sum();
    let (mut c, mut v) = (Vector3::zeros(), Vector3::zeros());
    for b in bodies {
        c += b.position * b.mass;
        v += b.velocity.fixed_rows::<3>(3) * b.mass;
    }
    (c / mass, v / mass)
}

/// The horizontal part of `v` (y up).
pub(super) fn horizontal(v: Vector3<f64>) -> Vector3<f64> {
    Vector3::new(v.x, 0.0, v.z)
}
