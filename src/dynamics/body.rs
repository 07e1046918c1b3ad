//! A rigid body in maximal coordinates (Cline 2002 §2.1–2.4): CoM position, unit quaternion, twist `(ω; v)` in
//! the world-aligned CoM frame, mass and body-frame inertia.

use nalgebra::{Matrix3, Matrix6, UnitQuaternion, Vector3, Vector6};

use crate::math::small::{cross_mul, mul_cross};
use crate::math::spatial::{angular, cross_matrix, displace, twist};

/// One rigid body. Positions in metres, masses in kilograms, inertias in kg·m² (about the CoM).
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Centre-of-mass position in the world (m).
    pub position: Vector3<f64>,
    /// Orientation: body frame → world frame.
    pub orientation: UnitQuaternion<f64>,
    /// Twist `(ω; v)`: world-frame angular velocity (rad/s) and CoM velocity (m/s).
    pub velocity: Vector6<f64>,
    /// Mass (kg), > 0.
    pub mass: f64,
    /// Inertia tensor about the CoM in body coordinates (kg·m²), symmetric positive definite.
    pub inertia_body: Matrix3<f64>,
}

impl Body {
    /// A body at rest at `position` with `orientation`.
    pub fn new(
        mass: f64,
        inertia_body: Matrix3<f64>,
        position: Vector3<f64>,
        orientation: UnitQuaternion<f64>,
    ) -> Self {
        Body {
            position,
            orientation,
            velocity: Vector6::zeros(),
            mass,
            inertia_body,
        }
    }

    /// A solid cylinder of `mass` (kg), `length` and `radius` (m) with its axis along body x.
    pub fn cylinder_x(mass: f64, length: f64, radius: f64) -> Self {
        let axial = 0.5 * mass * radius * radius;
        let transverse = mass * (3.0 * radius * radius + length * length) / 12.0;
        Body::new(
            mass,
            Matrix3::from_diagonal(&Vector3::new(axial, transverse, transverse)),
            Vector3::zeros(),
            UnitQuaternion::identity(),
        )
    }

    /// A solid box of `mass` (kg) with full edge lengths `size` (m) along the body axes.
    pub fn cuboid(mass: f64, size: Vector3<f64>) -> Self {
        let s = size.component_mul(&size);
        let d = Vector3::new(s.y + s.z, s.x + s.z, s.x + s.y) * (mass / 12.0);
        Body::new(
            mass,
            Matrix3::from_diagonal(&d),
            Vector3::zeros(),
            UnitQuaternion::identity(),
        )
    }

    /// The same body moved to `position` with `orientation` (builder style).
    pub fn at(mut self, position: Vector3<f64>, orientation: UnitQuaternion<f64>) -> Self {
        self.position = position;
        self.orientation = orientation;
        self
    }

    /// Angular velocity ω (rad/s, world frame).
    pub fn omega(&self) -> Vector3<f64> {
        angular(&self.velocity)
    }

    /// Rotation matrix body → world.
    pub fn rotation(&self) -> Matrix3<f64> {
        self.orientation.to_rotation_matrix().into_inner()
    }

    /// World-frame inertia `R·I_body·Rᵀ` (kg·m²).
    pub fn inertia_world(&self) -> Matrix3<f64> {
        let r = self.rotation();
        r * self.inertia_body * r.transpose()
    }

    /// The 6×6 mass matrix block `diag(I_world, m·I₃)` (Cline eq. 2.27).
    pub fn mass_matrix(&self) -> Matrix6<f64> {
        let mut m = Matrix6::zeros();
        m.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&self.inertia_world());
        m.fixed_view_mut::<3, 3>(3, 3)
            .copy_from(&(Matrix3::identity() * self.mass));
        m
    }

    /// The velocity (m/s, world) of the body's material point at `world`.
    pub fn point_velocity(&self, world: &Vector3<f64>) -> Vector3<f64> {
        let v = &self.velocity;
        Vector3::new(v[3], v[4], v[5]) + self.omega().cross(&(world - self.position))
    }

    /// World position of a point given in body coordinates relative to the CoM (m).
    pub fn point_world(&self, local: &Vector3<f64>) -> Vector3<f64> {
        self.position + self.orientation * local
    }

    /// Body coordinates (relative to the CoM) of a world point.
    pub fn point_local(&self, world: &Vector3<f64>) -> Vector3<f64> {
        self.orientation.inverse() * (world - self.position)
    }

    /// Applies a twist-coordinate displacement `(δθ; δx)` (see [`crate::math::spatial::displace`]).
    pub fn displace(&mut self, d: &Vector6<f64>) {
        displace(&mut self.position, &mut self.orientation, d);
    }

    /// Kinetic energy `½ωᵀIω + ½m|v|²` (J).
    pub fn kinetic_energy(&self) -> f64 {
        0.5 * self.velocity.dot(&(self.mass_matrix() * self.velocity))
    }

    /// The gyroscopic wrench `(−ω × I ω; 0)` that Cline moves from `M v̇` into the applied forces (eq. 2.29),
    /// with its gradients with respect to twist-coordinate displacements (`dp`) and the twist (`dv`).
    pub fn gyroscopic(&self) -> (Vector6<f64>, Matrix6<f64>, Matrix6<f64>) {
        let (t, dp3, dv3) = self.gyroscopic_angular();
        let mut dp = Matrix6::zeros();
        dp.fixed_view_mut::<3, 3>(0, 0).copy_from(&dp3);
        let mut dv = Matrix6::zeros();
        dv.fixed_view_mut::<3, 3>(0, 0).copy_from(&dv3);
        (twist(&t, &Vector3::zeros()), dp, dv)
    }

    /// The gyroscopic torque `−ω × Iω` and its gradients with respect to `δθ` and `ω`: the only non-zero (angular)
    /// 3×3 blocks of [`Body::gyroscopic`], which the step uses directly.
    pub fn gyroscopic_angular(&self) -> (Vector3<f64>, Matrix3<f64>, Matrix3<f64>) {
        gyroscopic_terms(&self.omega(), &self.inertia_world())
    }
}

/// [`Body::gyroscopic_angular`] from ω and the world inertia `I` (the step computes `I` once for this and the
/// mass matrix).
#[inline(always)]
pub(crate) fn gyroscopic_terms(
    w: &Vector3<f64>,
    i: &Matrix3<f64>,
) -> (Vector3<f64>, Matrix3<f64>, Matrix3<f64>) {
    let iw = i * w;
    let ciw = cross_matrix(&iw);
    // Products with the cross matrix `[ω]×` by their two non-zero terms (`math::small`): the third term is `±0`.
    let cwi = cross_mul(w, i);
    // I(δθ)·ω = Iω − [Iω]δθ + I[ω]δθ, so ∂(−ω×Iω)/∂δθ = [ω][Iω] − [ω]I[ω]; ∂(−ω×Iω)/∂ω = −[ω]I + [Iω].
    (
        -w.cross(&iw),
        cross_mul(w, &ciw) - mul_cross(&cwi, w),
        ciw - cwi,
    )
}
