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

use nalgebra::{Matrix3, Matrix6, SMatrix, Vector3, Vector6};

use super::{ContactImpulse, ContactOther, ContactPoint, ContactState};
use crate::dynamics::body::Body;
use crate::dynamics::force::{Force, ForceEval};
use crate::dynamics::system::SaddlePointSolver;
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
            ContactOther::Static => (None, point.other_point),
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

/// Buffers of the penalty path (sized once, reused every step).
#[derive(Debug, Default)]
pub(crate) struct PenaltyState {
    contacts: Vec<PenaltyContact>,
    forces: Vec<PointForce>,
    /// The coupled bodies (with blocks outside the factorisation: both sides of body–body contacts, or every
    /// contact body with the joint mass), and each world body's index among them.
    bodies: Vec<usize>,
    slot: Vec<usize>,
    /// The blocks `C` of `M̃` outside the factorisation, row-major `nb × nb` (with the free bodies' mass only the
    /// cross blocks; with the joint mass all).
    cross: Vec<Matrix6<f64>>,
    /// `W` blocks between the coupled bodies.
    w: Vec<Matrix6<f64>>,
    /// Force part `h(f − ∂f/∂v·v)` of the coupled bodies when the penalty terms bypass the block system.
    g: Vec<Vector6<f64>>,
    /// The step's options and size, kept for the joint-mass path (contacts built after the solve).
    options: PenaltyOptions,
    h: f64,
    /// This step builds its contacts from `W` ([`PenaltyOptions::joint_mass`]).
    joint: bool,
    /// The dense `(I + C W)` (6nb)², its pivots and right-hand side.
    lu: Vec<f64>,
    piv: Vec<usize>,
    y: Vec<f64>,
    rhs: Vec<Vector6<f64>>,
    unit: Vec<Vector6<f64>>,
    response: Vec<Vector6<f64>>,
    l: Vec<f64>,
    zero_b: Vec<f64>,
    /// Velocities at the start of the step (for the impulses).
    before: Vec<Vector6<f64>>,
}

/// The step's accumulators the penalty forces are added to (like a drive's).
pub(crate) struct PenaltyTargets<'a> {
    pub wrench: &'a mut [Vector6<f64>],
    pub dfdp: &'a mut [Matrix6<f64>],
    pub dfdv: &'a mut [Matrix6<f64>],
}

/// The quantities of the step the cross-coupling correction reads and updates.
pub(crate) struct PenaltySolve<'a> {
    pub solver: &'a mut dyn SaddlePointSolver,
    /// Momentum right-hand side `a` of the step (without the blocks of `C` and their force part `g`).
    pub rhs_a: &'a [Vector6<f64>],
    /// Joint right-hand side `b`.
    pub b: &'a [f64],
    /// In: `v*` from the factorised `M̃` (without `C`); out: `v(t+h)`.
    pub x: &'a mut [Vector6<f64>],
    pub lambda: &'a mut [f64],
}

impl ContactState {
    /// Whether the next step's contacts are penalty contacts.
    pub(crate) fn penalty(&self) -> bool {
        matches!(self.options.solver, super::ContactSolver::Penalty(_))
    }

    /// Builds the step's penalty contacts and adds their wrenches and gradients to the step's accumulators:
    /// diagonal blocks directly (as drives do), cross blocks into the coupling correction. With the linearly
    /// implicit step the cross part `−∂f_a/∂v_b·v_b` of `f̃ = f − ∂f/∂v·v` is added to the wrench too. With
    /// [`PenaltyOptions::joint_mass`] the contacts need `W` first: they are only registered here and built in
    /// [`ContactState::penalty_couple`], all their blocks going through the correction.
    pub(crate) fn penalty_forces(
        &mut self,
        bodies: &[Body],
        h: f64,
        implicit: bool,
        t: PenaltyTargets<'_>,
    ) {
        let super::ContactSolver::Penalty(options) = self.options.solver else {
            return;
        };
        let ps = &mut self.penalty;
        ps.options = options;
        ps.h = h;
        ps.joint = options.joint_mass && implicit;
        ps.contacts.clear();
        ps.forces.clear();
        ps.bodies.clear();
        ps.slot.clear();
        ps.slot.resize(bodies.len(), usize::MAX);
        ps.before.clear();
        ps.before.extend(bodies.iter().map(|b| b.velocity));
        for p in &self.points {
            let other = match p.other {
                ContactOther::Body(o) => Some(o),
                _ => None,
            };
            // Joint mass: every contact body; else only bodies with cross blocks.
            if ps.joint || other.is_some() {
                for b in std::iter::once(p.body).chain(other) {
                    if ps.slot[b] == usize::MAX {
                        ps.slot[b] = ps.bodies.len();
                        ps.bodies.push(b);
                    }
                }
            }
        }
        let nb = ps.bodies.len();
        ps.cross.clear();
        ps.cross.resize(nb * nb, Matrix6::zeros());
        ps.g.clear();
        ps.g.resize(nb, Vector6::zeros());
        if ps.joint {
            return;
        }
        for p in &self.points {
            // Free others are refused when the contacts are set.
            let Some(c) = PenaltyContact::new(p, bodies, h, &options) else {
                continue;
            };
            let pf = c.point_force(bodies);
            ps.contacts.push(c);
            ps.forces.push(pf);
            let e = c.wrench_eval(bodies, &pf);
            let a = c.body;
            t.wrench[a] += e.wrench[0];
            t.dfdp[a] += e.dp[0][0];
            t.dfdv[a] += e.dv[0][0];
            let Some(b) = c.other else { continue };
            t.wrench[b] += e.wrench[1];
            t.dfdp[b] += e.dp[1][1];
            t.dfdv[b] += e.dv[1][1];
            if implicit {
                t.wrench[a] -= e.dv[0][1] * bodies[b].velocity;
                t.wrench[b] -= e.dv[1][0] * bodies[a].velocity;
                let (sa, sb) = (ps.slot[a], ps.slot[b]);
                ps.cross[sa * nb + sb] -= e.dp[0][1] * (h * h) + e.dv[0][1] * h;
                ps.cross[sb * nb + sa] -= e.dp[1][0] * (h * h) + e.dv[1][0] * h;
            }
        }
        if !implicit {
            // The explicit integrator takes the forces only.
            ps.bodies.clear();
        }
    }

    /// Joint-mass path: the contacts with gains from `W`, all their blocks into `C`, their force part into `g`.
    fn penalty_joint_contacts(&mut self, bodies: &[Body]) {
        let ps = &mut self.penalty;
        let (h, nb) = (ps.h, ps.bodies.len());
        for p in &self.points {
            let a = &bodies[p.body];
            let ra = p.point - a.position;
            let ja = point_jacobian(&ra);
            let sa = ps.slot[p.body];
            let mut k_inv = ja * ps.w[sa * nb + sa] * ja.transpose();
            // A millionth of the free bodies' compliance keeps the mass finite on an immovable body.
            let mut k_free = point_inverse_mass(a, &ra);
            if let ContactOther::Body(o) = p.other {
                let b = &bodies[o];
                let rb = p.other_point - b.position;
                let jb = point_jacobian(&rb);
                let sb = ps.slot[o];
                k_inv += jb * ps.w[sb * nb + sb] * jb.transpose()
                    - ja * ps.w[sa * nb + sb] * jb.transpose()
                    - jb * ps.w[sb * nb + sa] * ja.transpose();
                k_free += point_inverse_mass(b, &rb);
            }
            k_inv += k_free * 1e-6;
            let Some(c) = PenaltyContact::with_inverse_mass(p, bodies, h, &ps.options, &k_inv)
            else {
                continue;
            };
            let pf = c.point_force(bodies);
            ps.contacts.push(c);
            ps.forces.push(pf);
            let e = c.wrench_eval(bodies, &pf);
            let sides = [Some(c.body), c.other];
            for (i, bi) in sides.iter().enumerate() {
                let Some(bi) = *bi else { continue };
                let si = ps.slot[bi];
                let mut g = e.wrench[i];
                for (j, bj) in sides.iter().enumerate() {
                    let Some(bj) = *bj else { continue };
                    let sj = ps.slot[bj];
                    ps.cross[si * nb + sj] -= e.dp[i][j] * (h * h) + e.dv[i][j] * h;
                    g -= e.dv[i][j] * bodies[bj].velocity;
                }
                ps.g[si] += g * h;
            }
        }
    }

    /// After the step's solve gave `v*` (from `M̃` with the penalty diagonal blocks, or without any penalty term
    /// on the joint-mass path): adds the remaining blocks `C` exactly through the coupled bodies' `W` (Woodbury,
    /// `(I + C W) y = C v* − g`, `v = solve(a − y)`), then records each contact's impulse `h·F(t+h)`
    /// (linearised, as the solve applied it).
    pub(crate) fn penalty_couple(&mut self, s: PenaltySolve<'_>, bodies: &[Body]) {
        let nb = self.penalty.bodies.len();
        if nb > 0 {
            let ps = &mut self.penalty;
            let n = bodies.len();
            ps.unit.clear();
            ps.unit.resize(n, Vector6::zeros());
            ps.response.clear();
            ps.response.resize(n, Vector6::zeros());
            ps.l.clear();
            ps.l.resize(s.b.len(), 0.0);
            ps.zero_b.clear();
            ps.zero_b.resize(s.b.len(), 0.0);
            ps.w.clear();
            ps.w.resize(nb * nb, Matrix6::zeros());
            for col in 0..nb {
                let bj = ps.bodies[col];
                for k in 0..6 {
                    ps.unit[bj][k] = 1.0;
                    s.solver
                        .solve(&ps.unit, &ps.zero_b, &mut ps.response, &mut ps.l);
                    ps.unit[bj][k] = 0.0;
                    for row in 0..nb {
                        let v = ps.response[ps.bodies[row]];
                        ps.w[row * nb + col].set_column(k, &v);
                    }
                }
            }
            if ps.joint {
                self.penalty_joint_contacts(bodies);
            }
            let ps = &mut self.penalty;
            // (I + C W) y = C v* − g, dense 6nb × 6nb, row-major.
            let dim = 6 * nb;
            ps.lu.clear();
            ps.lu.resize(dim * dim, 0.0);
            ps.y.clear();
            ps.y.resize(dim, 0.0);
            for i in 0..nb {
                for r in 0..6 {
                    ps.y[6 * i + r] = -ps.g[i][r];
                }
                for k in 0..nb {
                    let c = &ps.cross[i * nb + k];
                    if c.iter().all(|&v| v == 0.0) {
                        continue;
                    }
                    let cv = c * s.x[ps.bodies[k]];
                    for r in 0..6 {
                        ps.y[6 * i + r] += cv[r];
                    }
                    for j in 0..nb {
                        let cw = c * ps.w[k * nb + j];
                        for r in 0..6 {
                            for q in 0..6 {
                                ps.lu[(6 * i + r) * dim + 6 * j + q] += cw[(r, q)];
                            }
                        }
                    }
                }
            }
            for d in 0..dim {
                ps.lu[d * dim + d] += 1.0;
            }
            if solve_dense(&mut ps.lu, &mut ps.piv, &mut ps.y, dim) {
                ps.rhs.clear();
                ps.rhs.extend_from_slice(s.rhs_a);
                for (i, &b) in ps.bodies.iter().enumerate() {
                    for r in 0..6 {
                        ps.rhs[b][r] -= ps.y[6 * i + r];
                    }
                }
                s.solver.solve(&ps.rhs, s.b, s.x, s.lambda);
            }
            // A singular (I + C W) (never seen) leaves v* (without the correction's terms).
        }
        let ps = &self.penalty;
        let h = ps.h;
        self.impulses.clear();
        for (c, pf) in ps.contacts.iter().zip(&ps.forces) {
            let step = |k: usize, b: usize| -> Vector3<f64> {
                pf.dp[k] * (s.x[b] * h) + pf.dv[k] * (s.x[b] - ps.before[b])
            };
            let mut f = pf.force;
            if pf.force != Vector3::zeros() {
                f += step(0, c.body);
                if let Some(o) = c.other {
                    f += step(1, o);
                }
            }
            let impulse = f * h;
            let normal = c.normal.dot(&impulse);
            self.impulses.push(ContactImpulse {
                normal,
                friction: impulse - c.normal * normal,
                impulse,
            });
        }
    }
}

/// Solves `A y = y` in place (row-major `dim × dim`, partial pivoting); false when `A` is singular.
fn solve_dense(a: &mut [f64], piv: &mut Vec<usize>, y: &mut [f64], dim: usize) -> bool {
    piv.clear();
    piv.extend(0..dim);
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for col in 0..dim {
        let (p, best) = (col..dim)
            .map(|r| (r, a[r * dim + col].abs()))
            .fold((col, -1.0), |m, v| if v.1 > m.1 { v } else { m });
        // NaN entries count as singular too.
        if best.is_nan() || best <= 1e-14 * scale {
            return false;
        }
        if p != col {
            for q in 0..dim {
                a.swap(p * dim + q, col * dim + q);
            }
            y.swap(p, col);
        }
        let d = a[col * dim + col];
        for r in col + 1..dim {
            let f = a[r * dim + col] / d;
            if f == 0.0 {
                continue;
            }
            for q in col..dim {
                a[r * dim + q] -= f * a[col * dim + q];
            }
            y[r] -= f * y[col];
        }
    }
    for col in (0..dim).rev() {
        let mut v = y[col];
        for q in col + 1..dim {
            v -= a[col * dim + q] * y[q];
        }
        y[col] = v / a[col * dim + col];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DMatrix, DVector};

    #[test]
    fn dense_solve_matches_nalgebra() {
        let dim = 7;
        let m = DMatrix::from_fn(dim, dim, |i, j| {
            ((i * 7 + j * 3) % 11) as f64 - 5.0 + if i == j { 0.5 } else { 0.0 }
        });
        let b = DVector::from_fn(dim, |i, _| i as f64 - 2.0);
        let expected = m.clone().lu().solve(&b).unwrap();
        let mut a: Vec<f64> = (0..dim * dim).map(|k| m[(k / dim, k % dim)]).collect();
        let mut y: Vec<f64> = b.iter().copied().collect();
        let mut piv = Vec::new();
        assert!(solve_dense(&mut a, &mut piv, &mut y, dim));
        for i in 0..dim {
            assert!((y[i] - expected[i]).abs() < 1e-10 * expected.amax().max(1.0));
        }
        let mut singular = vec![1.0; 4];
        let mut y = vec![1.0, 2.0];
        assert!(!solve_dense(&mut singular, &mut piv, &mut y, 2));
    }
}
