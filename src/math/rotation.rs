//! Rotations: Euler angles in any of the six axis orders, quaternion exp/log, hemisphere continuity.
//!
//! Convention (BVH, see `docs/conventions.md`): the rotation of an Euler triple is the product of the elementary
//! rotations **in the order the axes are listed**, `ZXY` → `R = Rz(a)·Rx(b)·Ry(c)`. Angles are in radians here;
//! formats convert degrees at their boundary.

use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};

use crate::math::spatial::{
    JACOBIAN_SERIES_THETA2, cross_matrix, jacobian_series, left_jacobian_inverse_with,
};

/// A coordinate axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Axis {
    /// The x axis.
    X,
    /// The y axis.
    Y,
    /// The z axis.
    Z,
}

impl Axis {
    /// Index 0, 1, 2 of the axis.
    pub fn index(self) -> usize {
        match self {
            Axis::X => 0,
            Axis::Y => 1,
            Axis::Z => 2,
        }
    }

    /// The unit vector along the axis.
    pub fn unit(self) -> Vector3<f64> {
        let mut v = Vector3::zeros();
        v[self.index()] = 1.0;
        v
    }

    /// Upper-case letter of the axis.
    pub fn letter(self) -> char {
        match self {
            Axis::X => 'X',
            Axis::Y => 'Y',
            Axis::Z => 'Z',
        }
    }
}

/// One of the six Tait–Bryan orders; the rotation is the product in the listed order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EulerOrder(pub [Axis; 3]);

impl EulerOrder {
    /// `Xrotation Yrotation Zrotation`: R = Rx·Ry·Rz.
    pub const XYZ: EulerOrder = EulerOrder([Axis::X, Axis::Y, Axis::Z]);
    /// R = Rx·Rz·Ry.
    pub const XZY: EulerOrder = EulerOrder([Axis::X, Axis::Z, Axis::Y]);
    /// R = Ry·Rx·Rz.
    pub const YXZ: EulerOrder = EulerOrder([Axis::Y, Axis::X, Axis::Z]);
    /// R = Ry·Rz·Rx.
    pub const YZX: EulerOrder = EulerOrder([Axis::Y, Axis::Z, Axis::X]);
    /// R = Rz·Rx·Ry.
    pub const ZXY: EulerOrder = EulerOrder([Axis::Z, Axis::X, Axis::Y]);
    /// R = Rz·Ry·Rx.
    pub const ZYX: EulerOrder = EulerOrder([Axis::Z, Axis::Y, Axis::X]);
    /// All six orders.
    pub const ALL: [EulerOrder; 6] = [
        Self::XYZ,
        Self::XZY,
        Self::YXZ,
        Self::YZX,
        Self::ZXY,
        Self::ZYX,
    ];

    /// Builds an order from three axes; `None` unless they are a permutation of X, Y, Z.
    pub fn from_axes(axes: [Axis; 3]) -> Option<EulerOrder> {
        let distinct = axes[0] != axes[1] && axes[1] != axes[2] && axes[0] != axes[2];
        distinct.then_some(EulerOrder(axes))
    }

    /// The order as three letters, e.g. `"ZYX"`.
    pub fn name(self) -> String {
        self.0.iter().map(|a| a.letter()).collect()
    }

    /// Quaternion of the angles (radians), given in the same order as the axes.
    pub fn to_quaternion(self, angles: [f64; 3]) -> UnitQuaternion<f64> {
        let [a, b, c] = self.0;
        axis_rotation(a, angles[0]) * axis_rotation(b, angles[1]) * axis_rotation(c, angles[2])
    }

    /// Angles (radians, in axis order) of a rotation: the inverse of [`EulerOrder::to_quaternion`].
    ///
    /// The middle angle lies in [−π/2, π/2]; at gimbal lock the first angle takes the whole rotation about the
    /// shared axis. Use [`EulerOrder::to_angles_near`] to keep a sequence continuous.
    pub fn to_angles(self, q: &UnitQuaternion<f64>) -> [f64; 3] {
        let m = q.to_rotation_matrix();
        let m = m.matrix();
        let [a, b, c] = self.0.map(Axis::index);
        // Parity of the permutation (a, b, c): +1 for cyclic (XYZ, YZX, ZXY), −1 otherwise.
        let sign = if (b + 3 - a) % 3 == 1 { 1.0 } else { -1.0 };
        let s2 = (sign * m[(a, c)]).clamp(-1.0, 1.0);
        let second = s2.asin();
        if s2.abs() < 1.0 - 1e-12 {
            let first = (-sign * m[(b, c)]).atan2(m[(c, c)]);
            let third = (-sign * m[(a, b)]).atan2(m[(a, a)]);
            [first, second, third]
        } else {
            // Gimbal lock: first and third axes align; put everything in the first angle.
            let first = (sign * m[(c, b)]).atan2(m[(b, b)]);
            [first, second, 0.0]
        }
    }

    /// Angles of `q` chosen among the equivalent solutions (both branches, ±2π wraps) to be nearest to `prev`,
    /// so that a sequence of rotations gives continuous channel curves.
    pub fn to_angles_near(self, q: &UnitQuaternion<f64>, prev: [f64; 3]) -> [f64; 3] {
        let [x, y, z] = self.to_angles(q);
        let pi = std::f64::consts::PI;
        let alt = [x + pi, pi - y, z + pi];
        let mut best = [x, y, z];
        let mut best_d = f64::INFINITY;
        for cand in [[x, y, z], alt] {
            let mut wrapped = [0.0; 3];
            for i in 0..3 {
                wrapped[i] = cand[i] + (2.0 * pi) * ((prev[i] - cand[i]) / (2.0 * pi)).round();
            }
            let d: f64 = (0..3).map(|i| (wrapped[i] - prev[i]).powi(2)).sum();
            if d < best_d {
                best_d = d;
                best = wrapped;
            }
        }
        best
    }
}

/// Rotation by `angle` radians about a coordinate axis.
pub fn axis_rotation(axis: Axis, angle: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_unchecked(axis.unit()), angle)
}

/// Half angles `θ/2` with `(θ/2)² ≤` this (θ ≤ 1/8 rad ≈ 7.2°) take the series paths of [`exp_rotation`] and
/// [`log_rotation`]: a step's rotation (`h·ω`) and a drive's error are nearly always that small, and the series
/// need neither `sin`/`cos`, `atan2` nor a square root. Each series stops where its next term is below 1e-17 of
/// the sum at this bound (docs/dynamics.md, "Small rotations").
const SERIES_HALF_ANGLE2: f64 = 1.0 / 256.0;

/// `sin(a)/a` and `cos(a)` from `a²` (`a² ≤ SERIES_HALF_ANGLE2`) by their Taylor series in Horner form.
#[inline]
fn sinc_cos_series(a2: f64) -> (f64, f64) {
    let sinc = 1.0 - a2 / 6.0 * (1.0 - a2 / 20.0 * (1.0 - a2 / 42.0 * (1.0 - a2 / 72.0)));
    let cos = 1.0 - a2 / 2.0 * (1.0 - a2 / 12.0 * (1.0 - a2 / 30.0 * (1.0 - a2 / 56.0)));
    (sinc, cos)
}

/// `atan(x)/x` from `x²` (`x² ≤ SERIES_HALF_ANGLE2`) by its Taylor series `Σ (−x²)ᵏ/(2k+1)`, k ≤ 6.
#[inline]
fn atan_over_x_series(x2: f64) -> f64 {
    1.0 - x2
        * (1.0 / 3.0
            - x2 * (1.0 / 5.0
                - x2 * (1.0 / 7.0 - x2 * (1.0 / 9.0 - x2 * (1.0 / 11.0 - x2 / 13.0)))))
}

/// Quaternion exponential of a rotation vector: the rotation by |v| radians about v/|v|; the identity when
/// |v| ≤ machine epsilon (as nalgebra's `from_scaled_axis`).
pub fn exp_rotation(v: &Vector3<f64>) -> UnitQuaternion<f64> {
    let v2 = v.norm_squared();
    if v2 <= f64::EPSILON * f64::EPSILON {
        // Like nalgebra's `from_scaled_axis`, a rotation below machine epsilon is none at all: a resting body's
        // round-off angular velocity (≈ 1e-17 rad/s) must not turn it (the 5-box stack's symmetric contact LCPs
        // then stay solvable by Lemke; with these tiny turns, it fell back to PGS in 126 of 600 steps).
        return UnitQuaternion::identity();
    }
    let a2 = 0.25 * v2;
    if a2 <= SERIES_HALF_ANGLE2 {
        // q = (cos a, v·sin(a)/(2a)) with a = |v|/2: no square root, no trigonometry.
        let (sinc, cos) = sinc_cos_series(a2);
        let s = 0.5 * sinc;
        UnitQuaternion::new_unchecked(Quaternion::new(cos, v.x * s, v.y * s, v.z * s))
    } else {
        UnitQuaternion::from_scaled_axis(*v)
    }
}

/// The log of the unit quaternion `(w, v)` with `w ≥ 0`: the factor `k` with `log = k·v`, and the angle `θ²`.
#[inline]
fn log_factor(w: f64, v: &Vector3<f64>) -> (f64, f64) {
    let v2 = v.norm_squared();
    if v2 <= SERIES_HALF_ANGLE2 * (w * w) {
        // θ/2 = atan(x), x = |v|/w: k = 2·atan(x)/|v| = (2/w)·atan(x)/x, all from x² (no square root).
        let inv_w = 1.0 / w;
        let k = 2.0 * inv_w * atan_over_x_series(v2 * inv_w * inv_w);
        (k, k * k * v2)
    } else {
        // `2·atan2(|v|, w)·v/|v|` is accurate at every angle (no acos near 0 or π).
        let n = v2.sqrt();
        let theta = 2.0 * n.atan2(w);
        (theta / n, theta * theta)
    }
}

/// Rotation vector (axis × angle, angle in [0, π]) of a unit quaternion; the inverse of [`exp_rotation`].
pub fn log_rotation(q: &UnitQuaternion<f64>) -> Vector3<f64> {
    let (w, v) = short_way(q);
    v * log_factor(w, &v).0
}

/// `(w, v)` of `q` or `−q`, whichever has `w ≥ 0`: the same rotation, taken the short way round.
#[inline]
fn short_way(q: &UnitQuaternion<f64>) -> (f64, Vector3<f64>) {
    if q.w < 0.0 {
        (-q.w, -q.imag())
    } else {
        (q.w, q.imag())
    }
}

/// [`log_rotation`] of `q` (the same vector, bit for bit) and [`left_jacobian_inverse`] at it, the Jacobian's
/// coefficient without trigonometry: its series for small angles (from the log's `θ²`), and above them the log's
/// half angle `θ/2 = atan2(|v|, w)` gives `cot(θ/2) = w/|v|`, so `(1 + cos θ)/(2θ sin θ) = cot(θ/2)/(2θ) =
/// w/(2|v|θ)`. Equal to the separate calls up to round-off; a joint drive needs both every step, and the sine and
/// cosine were most of the Jacobian's cost.
///
/// [`left_jacobian_inverse`]: crate::math::spatial::left_jacobian_inverse
#[inline(always)]
pub fn log_rotation_with_jacobian_inverse(q: &UnitQuaternion<f64>) -> (Vector3<f64>, Matrix3<f64>) {
    let (phi, c) = log_rotation_with_jacobian_coefficient(q);
    (phi, left_jacobian_inverse_with(&cross_matrix(&phi), c))
}

/// [`log_rotation_with_jacobian_inverse`] as the log `φ` (the same bits) and the coefficient `c` of the Jacobian's
/// inverse `J_l⁻¹(φ) = I − ½[φ]× + c[φ]×²`, for a caller that only applies it to a vector
/// ([`apply_left_jacobian_inverse`]: a few cross products instead of the 3×3 matrix).
#[inline(always)]
pub(crate) fn log_rotation_with_jacobian_coefficient(
    q: &UnitQuaternion<f64>,
) -> (Vector3<f64>, f64) {
    let (w, v) = short_way(q);
    let (k, theta2) = log_factor(w, &v);
    let phi = v * k;
    let c = if theta2 <= JACOBIAN_SERIES_THETA2 {
        jacobian_series(theta2)
    } else {
        let n = v.norm();
        let theta = theta2.sqrt();
        1.0 / theta2 - w / (2.0 * n * theta)
    };
    (phi, c)
}

/// `J_l⁻¹(φ)·x = x − ½ φ × x + c·φ × (φ × x)`, `c` from [`log_rotation_with_jacobian_coefficient`].
#[inline(always)]
pub(crate) fn apply_left_jacobian_inverse(
    phi: &Vector3<f64>,
    c: f64,
    x: &Vector3<f64>,
) -> Vector3<f64> {
    let px = phi.cross(x);
    x - px * 0.5 + phi.cross(&px) * c
}

/// `q` or `−q`, whichever lies in the same hemisphere as `reference` (dot product ≥ 0).
pub fn same_hemisphere(
    q: UnitQuaternion<f64>,
    reference: &UnitQuaternion<f64>,
) -> UnitQuaternion<f64> {
    if q.coords.dot(&reference.coords) < 0.0 {
        UnitQuaternion::new_unchecked(-q.into_inner())
    } else {
        q
    }
}

/// Angle in radians between two rotations (0 … π), insensitive to the quaternion sign.
pub fn rotation_distance(a: &UnitQuaternion<f64>, b: &UnitQuaternion<f64>) -> f64 {
    // atan2 of the relative rotation keeps full precision for tiny angles, where acos(dot) loses half the digits.
    let d = a.inverse() * b;
    2.0 * d.imag().norm().atan2(d.w.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_with_jacobian_inverse_matches_the_separate_calls() {
        use crate::math::spatial::left_jacobian_inverse;
        // Near π the separate call's `1 + cos θ` keeps only the digits above its cancellation (≈ 4e-4 relative at
        // π − 1e-6, in entries of size 1e-6), while the half angle's `w` is exact: there the two agree only to that.
        let near_pi = std::f64::consts::PI - 1e-6;
        for (axis, angle, tol) in [
            (Vector3::new(0.3, -0.8, 0.5), 0.7, 1e-12),
            (Vector3::new(1.0, 2.0, -1.0), 3e-10, 1e-12),
            (Vector3::new(1.0, 2.0, -1.0), 5e-5, 1e-12),
            (Vector3::new(-0.2, 0.1, 0.9), 2.0, 1e-12),
            (Vector3::new(0.5, 0.5, 0.1), -2.5, 1e-12),
            (Vector3::new(0.0, 1.0, 0.0), near_pi, 1e-9),
        ] {
            let q = UnitQuaternion::from_scaled_axis(axis.normalize() * angle);
            let (phi, jinv) = log_rotation_with_jacobian_inverse(&q);
            assert_eq!(phi, log_rotation(&q));
            let expected = left_jacobian_inverse(&phi);
            assert!(
                (jinv - expected).norm() <= tol * expected.norm(),
                "angle {angle}: {jinv} vs {expected}"
            );
        }
        // At π − 1e-6 about y, the x diagonal entry is 1 − c·θ² = θ·w/(2|v|) (c's closed form) ≈ 7.853982e-7.
        let q = UnitQuaternion::from_scaled_axis(Vector3::y() * near_pi);
        let (_, jinv) = log_rotation_with_jacobian_inverse(&q);
        let exact = near_pi * (1e-6f64 / 2.0).sin() / (2.0 * (1e-6f64 / 2.0).cos());
        assert!(
            (jinv[(0, 0)] - exact).abs() <= 1e-9 * exact,
            "{}",
            jinv[(0, 0)]
        );
    }

    #[test]
    fn small_rotation_series_match_the_closed_forms() {
        // Angles either side of the series bound (θ = 1/8 for exp, θ ≈ 0.12468 for log) and far below it.
        for angle in [
            1e-12, 1e-6, 1e-3, 0.02, 0.1, 0.1246, 0.1247, 0.1249, 0.1251, 0.3, 2.0,
        ] {
            for axis in [
                Vector3::new(0.3, -0.8, 0.5),
                Vector3::new(1.0, 0.0, 0.0),
                Vector3::new(-0.2, 0.1, 0.9),
            ] {
                let v = axis.normalize() * angle;
                // exp: nalgebra's sin/cos form to round-off.
                let q = exp_rotation(&v);
                let closed = UnitQuaternion::from_scaled_axis(v);
                assert!(
                    (q.coords - closed.coords).amax() <= 4.0 * f64::EPSILON,
                    "exp at {angle}: {q:?} vs {closed:?}"
                );
                assert!((q.coords.norm() - 1.0).abs() <= 4.0 * f64::EPSILON);
                // log: `2·atan2(|v|, w)·v/|v|` to round-off of the angle.
                let (w, im) = (closed.w, closed.imag());
                let reference = im * (2.0 * im.norm().atan2(w) / im.norm());
                let log = log_rotation(&closed);
                assert!(
                    (log - reference).amax() <= 4.0 * f64::EPSILON * angle,
                    "log at {angle}: {log} vs {reference}"
                );
            }
        }
        // Below machine epsilon, no rotation at all (as nalgebra): resting bodies must not turn by round-off.
        let tiny = Vector3::new(3.5e-17, 0.0, -3.5e-17);
        assert_eq!(exp_rotation(&tiny), UnitQuaternion::identity());
        assert_ne!(exp_rotation(&(tiny * 8.0)), UnitQuaternion::identity());
        // The inverse Jacobian's coefficient against 20-digit values (mpmath) where the closed form cancels.
        for (theta, exact) in [
            (0.001f64, 0.083_333_334_722_222_25),
            (0.05, 0.083_336_805_762_248_36),
            (0.125, 0.083_355_042_798_810_52),
        ] {
            let c = crate::math::spatial::jacobian_series(theta * theta);
            assert!(
                (c - exact).abs() <= 2.0 * f64::EPSILON * exact,
                "θ = {theta}: {c}"
            );
        }
    }

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64) / ((1u64 << 53) as f64)
    }

    #[test]
    fn euler_product_follows_listed_order() {
        let q = EulerOrder::ZXY.to_quaternion([0.3, -0.2, 1.1]);
        let expected = axis_rotation(Axis::Z, 0.3)
            * axis_rotation(Axis::X, -0.2)
            * axis_rotation(Axis::Y, 1.1);
        assert!(rotation_distance(&q, &expected) < 1e-14);
    }

    #[test]
    fn euler_round_trip_all_orders() {
        let mut seed = 7;
        for order in EulerOrder::ALL {
            for _ in 0..500 {
                let angles = [
                    (lcg(&mut seed) - 0.5) * 6.0,
                    (lcg(&mut seed) - 0.5) * 3.0,
                    (lcg(&mut seed) - 0.5) * 6.0,
                ];
                let q = order.to_quaternion(angles);
                let back = order.to_angles(&q);
                let q2 = order.to_quaternion(back);
                assert!(
                    rotation_distance(&q, &q2) < 1e-9,
                    "{} {:?} {:?}",
                    order.name(),
                    angles,
                    back
                );
                let near = order.to_angles_near(&q, angles);
                for i in 0..3 {
                    assert!(
                        (near[i] - angles[i]).abs() < 1e-7,
                        "{} {:?} {:?}",
                        order.name(),
                        angles,
                        near
                    );
                }
            }
        }
    }

    #[test]
    fn gimbal_lock_still_reproduces_rotation() {
        for order in EulerOrder::ALL {
            let q = order.to_quaternion([0.4, std::f64::consts::FRAC_PI_2, -0.7]);
            let q2 = order.to_quaternion(order.to_angles(&q));
            assert!(rotation_distance(&q, &q2) < 1e-6, "{}", order.name());
        }
    }

    #[test]
    fn exp_log_inverse() {
        let v = Vector3::new(0.3, -1.2, 0.5);
        assert!((log_rotation(&exp_rotation(&v)) - v).norm() < 1e-12);
        let q = UnitQuaternion::new_unchecked(-exp_rotation(&v).into_inner());
        assert!((log_rotation(&q) - v).norm() < 1e-12);
    }
}
