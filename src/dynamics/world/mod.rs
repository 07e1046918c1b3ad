//! The world: bodies, constraints, forces, a solver and preallocated buffers; `step(h)` is the linearly
//! implicit step of Cline 2002 eqs. 2.50–2.55 followed by the chosen stabilization.

mod build;
mod forces;
mod grad;
mod prepare;
mod scratch;
mod state;

pub use scratch::StepScratch;
pub use state::{BodyState, Fnv1a, StateError, WorldState};

use nalgebra::{Matrix6, Vector3, Vector6};

use super::anchor_tree::AnchorTree;
use super::auto_solver::AutoSolver;
use super::body::Body;
use super::constraint::Constraint;
use super::force::{Force, JointDrive, PositionSpring, UserForce};
use super::stabilize::{
    PostStabBuffers, PostStabReport, Stabilization, evaluate_constraints, evaluate_values,
    max_separation, post_stabilize,
};
use super::system::{BlockSystem, SaddlePointSolver, SolveError};
use crate::contact::dynamics::{
    ContactError, ContactImpulse, ContactOptions, ContactPoint, ContactReport, ContactSolver,
    ContactState,
    penalty::{PenaltySolve, PenaltyTargets},
    refuse_free, validate_options,
    velocity::StepSolve,
};
use crate::math::dispatch::with_avx2;
use crate::math::rotation::exp_rotation;
use crate::math::spatial::{angular, linear, twist};

/// How forces enter the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Integrator {
    /// Cline eq. 2.53–2.55: `M̃ = M − h²∂f/∂p − h∂f/∂v`, `a = M v + h(f − ∂f/∂v·v)`.
    #[default]
    LinearlyImplicit,
    /// Forces at `t`, `A = M`, `a = M v + h f` (semi-implicit Euler): for comparison experiments only.
    Explicit,
}

/// Which velocity moves the positions at the end of the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PositionUpdate {
    /// `x += h·v(t+h)`, `q ← exp(h·ω(t+h))·q` with the new, constraint-satisfying velocity (symplectic-Euler
    /// style, Anitescu–Potra): the drift per step is only the second-order `½h²·(relative centripetal
    /// acceleration)`.
    #[default]
    NewVelocity,
    /// `x += h·v(t)`, `q ← exp(h·ω(t))·q` with the velocity at the start of the step (explicit Euler positions).
    /// Reproduces the drift figures of Cline 2002 §5.2.1 (a first-order velocity error per step); for the
    /// thesis-reproduction experiments only (see docs/dynamics.md).
    ThesisExplicitEuler,
}

/// Why a step failed. The state is left as it was when the failure was detected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StepError {
    /// The linear system could not be solved.
    #[error("step at t = {time} s: {source}")]
    Solve {
        /// Simulation time at the start of the step (s).
        time: f64,
        /// The solver's error.
        source: SolveError,
    },
    /// The new velocities are not finite (a blown-up simulation).
    #[error("step at t = {time} s: non-finite velocity of body {body}")]
    NonFinite {
        /// Simulation time at the start of the step (s).
        time: f64,
        /// First offending body.
        body: usize,
    },
}

/// What a step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepReport {
    /// Largest `|g|` (m or rad) after the step and its stabilization.
    pub constraint_error: f64,
    /// Largest anchor separation (m) after the step and its stabilization.
    pub max_separation: f64,
    /// The post-stabilization run, when selected.
    pub post_stab: Option<PostStabReport>,
    /// What the contacts did (all zero without contacts).
    pub contacts: ContactReport,
}

/// Index of a joint drive in a [`World`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DriveId(pub usize);

/// Index of a user force in a [`World`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UserForceId(pub usize);

/// Handle of a centre-of-mass spring ([`World::add_spring`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpringId(pub usize);

/// Where a two-body force writes its cross blocks: coupling slot and whether (a, b) is the slot's (j, i).
type Slot = Option<(usize, bool)>;

/// A body's gradient blocks in [`World`]'s `body_grad`: `∂f/∂p`, `∂f/∂v`.
const DP: usize = 0;
const DV: usize = 1;
/// A coupling slot's blocks in `pair_grad`: `∂f/∂p` then `∂f/∂v`, each `[A_ij, A_ji]` side (add 0 or 1).
const PAIR_DP: usize = 0;
const PAIR_DV: usize = 2;

/// Bodies, constraints, forces, the solver and every buffer of the step.
///
/// Buffers are sized when the structure changes (bodies, constraints or forces added), at the next
/// [`World::step`] or an explicit [`World::prepare`]; after that a step allocates nothing itself (the solver
/// must not either: [`AutoSolver`], the default, and `DenseLuSolver` reuse their buffers; `DenseSolver`
/// allocates).
pub struct World {
    bodies: Vec<Body>,
    constraints: Vec<Box<dyn Constraint>>,
    drives: Vec<JointDrive>,
    user_forces: Vec<UserForce>,
    springs: Vec<PositionSpring>,
    forces: Vec<Box<dyn Force>>,
    gravity: Vector3<f64>,
    stabilization: Stabilization,
    integrator: Integrator,
    position_update: PositionUpdate,
    /// Largest constraint error (m or rad) corrected by one post-stabilization projection; larger errors are
    /// scaled down to it (Cline §5.2.3). Default 0.05.
    pub post_stab_max_correction: f64,
    /// Whether post-stabilization starts with the step's own factorisation (one solve per projection instead of
    /// a factor + solve; see `docs/dynamics.md`), switching to fresh factorisations when it contracts too slowly.
    /// Default true.
    pub post_stab_reuse_factorisation: bool,
    time: f64,
    dirty: bool,
    contacts: ContactState,
    // Buffers. The step's scratch (block system, gradients, solver, right-hand sides) can be exchanged with other
    // worlds' of the same structure; the rest is the world's own, `x`, `g` and `λ` because they are read after
    // the step (`constraint_values`, `last_lambda`).
    scratch: StepScratch,
    drive_slots: Vec<(usize, Option<usize>, Slot)>,
    force_slots: Vec<Slot>,
    x: Vec<Vector6<f64>>,
    g: Vec<f64>,
    lambda: Vec<f64>,
    /// Per body, whether the last contact push moved it (post-stabilization's scratch).
    moved: Vec<bool>,
    /// Velocity bias of each constraint row (see [`World::set_constraint_bias`]).
    bias: Vec<f64>,
    /// First row of each constraint.
    row_offset: Vec<usize>,
    /// The joints post-stabilization places bodies on (built by `prepare`).
    anchor_tree: AnchorTree,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("bodies", &self.bodies.len())
            .field("constraints", &self.constraints.len())
            .field("drives", &self.drives.len())
            .field("time", &self.time)
            .field("stabilization", &self.stabilization)
            .finish_non_exhaustive()
    }
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    /// An empty world: gravity (0, −9.81, 0), default post-stabilization, the linearly implicit step and the
    /// [`AutoSolver`] (O(n) tree solver, dense LU for loops; both allocation-free once sized).
    pub fn new() -> Self {
        let mut world = Self::with_solver(Box::new(AutoSolver::new()));
        world.scratch.default_solver = true;
        world
    }

    /// An empty world using `solver` for every linear solve.
    pub fn with_solver(solver: Box<dyn SaddlePointSolver + Send>) -> Self {
        World {
            bodies: Vec::new(),
            constraints: Vec::new(),
            drives: Vec::new(),
            user_forces: Vec::new(),
            springs: Vec::new(),
            forces: Vec::new(),
            gravity: Vector3::new(0.0, -9.81, 0.0),
            stabilization: Stabilization::default(),
            integrator: Integrator::default(),
            position_update: PositionUpdate::default(),
            post_stab_max_correction: 0.05,
            post_stab_reuse_factorisation: true,
            time: 0.0,
            dirty: true,
            contacts: ContactState::new(),
            scratch: StepScratch::with_solver(solver, false),
            drive_slots: Vec::new(),
            force_slots: Vec::new(),
            x: Vec::new(),
            g: Vec::new(),
            lambda: Vec::new(),
            moved: Vec::new(),
            bias: Vec::new(),
            row_offset: Vec::new(),
            anchor_tree: AnchorTree::default(),
        }
    }

    /// Replaces the solver (e.g. by the O(n) tree solver).
    ///
    /// A world with a solver of its own never exchanges its scratch ([`World::exchange_scratch`]).
    pub fn set_solver(&mut self, solver: Box<dyn SaddlePointSolver + Send>) {
        self.scratch.solver = solver;
        self.scratch.default_solver = false;
    }

    /// Exchanges this world's step scratch (its block system, force gradients and solver factors: buffers a step
    /// writes before it reads them) with `scratch` when both are sized for this world's structure and hold the
    /// default solver; a blank `scratch` first becomes a copy of this world's (one allocation). Returns whether
    /// they were exchanged.
    ///
    /// Stepping many worlds of one structure one after another on a thread (a crowd of one prepared clip),
    /// exchange before and after each step with that thread's scratch: the steps then work in buffers that stay
    /// in cache, while each world's own copy waits untouched, and every result is bit for bit the same as with
    /// the world's own buffers. [`crate::scene::Scene`] does this for its characters. Between the two exchanges
    /// the world holds `scratch`'s buffers, so [`World::system`] then shows them.
    pub fn exchange_scratch(&mut self, scratch: &mut StepScratch) -> bool {
        if scratch.is_blank() && !self.dirty && !self.scratch.is_blank() {
            *scratch = self.scratch.sized_like();
        }
        let same = self.scratch.same_layout(scratch);
        if same {
            self.scratch.share_layout(scratch);
            std::mem::swap(&mut self.scratch, scratch);
        }
        same
    }

    /// Sets the acceleration of gravity (m/s²).
    pub fn set_gravity(&mut self, g: Vector3<f64>) {
        self.gravity = g;
    }

    /// The acceleration of gravity (m/s²).
    pub fn gravity(&self) -> Vector3<f64> {
        self.gravity
    }

    /// Selects the stabilization.
    pub fn set_stabilization(&mut self, s: Stabilization) {
        self.stabilization = s;
    }

    /// Selects the integrator (the explicit one is for comparisons only).
    pub fn set_integrator(&mut self, i: Integrator) {
        self.integrator = i;
    }

    /// Selects which velocity moves the positions (the thesis' explicit Euler is for comparisons only).
    pub fn set_position_update(&mut self, p: PositionUpdate) {
        self.position_update = p;
    }

    /// Simulation time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Total kinetic energy (J).
    pub fn kinetic_energy(&self) -> f64 {
        self.bodies.iter().map(Body::kinetic_energy).sum()
    }

    /// Total gravitational potential energy `−Σ m·g·x` (J).
    pub fn potential_energy(&self) -> f64 {
        self.bodies
            .iter()
            .map(|b| -b.mass * self.gravity.dot(&b.position))
            .sum()
    }

    /// `(max|g|, largest anchor separation)` at the current state and time (m or rad; m).
    pub fn constraint_error(&mut self) -> (f64, f64) {
        if self.dirty {
            self.prepare();
        }
        let e = evaluate_constraints(
            &self.bodies,
            &self.constraints,
            self.time,
            &mut self.scratch.sys,
            &mut self.g,
        );
        (e, max_separation(&self.constraints, &self.g))
    }

    /// Advances the world by `h` seconds: forces and gradients at `t` (drive targets for `t + h`), the
    /// saddle-point solve for `v(t+h)` and the impulses, positions `x += h·v`, `q ← exp(h·ω)·q`, then the
    /// selected stabilization.
    pub fn step(&mut self, h: f64) -> Result<StepReport, StepError> {
        with_avx2!((world: &mut World = self, h: f64 = h) -> Result<StepReport, StepError> {
            world.step_kernel(h)
        })
    }

    /// [`World::step`]'s body, inlined into its baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn step_kernel(&mut self, h: f64) -> Result<StepReport, StepError> {
        if self.dirty || self.structure_changed() {
            self.prepare();
        }
        let t0 = self.time;
        let t_next = t0 + h;
        self.accumulate_forces();
        let implicit = self.integrator == Integrator::LinearlyImplicit;
        // Penalty contacts are forces of the step: their gradients go into M̃ like a drive's.
        let penalty = self.contacts.active() && self.contacts.penalty();
        if penalty {
            self.contacts.penalty_forces(
                &self.bodies,
                h,
                implicit,
                PenaltyTargets {
                    wrench: &mut self.scratch.wrench,
                    grad: self
                        .scratch
                        .body_grad
                        .all_full_mut()
                        .expect("penalty contacts size every body's gradients full (see prepare)"),
                },
            );
        }
        for (i, body) in self.bodies.iter().enumerate() {
            let mut m = Matrix6::zeros();
            m.fixed_view_mut::<3, 3>(0, 0)
                .copy_from(&self.scratch.inertia[i]);
            for d in 3..6 {
                m[(d, d)] = body.mass;
            }
            let v = body.velocity;
            // M·v by its blocks (`I·ω`, `m·v`): the 6×6 product's other terms are `0·v_j` (same values, a zero's
            // sign aside).
            let mv = twist(
                &(self.scratch.inertia[i] * angular(&v)),
                &(linear(&v) * body.mass),
            );
            if implicit {
                // M̃ = M − h²∂f/∂p − h∂f/∂v, entry by entry as the full 6×6 expression.
                self.scratch.sys.diag[i] =
                    self.scratch
                        .body_grad
                        .scaled(i, Some(&m), (DP, h * h), (DV, h));
                let dfdv_v = self.scratch.body_grad.mul_vec(i, DV, &v);
                self.scratch.rhs_a[i] = mv + (self.scratch.wrench[i] - dfdv_v) * h;
            } else {
                self.scratch.sys.diag[i] = m;
                self.scratch.rhs_a[i] = mv + self.scratch.wrench[i] * h;
            }
        }
        let fill = (0.0 * (-h * h) - 0.0 * h).to_bits();
        let filled = implicit && self.scratch.coupling_fill == Some(fill);
        self.scratch.coupling_fill = implicit.then_some(fill);
        for (s, c) in self.scratch.sys.couplings.iter_mut().enumerate() {
            if implicit {
                // Scaled by −h², −h rather than negated: a negated block is a slow element-wise pass.
                let g = &self.scratch.pair_grad;
                g.scaled_into(s, (PAIR_DP, -h * h), (PAIR_DV, h), &mut c.a_ij, filled);
                g.scaled_into(
                    s,
                    (PAIR_DP + 1, -h * h),
                    (PAIR_DV + 1, h),
                    &mut c.a_ji,
                    filled,
                );
                // f̃ = f − ∂f/∂v·v includes the cross terms.
                self.scratch.rhs_a[c.i] -= g.mul_vec(s, PAIR_DV, &self.bodies[c.j].velocity) * h;
                self.scratch.rhs_a[c.j] -=
                    g.mul_vec(s, PAIR_DV + 1, &self.bodies[c.i].velocity) * h;
            } else {
                c.a_ij.fill(0.0);
                c.a_ji.fill(0.0);
            }
        }
        evaluate_constraints(
            &self.bodies,
            &self.constraints,
            t0,
            &mut self.scratch.sys,
            &mut self.g,
        );
        let mut off = 0;
        for (c, block) in self.constraints.iter().zip(&self.scratch.sys.constraints) {
            let rows = c.rows();
            let b = &mut self.scratch.b[off..off + rows];
            if !c.velocity_target(&self.bodies, t_next, h, &block.ja, b) {
                let g = &self.g[off..off + rows];
                b.copy_from_slice(&self.bias[off..off + rows]);
                if let Stabilization::Baumgarte { alpha } = self.stabilization {
                    for (bi, gi) in b.iter_mut().zip(g) {
                        *bi -= alpha * gi;
                    }
                }
            }
            off += rows;
        }
        self.scratch
            .solver
            .factor(&self.scratch.sys)
            .map_err(|source| StepError::Solve { time: t0, source })?;
        self.scratch.solver.solve(
            &self.scratch.rhs_a,
            &self.scratch.b,
            &mut self.x,
            &mut self.lambda,
        );
        let mut contacts = ContactReport::default();
        if !self.contacts.active() {
            self.contacts.clear_results();
        } else if penalty {
            self.contacts.penalty_couple(
                PenaltySolve {
                    solver: self.scratch.solver.as_mut(),
                    rhs_a: &self.scratch.rhs_a,
                    b: &self.scratch.b,
                    x: &mut self.x,
                    lambda: &mut self.lambda,
                },
                &self.bodies,
            );
            contacts.contacts = self.contacts.points.len();
        } else {
            contacts = self.contacts.solve_velocity(StepSolve {
                solver: self.scratch.solver.as_mut(),
                bodies: &self.bodies,
                b: &self.scratch.b,
                x: &mut self.x,
                lambda: &mut self.lambda,
                h,
            });
        }
        if let Some(body) = self.x.iter().position(|v| !v.iter().all(|c| c.is_finite())) {
            return Err(StepError::NonFinite { time: t0, body });
        }
        let old_velocity = self.position_update == PositionUpdate::ThesisExplicitEuler;
        for (body, v) in self.bodies.iter_mut().zip(&self.x) {
            let moving = if old_velocity { body.velocity } else { *v };
            body.velocity = *v;
            body.position += linear(&moving) * h;
            body.orientation = exp_rotation(&(angular(&moving) * h)) * body.orientation;
            body.orientation.renormalize();
        }
        self.time = t_next;

        let post_stab = match self.stabilization {
            Stabilization::PostStab { max_iters, tol } => Some({
                // The step's right-hand side is spent: it becomes the projections' `a = 0`.
                self.scratch.rhs_a.fill(Vector6::zeros());
                post_stabilize(
                    &mut self.bodies,
                    &self.constraints,
                    t_next,
                    self.scratch.solver.as_mut(),
                    PostStabBuffers {
                        sys: &mut self.scratch.sys,
                        g: &mut self.g,
                        b: &mut self.scratch.b,
                        zero: &self.scratch.rhs_a,
                        dp: &mut self.x,
                        lambda: &mut self.lambda,
                        anchors: &self.anchor_tree,
                        moved: &mut self.moved,
                    },
                    // Penalty contacts are springs, not constraints: the projection corrects the joints only.
                    (self.contacts.active() && !penalty).then_some(&mut self.contacts),
                    max_iters,
                    tol,
                    self.post_stab_max_correction,
                    self.post_stab_reuse_factorisation,
                )
                .inspect(|r| {
                    if r.iterations > 0 {
                        // A projection may have refactored with `A = M` (coupling blocks zeroed).
                        self.scratch.coupling_fill = None;
                    }
                })
                .map_err(|source| {
                    self.scratch.coupling_fill = None;
                    StepError::Solve { time: t0, source }
                })?
            }),
            _ => None,
        };
        let constraint_error = match post_stab {
            // post_stabilize leaves g evaluated at the final state.
            Some(r) => r.error_after,
            // `g` alone: the Jacobian at the new positions is evaluated by the next step.
            None => evaluate_values(&self.bodies, &self.constraints, t_next, &mut self.g),
        };
        if self.contacts.active() {
            contacts.projections = post_stab.map_or(0, |r| r.contact_projections);
            contacts.max_penetration = self.contacts.max_penetration(&self.bodies);
            self.contacts.clear();
        }
        Ok(StepReport {
            constraint_error,
            max_separation: max_separation(&self.constraints, &self.g),
            post_stab,
            contacts,
        })
    }

    /// Sets the contacts of the next step (they hold for that step only; detect them again before each step).
    /// `free` holds bodies outside the world that contacts name as [`super::ContactOther::Free`] (projectiles):
    /// their velocity should be the one they would have at the end of the step without contact; after the step
    /// [`World::free_bodies`] has their velocities with the contact impulses applied. Errors leave the previous
    /// contact set in place.
    pub fn set_contacts(
        &mut self,
        contacts: &[ContactPoint],
        free: &[Body],
    ) -> Result<(), ContactError> {
        self.contacts.set(&self.bodies, contacts, free)
    }

    /// The impulse of each contact of the last step, in the order they were set (empty after a step without
    /// contacts).
    pub fn contact_impulses(&self) -> &[ContactImpulse] {
        &self.contacts.impulses
    }

    /// The free bodies of the last step, their velocities updated by the contact impulses (empty after a step
    /// without contacts).
    pub fn free_bodies(&self) -> &[Body] {
        &self.contacts.free
    }

    /// Selects the contact solver and friction model ([`ContactSolver::Penalty`] for penalty contact; switching
    /// to it is refused while the contacts set for the next step name a free body).
    pub fn set_contact_options(&mut self, options: ContactOptions) -> Result<(), ContactError> {
        validate_options(&options)?;
        if matches!(options.solver, ContactSolver::Penalty(_)) {
            refuse_free(&self.contacts.points)?;
        }
        self.contacts.options = options;
        Ok(())
    }

    /// The contact settings.
    pub fn contact_options(&self) -> ContactOptions {
        self.contacts.options
    }

    /// Sets the velocity bias of constraint `constraint`'s rows (m/s or rad/s, one value per row, zero by default):
    /// the step then asks `J·v(t+h) = bias` instead of 0 (plus the Baumgarte term when selected). A mocap
    /// character uses it to make its discrete reference exactly reachable: the chord of a rotating anchor is not
    /// on the tangent `J·v = 0` (see `docs/control.md`). Constraints with their own velocity target ignore it.
    pub fn set_constraint_bias(&mut self, constraint: usize, bias: &[f64]) {
        if self.dirty {
            self.prepare();
        }
        let start = self.row_offset[constraint];
        let rows = self.constraints[constraint].rows();
        let n = rows.min(bias.len());
        self.bias[start..start + n].copy_from_slice(&bias[..n]);
    }

    /// The constraint values `g` (m or rad, in constraint order) at the end of the last step or
    /// [`World::constraint_error`] call.
    pub fn constraint_values(&self) -> &[f64] {
        &self.g
    }

    /// The block system of the last factorisation (after a post-stabilization that refactored, the last
    /// projection's `[M, J]`; otherwise the step's `M̃` with `J` at the start of the step): for benchmarks of the
    /// solver alone. A world that exchanges its scratch ([`World::exchange_scratch`]) shows the buffers it holds
    /// now: after a scene's step, its own, which the last step did not use.
    pub fn system(&self) -> &BlockSystem {
        &self.scratch.sys
    }

    /// The constraint impulses `λ` of the last solve (N·s or N·m·s per row; after post-stabilization, the
    /// projection's multipliers instead).
    pub fn last_lambda(&self) -> &[f64] {
        &self.lambda
    }
}
