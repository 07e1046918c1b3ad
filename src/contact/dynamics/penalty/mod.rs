//! Penalty contact (Hasegawa et al., *Real-time rigid body simulation based on volumetric penalty method*),
//! integrated linearly implicitly: each contact point of the step is a spring–damper force whose analytic
//! gradients `∂f/∂p`, `∂f/∂v` enter the step's `M̃ = M − h²∂f/∂p − h∂f/∂v` exactly like a joint drive's, so no
//! LCP is solved.
//!
//! Per point (the body's witness point `p_a`, the other side's `p_b`, the step's fixed normal `n`):
//!
//! ```text
//! depth δ = −n·(p_a − p_b),  u = velocity of p_a − velocity of p_b,  u_n = n·u,  u_t = u − n u_n
//! f_n = k δ − d u_n                      (0 when δ ≤ 0 or the sum is ≤ 0: a contact never pulls)
//! f_t = −c u_t          if c|u_t| ≤ μ f_n  (regularised Coulomb: a stiff viscous damper …)
//!     = −μ f_n u_t/|u_t| otherwise          (… capped at the Coulomb force)
//! F = n f_n + f_t at p_a on the body, −F at p_b on the other side
//! ```
//!
//! Hasegawa integrates the spring over the intersection volume so a face resting on a face does not rock on its
//! deepest vertex; with the contact manifolds of `contact::collision` (4 corners of a box face, the ends of a
//! capsule) the sum of the corner springs is that volume integral for a planar face (the force is `k·Σδ_i`, the
//! mean depth times the face's stiffness). The gains follow Hasegawa eqs. 6–8: `k = m ω²` with the contact's
//! effective mass `m = 1/(nᵀ K n)` and `ω = 2π/(N h)`; his explicit integration needs N = 16, the linearly
//! implicit step is stable for any N, so the default is 2. The damping he leaves open is critical here
//! (`d = 2ζ m ω`, ζ = 1). `K` is the relative point inverse mass: by default through the joints and drives of the
//! step's `M̃` (`J W Jᵀ`, [`PenaltyOptions::joint_mass`]), else the free bodies' `[r]ₓI⁻¹[r]ₓᵀ + 1/m` (his
//! reduced mass, eq. 7). See `docs/contact.md`, "Penalty contact".
//!
//! With the free bodies' mass, static contacts only touch their body's diagonal block, added before the step's
//! factorisation. A contact between two world bodies also has cross blocks, which the world's block system has
//! no slot for (they would close loops in the tree solver); those are added exactly by a low-rank correction in
//! the contact bodies' space (Woodbury): with `C` the blocks not in the factorisation, `g` their force part,
//! `W` the joint-aware inverse mass between the coupled bodies (6 solves per body with the step's
//! factorisation) and `v*` the velocity without them, `(I + C W) y = C v* − g` and `v = solve(a − y)`. With the
//! joint mass every penalty block takes that route, since the gains need `W` of `M̃` without them.

use nalgebra::{Matrix3, SMatrix, Vector3};

use super::{ContactOther, ContactPoint};
use crate::dynamics::body::Body;
use crate::dynamics::force::{Force, ForceEval};
use crate::math::spatial::{angular, cross_matrix, linear};

type Matrix3x6 = SMatrix<f64, 3, 6>;

/// Settings of penalty contact ([`super::ContactSolver::Penalty`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PenaltyOptions {
    /// Period of a contact's spring on its reduced mass, in steps (`T_osc / h`, > 0): `k = m (2π/(N h))²`.
    /// Hasegawa's explicit integration needs N ≥ 2 and used 16; the linearly implicit step is stable for any N,
    /// and the penetration under a load grows with N². Default 2.
    pub period_steps: f64,
    /// Damping ratio ζ ≥ 0 of the normal spring–damper (`d = 2ζ m ω`; 1 is critical, the default).
    pub damping_ratio: f64,
    /// Friction damper `c = friction_damping · m_t / h` (≥ 0, `m_t` the tangential reduced mass): a sticking
    /// contact under a tangential load `F` creeps at `F / c`. Default 20.
    pub friction_damping: f64,
    /// The mass the gains are set from: `false` the free rigid bodies' reduced mass at the point (Hasegawa
    /// eq. 7; no extra solve), `true` the point's effective mass through the joints and drives of the step's
    /// implicit `M̃` (`1/(nᵀ J W Jᵀ n)`, 6 solves per contact body). A body pressed by stiff drives needs the
    /// latter: its own mass sets a spring far too soft for the drives' load. Default `true`.
    pub joint_mass: bool,
}

impl Default for PenaltyOptions {
    fn default() -> Self {
        PenaltyOptions {
            period_steps: 2.0,
            damping_ratio: 1.0,
            friction_damping: 20.0,
            joint_mass: true,
        }
    }
}

impl PenaltyOptions {
    /// Whether the settings are usable (finite, `period_steps` > 0, the others ≥ 0).
    pub(crate) fn valid(&self) -> bool {
        self.period_steps.is_finite()
            && self.period_steps > 0.0
            && self.damping_ratio.is_finite()
            && self.damping_ratio >= 0.0
            && self.friction_damping.is_finite()
            && self.friction_damping >= 0.0
    }
}

/// One penalty contact as a [`Force`] between its body and a world body (or static geometry): the witness
/// points ride on their bodies, the normal stays fixed in the world for the step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PenaltyContact {
    /// The body pushed along `+normal`.
    pub body: usize,
    /// The other world body, `None` for static geometry.
    pub other: Option<usize>,
    /// The body's witness point relative to its CoM, body coordinates (m).
    pub local: Vector3<f64>,
    /// The other side's witness point: relative to its CoM in its coordinates, or the world point if static.
    pub other_local: Vector3<f64>,
    /// Unit normal (world), from the other side toward `body`.
    pub normal: Vector3<f64>,
    /// Normal spring k (N/m).
    pub stiffness: f64,
    /// Normal damper d (N·s/m).
    pub damping: f64,
    /// Friction damper c (N·s/m).
    pub friction_damping: f64,
    /// Coulomb coefficient μ.
    pub friction: f64,
}

/// `∂(point displacement)/∂(δθ; δx)` = `∂(point velocity)/∂(ω; v)` = `[−[r]ₓ, I]` for a point at `r` from the CoM.
fn point_jacobian(r: &Vector3<f64>) -> Matrix3x6 {
    let mut j = Matrix3x6::zeros();
    j.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&(-cross_matrix(r)));
    j.fixed_view_mut::<3, 3>(0, 3)
        .copy_from(&Matrix3::identity());
    j
}

/// The point inverse mass `[r]ₓ I⁻¹ [r]ₓᵀ + I/m` of a body at arm `r` (world); zero for a body without inertia.
fn point_inverse_mass(b: &Body, r: &Vector3<f64>) -> Matrix3<f64> {
    let inv = b
        .inertia_world()
        .try_inverse()
        .filter(|m| m.iter().all(|v| v.is_finite()))
        .unwrap_or_else(Matrix3::zeros);
    let rx = cross_matrix(r);
    let lin = if b.mass > 0.0 { 1.0 / b.mass } else { 0.0 };
    rx * inv * rx.transpose() + Matrix3::identity() * lin
}

/// A penalty contact's force at its body's point and the gradients of that force (world, 3×6 per side).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PointForce {
    /// The force `F` on the body at its point (N); `−F` acts on the other side.
    pub force: Vector3<f64>,
    /// `∂F/∂p` of the body and the other side (twist coordinates).
    pub dp: [Matrix3x6; 2],
    /// `∂F/∂v` of the body and the other side.
    pub dv: [Matrix3x6; 2],
}

impl PenaltyContact {
    /// The penalty contact of `point` for a step of `h` s: witness points carried into body coordinates, the gains
    /// from the point's reduced mass along the normal and across it. `None` for a free other side.
    pub fn new(
        point: &ContactPoint,
        bodies: &[Body],
        h: f64,
        options: &PenaltyOptions,
    ) -> Option<PenaltyContact> {
        let a = &bodies[point.body];
        let mut k_inv = point_inverse_mass(a, &(point.point - a.position));
        if let ContactOther::Body(o) = point.other {
            let b = &bodies[o];
            k_inv += point_inverse_mass(b, &(point.other_point - b.position));
        }
        Self::with_inverse_mass(point, bodies, h, options, &k_inv)
    }

    /// Like [`PenaltyContact::new`], with the relative point inverse mass `k_inv` (3×3, world) given: the
    /// gains are `k = m_n ω²`, `d = 2ζ m_n ω`, `c = friction_damping·m_t/h` with `m_n = 1/(nᵀ k_inv n)` and
    /// `m_t` the mean across the normal.
    pub fn with_inverse_mass(
        point: &ContactPoint,
        bodies: &[Body],
        h: f64,
        options: &PenaltyOptions,
        k_inv: &Matrix3<f64>,
    ) -> Option<PenaltyContact> {
        let a = &bodies[point.body];
        let (other, other_local) = match point.other {
            // A moving surface is held where it is for the step (its velocity enters the LCP only).
            ContactOther::Static | ContactOther::Moving { .. } => (None, point.other_point),
            ContactOther::Body(o) => (Some(o), bodies[o].point_local(&point.other_point)),
            ContactOther::Free(_) => return None,
        };
        let n = point.normal;
        let m_n = 1.0 / n.dot(&(k_inv * n)).max(f64::MIN_POSITIVE);
        let p = Matrix3::identity() - n * n.transpose();
        let m_t = 2.0 / (p * k_inv * p).trace().max(f64::MIN_POSITIVE);
        let omega = std::f64::consts::TAU / (options.period_steps * h);
        Some(PenaltyContact {
            body: point.body,
            other,
            local: a.point_local(&point.point),
            other_local,
            normal: n,
            stiffness: m_n * omega * omega,
            damping: 2.0 * options.damping_ratio * m_n * omega,
            friction_damping: options.friction_damping * m_t / h,
            friction: point.friction,
        })
    }

    /// Arms from the CoMs to both witness points, the points and their velocities (world).
    fn kinematics(&self, bodies: &[Body]) -> [(Vector3<f64>, Vector3<f64>, Vector3<f64>); 2] {
        let a = &bodies[self.body];
        let ra = a.orientation * self.local;
        let side_a = (
            ra,
            a.position + ra,
            linear(&a.velocity) + angular(&a.velocity).cross(&ra),
        );
        let side_b = match self.other {
            Some(o) => {
                let b = &bodies[o];
                let rb = b.orientation * self.other_local;
                (
                    rb,
                    b.position + rb,
                    linear(&b.velocity) + angular(&b.velocity).cross(&rb),
                )
            }
            None => (Vector3::zeros(), self.other_local, Vector3::zeros()),
        };
        [side_a, side_b]
    }

    /// Penetration depth `−n·(p_a − p_b)` at the bodies' current poses (m; negative: apart).
    pub fn depth(&self, bodies: &[Body]) -> f64 {
        let [(_, pa, _), (_, pb, _)] = self.kinematics(bodies);
        -self.normal.dot(&(pa - pb))
    }

    /// The force at the body's point and its gradients (all zero when the contact does not push).
    pub(crate) fn point_force(&self, bodies: &[Body]) -> PointForce {
        let mut out = PointForce {
            force: Vector3::zeros(),
            dp: [Matrix3x6::zeros(); 2],
            dv: [Matrix3x6::zeros(); 2],
        };
        let [(ra, pa, ua), (rb, pb, ub)] = self.kinematics(bodies);
        let n = self.normal;
        let depth = -n.dot(&(pa - pb));
        let u = ua - ub;
        let un = n.dot(&u);
        let f_n = self.stiffness * depth - self.damping * un;
        if depth <= 0.0 || f_n <= 0.0 {
            return out;
        }
        let ut = u - n * un;
        let slip = ut.norm();
        let nnt = n * n.transpose();
        let tangent_projector = Matrix3::identity() - nnt;
        // F, ∂F/∂δ and ∂F/∂u.
        let (force, df_ddepth, df_du) = if self.friction_damping * slip <= self.friction * f_n {
            (
                n * f_n - ut * self.friction_damping,
                n * self.stiffness,
                -nnt * self.damping - tangent_projector * self.friction_damping,
            )
        } else {
            let t = ut / slip;
            let dir = n - t * self.friction;
            (
                dir * f_n,
                dir * self.stiffness,
                -dir * n.transpose() * self.damping
                    - (tangent_projector - t * t.transpose()) * (self.friction * f_n / slip),
            )
        };
        out.force = force;
        // δ = −n·(p_a − p_b): ∂δ/∂p_a = −nᵀ J_a, ∂δ/∂p_b = nᵀ J_b. u depends on the poses through the arms:
        // ∂(ω × r)/∂δθ = −[ω]ₓ[r]ₓ.
        let ja = point_jacobian(&ra);
        let jb = point_jacobian(&rb);
        let mut du_dpa = Matrix3x6::zeros();
        du_dpa
            .fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&(-cross_matrix(&angular(&bodies[self.body].velocity)) * cross_matrix(&ra)));
        out.dp[0] = df_ddepth * (-n.transpose() * ja) + df_du * du_dpa;
        out.dv[0] = df_du * ja;
        if let Some(o) = self.other {
            let mut du_dpb = Matrix3x6::zeros();
            du_dpb
                .fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&(cross_matrix(&angular(&bodies[o].velocity)) * cross_matrix(&rb)));
            out.dp[1] = df_ddepth * (n.transpose() * jb) + df_du * du_dpb;
            out.dv[1] = -df_du * jb;
        }
        out
    }

    /// The wrenches and their 6×6 gradient blocks from the point force (see [`Force::eval`]).
    pub(crate) fn wrench_eval(&self, bodies: &[Body], pf: &PointForce) -> ForceEval {
        let mut e = ForceEval::zero();
        if pf.force == Vector3::zeros() {
            return e;
        }
        let ra = bodies[self.body].orientation * self.local;
        let ja = point_jacobian(&ra);
        let f = pf.force;
        // The wrench on the body is J_aᵀF = (r_a × F; F); turning the arm adds (δθ × r)×F = [F]ₓ[r]ₓδθ.
        e.wrench[0] = ja.transpose() * f;
        e.dp[0][0] = ja.transpose() * pf.dp[0];
        e.dv[0][0] = ja.transpose() * pf.dv[0];
        let geometric = cross_matrix(&f) * cross_matrix(&ra);
        let mut block = e.dp[0][0].fixed_view_mut::<3, 3>(0, 0);
        block += geometric;
        if let Some(o) = self.other {
            let rb = bodies[o].orientation * self.other_local;
            let jb = point_jacobian(&rb);
            e.wrench[1] = -(jb.transpose() * f);
            e.dp[0][1] = ja.transpose() * pf.dp[1];
            e.dv[0][1] = ja.transpose() * pf.dv[1];
            e.dp[1][0] = -(jb.transpose() * pf.dp[0]);
            e.dv[1][0] = -(jb.transpose() * pf.dv[0]);
            e.dp[1][1] = -(jb.transpose() * pf.dp[1]);
            e.dv[1][1] = -(jb.transpose() * pf.dv[1]);
            let geometric = cross_matrix(&f) * cross_matrix(&rb);
            let mut block = e.dp[1][1].fixed_view_mut::<3, 3>(0, 0);
            block -= geometric;
        }
        e
    }
}

impl Force for PenaltyContact {
    fn bodies(&self) -> (usize, Option<usize>) {
        (self.body, self.other)
    }

    fn eval(&self, bodies: &[Body]) -> ForceEval {
        self.wrench_eval(bodies, &self.point_force(bodies))
    }
}

mod step;
pub(crate) use step::{PenaltySolve, PenaltyState, PenaltyTargets};
