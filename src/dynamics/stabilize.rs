//! Constraint stabilization (Cline 2002 ch. 3): none, Baumgarte at velocity level, or post-stabilization.

use nalgebra::Vector6;

use super::anchor_tree::AnchorTree;
use super::body::Body;
use super::constraint::Constraint;
use super::system::{BlockSystem, SaddlePointSolver, SolveError};
use crate::contact::dynamics::ContactState;
use crate::contact::dynamics::position::Projection;

/// How constraint drift is corrected.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stabilization {
    /// Velocity-level constraints `J·v = 0` only: errors accumulate (Cline fig. 5.6).
    None,
    /// `J·v + α·g = 0` in the dynamics solve (`b = −α·g`); `alpha` in 1/s. With step `h`, `α·h = 1` removes the
    /// error in one step; `α·h > 1` over-corrects (jitter, Cline fig. 5.8).
    Baumgarte {
        /// Gain α (1/s).
        alpha: f64,
    },
    /// After each step, project positions with the mass-weighted least-norm correction
    /// `dp = −M⁻¹Jᵀ(J M⁻¹ Jᵀ)⁻¹ g(p)` (Cline eq. 3.6, `A = M`, `a = 0`, `b = −g`), applied as a twist
    /// displacement; re-evaluate `g` and repeat up to `max_iters` times until `max|g| ≤ tol`. The correction of
    /// one iteration is clamped to [`crate::dynamics::World::post_stab_max_correction`] (Cline §5.2.3: the
    /// linearisation fails for large errors). After an unclamped projection the bodies are placed on their joint
    /// anchors exactly (translations only, along a spanning tree of the joints), which ends the projection's
    /// second-order remainder (`docs/dynamics.md`, "Placement on the anchors").
    PostStab {
        /// Maximum number of projections per step (≥ 1).
        max_iters: usize,
        /// Stop when the largest constraint error is at most this (m or rad).
        tol: f64,
    },
}

impl Default for Stabilization {
    /// Post-stabilization with up to 3 projections to 1e-10.
    fn default() -> Self {
        Stabilization::PostStab {
            max_iters: 3,
            tol: 1e-10,
        }
    }
}

/// Writes every constraint's `g(p, t)` into `g` and its Jacobian into `sys.constraints`; returns `max|g|`.
#[inline]
pub(crate) fn evaluate_constraints(
    bodies: &[Body],
    constraints: &[Box<dyn Constraint>],
    t: f64,
    sys: &mut BlockSystem,
    g: &mut [f64],
) -> f64 {
    let mut off = 0;
    let mut worst: f64 = 0.0;
    for (c, block) in constraints.iter().zip(sys.constraints.iter_mut()) {
        let rows = c.rows();
        block.ja.fill(0.0);
        block.jb.fill(0.0);
        c.evaluate(
            bodies,
            t,
            &mut g[off..off + rows],
            &mut block.ja,
            &mut block.jb,
        );
        for v in &g[off..off + rows] {
            worst = worst.max(v.abs());
        }
        off += rows;
    }
    worst
}

/// Writes every constraint's `g(p, t)` into `g` (the same bits as [`evaluate_constraints`]) and returns `max|g|`;
/// the Jacobian blocks in `sys` are left as they were.
pub(crate) fn evaluate_values(
    bodies: &[Body],
    constraints: &[Box<dyn Constraint>],
    t: f64,
    g: &mut [f64],
) -> f64 {
    let mut off = 0;
    let mut worst: f64 = 0.0;
    for c in constraints {
        let rows = c.rows();
        c.value(bodies, t, &mut g[off..off + rows]);
        for v in &g[off..off + rows] {
            worst = worst.max(v.abs());
        }
        off += rows;
    }
    worst
}

/// Largest anchor separation `|p_a − p_b|` (m) over the constraints with anchor rows, from a filled `g`.
#[inline(always)]
pub(crate) fn max_separation(constraints: &[Box<dyn Constraint>], g: &[f64]) -> f64 {
    let mut off = 0;
    let mut worst: f64 = 0.0;
    for c in constraints {
        if c.has_anchor_rows() {
            let s = (g[off] * g[off] + g[off + 1] * g[off + 1] + g[off + 2] * g[off + 2]).sqrt();
            worst = worst.max(s);
        }
        off += c.rows();
    }
    worst
}

/// Buffers of one post-stabilization run, borrowed from the world.
pub(crate) struct PostStabBuffers<'a> {
    pub sys: &'a mut BlockSystem,
    pub g: &'a mut [f64],
    pub b: &'a mut [f64],
    pub zero: &'a [Vector6<f64>],
    pub dp: &'a mut [Vector6<f64>],
    pub lambda: &'a mut [f64],
    /// The joints that place the bodies on their anchors after an unclamped projection.
    pub anchors: &'a AnchorTree,
    /// Per body, whether a contact push moved it (scratch of the push's placement).
    pub moved: &'a mut [bool],
}

/// Moves the bodies by `dp`; after an unclamped projection (`scale` 1) places them on their anchors, which
/// leaves the anchors off by the projection's second-order remainder alone (≈ 1e-7 m after a 1e-4 m error)
/// instead of leaving it to two more projections.
fn displace_and_place(
    bodies: &mut [Body],
    constraints: &[Box<dyn Constraint>],
    dp: &[Vector6<f64>],
    anchors: &AnchorTree,
    scale: f64,
) {
    for (body, d) in bodies.iter_mut().zip(dp) {
        body.displace(d);
    }
    if scale == 1.0 {
        anchors.place(bodies, constraints);
    }
}

/// Moves the bodies by a contact push, which is zero outside the pushed legs (a response solve): a body with a
/// zero twist keeps its pose (displacing it would only renormalise its orientation), and after an unclamped
/// projection only the joints below a pushed body are placed ([`AnchorTree::place_moved`]).
fn displace_pushed(
    bodies: &mut [Body],
    constraints: &[Box<dyn Constraint>],
    dp: &[Vector6<f64>],
    buf_moved: &mut [bool],
    anchors: &AnchorTree,
    scale: f64,
) {
    for ((body, d), moved) in bodies.iter_mut().zip(dp).zip(buf_moved.iter_mut()) {
        *moved = *d != Vector6::zeros();
        if *moved {
            body.displace(d);
        }
    }
    if scale == 1.0 {
        anchors.place_moved(bodies, constraints, buf_moved);
    }
}

/// Outcome of a post-stabilization run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PostStabReport {
    /// Projections performed (with the step's factorisation or a fresh one).
    pub iterations: usize,
    /// `max|g|` before the first projection (m or rad).
    pub error_before: f64,
    /// `max|g|` after the last projection (m or rad).
    pub error_after: f64,
    /// Projections that needed contact impulses (the position LCP of eq. 3.7).
    pub contact_projections: usize,
}

/// Largest ratio `err_after / err_before` of a projection with the step's factorisation for which the next one
/// reuses it too; a slower contraction switches to fresh factorisations of `[M, J(p)]`.
const CHORD_MIN_CONTRACTION: f64 = 0.05;

/// Most projections with the step's factorisation per post-stabilization (they do not count towards
/// `max_iters`, which bounds the factorisations).
const MAX_CHORD_PASSES: usize = 6;

/// Post-stabilizes `bodies` at time `t` (see [`Stabilization::PostStab`]).
///
/// With `reuse_step_factor`, the solver still holds the factorisation of the step's `[M̃, J(p_t)]`, and the
/// first projections use it (a chord iteration): any `A` gives a `dp` with `J(p_t)·dp = −g(p_{t+h})`, a valid
/// correction whose residual is of the order of `‖J(p_{t+h}) − J(p_t)‖·‖dp‖ = O(h·ω·g)`; it costs one solve
/// instead of a factor + solve. As soon as one chord projection contracts the error by less than
/// [`CHORD_MIN_CONTRACTION`] (or after [`MAX_CHORD_PASSES`]), the remaining projections refactor `[M, J(p)]` at
/// the current positions (Newton); `max_iters` bounds those, so the tolerance is honoured as without reuse.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn post_stabilize(
    bodies: &mut [Body],
    constraints: &[Box<dyn Constraint>],
    t: f64,
    solver: &mut dyn SaddlePointSolver,
    buf: PostStabBuffers<'_>,
    mut contacts: Option<&mut ContactState>,
    max_iters: usize,
    tol: f64,
    max_correction: f64,
    reuse_step_factor: bool,
) -> Result<PostStabReport, SolveError> {
    let penetration = |bodies: &[Body], c: &Option<&mut ContactState>| {
        c.as_ref().map_or(0.0, |c| c.max_penetration(bodies))
    };
    // The Jacobian at the current positions is needed only by a Newton projection's factorisation (a chord
    // projection solves with the step's factors, and the contact rows come from the bodies), so the checks
    // evaluate `g` alone and the Jacobian is evaluated when a refactorisation needs it: most steps need no
    // projection at all. (With contacts the checks evaluated the Jacobian too, until the eighth pass: 10.9 k
    // instructions of the 8-contact step, for nothing.)
    let evaluate = |bodies: &[Body], g: &mut [f64]| evaluate_values(bodies, constraints, t, g);
    let mut joint_err = evaluate(bodies, buf.g);
    let mut err = joint_err.max(penetration(bodies, &contacts));
    let error_before = err;
    let mut contact_projections = 0;
    let mut iterations = 0;
    let mut newton = 0;
    let mut chord = reuse_step_factor;
    while newton < max_iters && err > tol {
        if chord && iterations >= MAX_CHORD_PASSES {
            chord = false;
        }
        if !chord {
            // The same positions as the last check: the same `g` bits, now with `J(p)`.
            evaluate_constraints(bodies, constraints, t, buf.sys, buf.g);
            for (d, body) in buf.sys.diag.iter_mut().zip(bodies.iter()) {
                *d = body.mass_matrix();
            }
            for c in buf.sys.couplings.iter_mut() {
                c.a_ij.fill(0.0);
                c.a_ji.fill(0.0);
            }
            solver.factor(buf.sys)?;
            newton += 1;
        }
        // Clamp: correct at most `max_correction` of the worst error per projection, where the linearisation
        // of g is still trustworthy.
        let scale = if err > max_correction {
            max_correction / err
        } else {
            1.0
        };
        for (bi, gi) in buf.b.iter_mut().zip(buf.g.iter()) {
            *bi = -scale * gi;
        }
        if joint_err <= tol {
            // The joints are within the tolerance (placed on their anchors): only the contacts are off.
            buf.lambda.fill(0.0);
        } else {
            solver.solve(buf.zero, buf.b, buf.dp, buf.lambda);
            displace_and_place(bodies, constraints, buf.dp, buf.anchors, scale);
        }
        if let Some(c) = contacts.as_deref_mut() {
            // The push sees the gaps where the joint projection and the placement left the contacts: the
            // placement's second-order translation (up to ≈ 1e-6 m at the feet after a 2e-3 rad correction) is in
            // them, where a push computed with `dp*` before the placement left it inside the floor for another
            // projection (`contact/position.rs`).
            if c.max_penetration(bodies) > 0.0 {
                let pushed = c.project(Projection {
                    solver: &mut *solver,
                    bodies,
                    b: buf.b,
                    dp: buf.dp,
                    lambda: buf.lambda,
                    scale,
                    refactored: !chord,
                });
                if pushed {
                    contact_projections += 1;
                    displace_pushed(bodies, constraints, buf.dp, buf.moved, buf.anchors, scale);
                }
            }
        }
        iterations += 1;
        let previous = err;
        joint_err = evaluate(bodies, buf.g);
        err = joint_err.max(penetration(bodies, &contacts));
        // A clamped projection only aims at (1 − scale)·previous.
        if chord && err > ((1.0 - scale) + CHORD_MIN_CONTRACTION * scale) * previous {
            chord = false;
        }
    }
    Ok(PostStabReport {
        iterations,
        error_before,
        error_after: err,
        contact_projections,
    })
}
