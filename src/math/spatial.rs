//! Spatial algebra for the dynamics (Cline 2002 §2.4): cross-product matrices, twist displacements, the
//! quaternion-error derivative and the SO(3) left Jacobian.
//!
//! Conventions: twists are `(ω; v)` and wrenches `(τ; f)`, **angular first**, in world-aligned frames at each
//! body's centre of mass. A small *twist-coordinate displacement* `(δθ; δx)` moves a body by
//! `q ← exp(δθ)·q` (world-frame rotation vector, left multiplication) and `x ← x + δx`; every position
//! gradient in [`crate::dynamics`] is taken with respect to these coordinates.

use nalgebra::{Matrix3, Matrix6, UnitQuaternion, Vector3, Vector6};

/// The cross-product matrix `[v]` of Cline eq. 2.7: `[v]·x = v × x`.
pub fn cross_matrix(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0)
}

/// The angular part `ω` (rows 0–2) of a twist, or the torque of a wrench.
pub fn angular(t: &Vector6<f64>) -> Vector3<f64> {
    t.fixed_rows::<3>(0).into_owned()
}

/// The linear part `v` (rows 3–5) of a twist, or the force of a wrench.
pub fn linear(t: &Vector6<f64>) -> Vector3<f64> {
    t.fixed_rows::<3>(3).into_owned()
}

/// Builds a twist `(ω; v)` (or a wrench `(τ; f)`) from its angular and linear parts.
pub fn twist(angular: &Vector3<f64>, linear: &Vector3<f64>) -> Vector6<f64> {
    Vector6::new(
        angular.x, angular.y, angular.z, linear.x, linear.y, linear.z,
    )
}

/// Applies a twist-coordinate displacement `(δθ; δx)` to a pose: `q ← exp(δθ)·q` (renormalised),
/// `x ← x + δx`.
pub fn displace(x: &mut Vector3<f64>, q: &mut UnitQuaternion<f64>, d: &Vector6<f64>) {
    *q = crate::math::rotation::exp_rotation(&angular(d)) * *q;
    q.renormalize();
    *x += linear(d);
}

/// The spatial adjoint `Ad = [[R, 0], [[p]R, R]]` (Cline eq. 2.23, angular first) of the transform `(R, p)`:
/// it maps twists from the frame `(R, p)` into its parent frame.
pub fn adjoint(r: &Matrix3<f64>, p: &Vector3<f64>) -> Matrix6<f64> {
    let mut ad = Matrix6::zeros();
    ad.fixed_view_mut::<3, 3>(0, 0).copy_from(r);
    ad.fixed_view_mut::<3, 3>(3, 3).copy_from(r);
    ad.fixed_view_mut::<3, 3>(3, 0)
        .copy_from(&(cross_matrix(p) * r));
    ad
}

/// Derivative of `2·vec(exp(δφ)·q)` with respect to `δφ` at `δφ = 0`: `w·I − [v]` for `q = (v, w)`.
///
/// The hinge, fixed and prescribed constraints measure their rotational error as `2·vec(q_E)`; this is the exact
/// Jacobian of that measure under a left perturbation of `q_E`.
pub fn quat_vec_jacobian(q: &UnitQuaternion<f64>) -> Matrix3<f64> {
    let v = q.imag();
    Matrix3::identity() * q.w - cross_matrix(&v)
}

/// Inverse of the SO(3) left Jacobian at the rotation vector `phi`: `log(exp(δ)·exp(φ)) ≈ φ + J_l⁻¹(φ)·δ`.
pub fn left_jacobian_inverse(phi: &Vector3<f64>) -> Matrix3<f64> {
    let theta2 = phi.norm_squared();
    let k = cross_matrix(phi);
    // Series up to 1/8 rad: the closed form's coefficient loses digits to cancellation there (4 at 0.02 rad, all
    // at 1e-8 rad).
    let c = if theta2 <= JACOBIAN_SERIES_THETA2 {
        jacobian_series(theta2)
    } else {
        let theta = theta2.sqrt();
        1.0 / theta2 - (1.0 + theta.cos()) / (2.0 * theta * theta.sin())
    };
    left_jacobian_inverse_with(&k, c)
}

/// Up to this `θ²` (θ ≤ 1/8 rad) the inverse left Jacobian's coefficient is taken from its series.
pub(crate) const JACOBIAN_SERIES_THETA2: f64 = 1.0 / 64.0;

/// The coefficient `1/θ² − (1 + cos θ)/(2θ sin θ)` of [`left_jacobian_inverse`] by its series to `θ⁸`, from `θ²`:
/// relative error below 1e-17 for `θ ≤ 1/8`, where the closed form loses four digits to cancellation.
#[inline]
pub(crate) fn jacobian_series(t2: f64) -> f64 {
    1.0 / 12.0
        + t2 * (1.0 / 720.0 + t2 * (1.0 / 30240.0 + t2 * (1.0 / 1_209_600.0 + t2 / 47_900_160.0)))
}

/// `J_l⁻¹ = I − ½K + c·K²` from `K = [φ]` and the coefficient `c(θ)`.
pub(crate) fn left_jacobian_inverse_with(k: &Matrix3<f64>, c: f64) -> Matrix3<f64> {
    Matrix3::identity() - 0.5 * k + crate::math::small::mul(&(c * k), k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rotation::log_rotation;

    #[test]
    fn cross_matrix_is_cross_product() {
        let a = Vector3::new(0.3, -1.2, 2.0);
        let b = Vector3::new(-0.7, 0.4, 1.1);
        assert!((cross_matrix(&a) * b - a.cross(&b)).norm() < 1e-15);
    }

    #[test]
    fn left_jacobian_inverse_matches_finite_differences() {
        for phi in [
            Vector3::new(0.3, -0.8, 0.5),
            Vector3::new(1e-6, 2e-6, -1e-6),
            Vector3::new(2.5, 0.1, -0.4),
        ] {
            let q = UnitQuaternion::from_scaled_axis(phi);
            let jinv = left_jacobian_inverse(&phi);
            let eps = 1e-6;
            for k in 0..3 {
                let mut d = Vector3::zeros();
                d[k] = eps;
                let p = log_rotation(&(UnitQuaternion::from_scaled_axis(d) * q));
                let m = log_rotation(&(UnitQuaternion::from_scaled_axis(-d) * q));
                let fd = (p - m) / (2.0 * eps);
                assert!(
                    (fd - jinv.column(k)).norm() < 1e-8,
                    "column {k}: {fd} vs {}",
                    jinv.column(k)
                );
            }
        }
    }

    #[test]
    fn quat_vec_jacobian_matches_finite_differences() {
        let q = UnitQuaternion::from_scaled_axis(Vector3::new(0.4, 1.9, -0.6));
        let jac = quat_vec_jacobian(&q);
        let eps = 1e-6;
        for k in 0..3 {
            let mut d = Vector3::zeros();
            d[k] = eps;
            let p = 2.0 * (UnitQuaternion::from_scaled_axis(d) * q).imag();
            let m = 2.0 * (UnitQuaternion::from_scaled_axis(-d) * q).imag();
            assert!(((p - m) / (2.0 * eps) - jac.column(k)).norm() < 1e-9);
        }
    }

    #[test]
    fn adjoint_moves_a_twist_to_another_point() {
        // A pure rotation about the origin seen from a frame at p: linear velocity of the origin point is p × ω.
        let w = Vector3::new(0.0, 0.0, 2.0);
        let p = Vector3::new(1.0, 0.0, 0.0);
        let t = adjoint(&Matrix3::identity(), &p) * twist(&w, &Vector3::zeros());
        assert!((linear(&t) - p.cross(&w)).norm() < 1e-15);
    }
}
