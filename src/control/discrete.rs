//! The discrete-step inverse dynamics: the feedforward that makes flinch's own linearly implicit, maximal-
//! coordinate step land exactly on the next reference sample (MuJoCo's `invdiscrete` idea, for our integrator).
//!
//! On the reference at sample `k` (poses `P_k`, body twists `V_k`), the step must produce `V_{k+1}`, the body
//! twists that carry `P_k` to `P_{k+1}` under the position update (`x += h·v`, `q ← exp(h·ω)·q`):
//! `ω = log(R_{k+1}·R_k⁻¹)/h`, `v = (c_{k+1} − c_k)/h`. The step reads, per body,
//! `M·(V⁺ − V)/h = f + h·∂f/∂p·V⁺ + ∂f/∂v·(V⁺ − V) + Jᵀλ/h + Hᵀτ`, so the required net wrench is
//! `W = M·ΔV/h − (gyroscopic and gravity, linearized as the step does)`; leaf to root it becomes the joint wrenches
//! ([`super::inverse::propagate_to_joints`]). Three more things make the step exact:
//! - the anchor rows ask `J(P_k)·V⁺ = b_k` with `b_k` the chord's anchor velocity (not 0: a rotating anchor's
//!   chord leaves the tangent by `O(h·ω²·r)`);
//! - the drive's feedforward is held in the parent's axes, which the implicit step turns by `h·ω_p⁺`: the stored
//!   torque is `(I + h[ω_p⁺]×)⁻¹` of the needed one;
//! - the drive's damping sees zero error when the target velocity is `R_pᵀ(Δω⁺ + h·Δω × ω_p⁺)` (its implicit
//!   linearization, axes turning included); the stiffness term's residual is `O(h²·ω²)` rad, ≈ 1e-5 rad here.

use nalgebra::{Matrix3, Vector3};

use super::inverse::{JointWrenches, propagate_to_joints};
use super::kinematics::{Placement, Topology};
use super::reference::Dofs;
use crate::math::log_rotation;
use crate::math::spatial::cross_matrix;
use nalgebra::UnitQuaternion;

/// Body twists `(ω, v_com)` (world) per body.
pub type Twists = Vec<(Vector3<f64>, Vector3<f64>)>;

/// The twists that carry poses `a` to poses `b` in one step of `h`.
pub fn chord_twists<P: Placement>(a: &[P], b: &[P], h: f64, out: &mut Twists) {
    out.clear();
    out.extend(a.iter().zip(b).map(|(a, b)| {
        (
            log_rotation(&(b.rotation() * a.rotation().inverse())) / h,
            (b.com() - a.com()) / h,
        )
    }));
}

/// The joint wrenches (world, about each anchor at `P_k`) that make the implicit step go from twists `v` to `v1`.
pub fn step_wrenches<P: Placement>(
    topo: &Topology,
    kin: &[P],
    v: &Twists,
    v1: &Twists,
    h: f64,
    gravity: &Vector3<f64>,
    out: &mut JointWrenches,
) {
    let inertia = |b: usize| topo.inertia_world(b, kin[b].rotation());
    step_wrenches_by(topo, kin, inertia, v, v1, h, gravity, out);
}

/// [`step_wrenches`] with each body's world inertia given (`inertia[b]`, from [`Topology::inertia_world`]), for
/// a caller that needs them more than once per step.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_wrenches_with<P: Placement>(
    topo: &Topology,
    kin: &[P],
    inertia: &[Matrix3<f64>],
    v: &Twists,
    v1: &Twists,
    h: f64,
    gravity: &Vector3<f64>,
    out: &mut JointWrenches,
) {
    step_wrenches_by(topo, kin, |b| inertia[b], v, v1, h, gravity, out);
}

/// The step wrenches with body `b`'s world inertia from `inertia(b)` (computed or looked up; no allocation).
#[allow(clippy::too_many_arguments)]
fn step_wrenches_by<P: Placement>(
    topo: &Topology,
    kin: &[P],
    inertia: impl Fn(usize) -> Matrix3<f64>,
    v: &Twists,
    v1: &Twists,
    h: f64,
    gravity: &Vector3<f64>,
    out: &mut JointWrenches,
) {
    out.force.clear();
    out.torque.clear();
    for b in 0..kin.len() {
        push_step_wrench(topo, b, &inertia(b), v[b], v1[b], h, gravity, out);
    }
    propagate_to_joints(topo, kin, out);
}

/// Appends body `b`'s net wrench at its CoM for the step from twist `(w, lin)` to `(w1, lin1)`, `i` its world
/// inertia.
#[allow(clippy::too_many_arguments)]
fn push_step_wrench(
    topo: &Topology,
    b: usize,
    i: &Matrix3<f64>,
    (w, lin): (Vector3<f64>, Vector3<f64>),
    (w1, lin1): (Vector3<f64>, Vector3<f64>),
    h: f64,
    gravity: &Vector3<f64>,
    out: &mut JointWrenches,
) {
    let i = *i;
    // The gyroscopic torque −ω × Iω and its gradients, as `Body::gyroscopic` gives them to the step.
    let iw = i * w;
    let (cw, ciw) = (cross_matrix(&w), cross_matrix(&iw));
    // `[ω]×·I` enters both gradients: computed once (the same product, so the same bits).
    let cwi = cw * i;
    let dp: Matrix3<f64> = cw * ciw - cwi * cw;
    let dv: Matrix3<f64> = ciw - cwi;
    let predicted = -w.cross(&iw) + dp * w1 * h + dv * (w1 - w);
    out.torque.push(i * (w1 - w) / h - predicted);
    out.force.push(topo.mass[b] * ((lin1 - lin) / h - gravity));
}

/// The anchor-row velocity bias `J(P_k)·V⁺` of body `b`'s joint (m/s, world).
// Inlinable across modules: the preprocessing calls it for every joint of every sample.
#[inline]
pub fn anchor_bias<P: Placement>(
    topo: &Topology,
    kin: &[P],
    v1: &Twists,
    b: usize,
) -> Vector3<f64> {
    let p = topo.parent[b];
    let anchor = kin[b].origin();
    let point = |i: usize| v1[i].1 + v1[i].0.cross(&(anchor - kin[i].com()));
    point(b) - point(p)
}

/// `(I + [a]×)⁻¹·x`.
pub fn solve_skew(a: &Vector3<f64>, x: &Vector3<f64>) -> Vector3<f64> {
    (x - a.cross(x) + a * a.dot(x)) / (1.0 + a.norm_squared())
}

/// What the drive of body `b` needs for one step, from the discrete inverse dynamics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointStepTargets {
    /// Feedforward torque (N·m, joint frame, free axes), held in the parent's axes as the step turns them.
    pub feedforward: Vector3<f64>,
    /// Drive target velocity (rad/s, parent frame): the zero of the drive's implicit damping linearization.
    pub target_velocity: Vector3<f64>,
    /// Anchor-row velocity bias (m/s, world).
    pub anchor_bias: Vector3<f64>,
}

/// The step targets of body `b`'s joint for the step from poses `kin` (twists `v`) to twists `v1`, given the
/// joint wrenches `step` of [`step_wrenches`]; `joint_frame` and `dofs` are the joint's.
#[allow(clippy::too_many_arguments)]
pub fn joint_step_targets<P: Placement>(
    topo: &Topology,
    kin: &[P],
    v: &Twists,
    v1: &Twists,
    step: &JointWrenches,
    joint_frame: &UnitQuaternion<f64>,
    dofs: Dofs,
    h: f64,
    b: usize,
) -> JointStepTargets {
    let axes = kin[topo.parent[b]].rotation() * joint_frame;
    joint_step_targets_in(topo, kin, v, v1, step, &axes, dofs, h, b)
}

/// [`joint_step_targets`] with the joint's world axes `axes` (`R_parent·joint_frame`) given, for a caller that
/// already has them (the continuous inverse dynamics turns its torques by the same quaternion).
#[allow(clippy::too_many_arguments)]
pub(crate) fn joint_step_targets_in<P: Placement>(
    topo: &Topology,
    kin: &[P],
    v: &Twists,
    v1: &Twists,
    step: &JointWrenches,
    axes: &UnitQuaternion<f64>,
    dofs: Dofs,
    h: f64,
    b: usize,
) -> JointStepTargets {
    let p = topo.parent[b];
    let held = solve_skew(&(v1[p].0 * h), &step.torque[b]);
    let (dw, dw1) = (v[b].0 - v[p].0, v1[b].0 - v1[p].0);
    JointStepTargets {
        feedforward: dofs.free_part(&(axes.inverse() * held)),
        target_velocity: kin[p].rotation().inverse() * (dw1 + h * dw.cross(&v1[p].0)),
        anchor_bias: anchor_bias(topo, kin, v1, b),
    }
}
