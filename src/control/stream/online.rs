//! The streamed step's online inverse dynamics in one pass per body: the same quantities as the preprocessing's
//! [`crate::control::discrete`] functions and the closed-form drive correction
//! ([`crate::control::residual::drive_correction_on_path`]), equal up to round-off, arranged for a step computed
//! every time a target arrives.
//!
//! Every body's rotation matrix is made once, when its pose is placed ([`poses_with_matrices`]), and serves its
//! world inertia, its children's anchors and CoMs, and every vector that changes frame: a matrix–vector product
//! is 9 multiplications where a quaternion rotation is 15 or more, and the inertia is applied in the body's own
//! frame (no `R·I·Rᵀ`). The joint-space quantities are taken in the joint axes `A = R_p·F` directly (cross
//! products and `(I + [a]×)⁻¹` commute with rotations), so each joint turns each vector once.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};

use crate::control::discrete::{JointStepTargets, Twists, anchor_bias};
use crate::control::gains::JointGains;
use crate::control::inverse::{JointWrenches, propagate_to_joints};
use crate::control::kinematics::{BodyPose, Topology};
use crate::control::reference::Dofs;
use crate::math::rotation::{
    apply_left_jacobian_inverse, log_rotation, log_rotation_with_jacobian_coefficient,
};
use crate::math::small::mul;

/// `Rᵀ·x`: the world vector `x` in the frame whose axes are `r`'s columns (three dot products; no transposed
/// copy of `r`).
#[inline(always)]
pub(crate) fn tr_mul(r: &Matrix3<f64>, x: &Vector3<f64>) -> Vector3<f64> {
    let m = r.as_slice();
    Vector3::new(
        m[0] * x[0] + m[1] * x[1] + m[2] * x[2],
        m[3] * x[0] + m[4] * x[1] + m[5] * x[2],
        m[6] * x[0] + m[7] * x[1] + m[8] * x[2],
    )
}

/// [`Topology::poses`] with each body's rotation matrix into `mats` (both resized to the bodies, written in
/// place): the parent's matrix places the anchor and the body's own its CoM, and the matrices are kept for the
/// step's inertias and frame changes. The same poses up to round-off.
pub(crate) fn poses_with_matrices(
    topo: &Topology,
    root_pos: &Vector3<f64>,
    rot: &[UnitQuaternion<f64>],
    out: &mut Vec<BodyPose>,
    mats: &mut Vec<Matrix3<f64>>,
) {
    let n = topo.len().min(rot.len());
    out.resize(n, BodyPose::default());
    mats.resize(n, Matrix3::identity());
    for b in 0..n {
        let (rotation, origin) = match topo.parent[b] {
            usize::MAX => (rot[b], *root_pos),
            p => (
                out[p].rotation * rot[b],
                out[p].origin + mul(&mats[p], &topo.anchor[b]),
            ),
        };
        let r = rotation.to_rotation_matrix().into_inner();
        out[b] = BodyPose {
            rotation,
            origin,
            com: origin + mul(&r, &topo.com[b]),
        };
        mats[b] = r;
    }
}

/// [`poses_with_matrices`] of the step's target `(root_pos, rot)` and, in the same pass, the chord twists
/// ([`crate::control::discrete::chord_twists`]) that carry the poses `from` there in `h` (into `twists`,
/// resized): each body's pose is read once while it is at hand, and `1/h` multiplies instead of six divisions
/// per body. The same twists up to round-off.
#[allow(clippy::too_many_arguments)]
pub(crate) fn place_step(
    topo: &Topology,
    root_pos: &Vector3<f64>,
    rot: &[UnitQuaternion<f64>],
    from: &[BodyPose],
    h: f64,
    out: &mut Vec<BodyPose>,
    mats: &mut Vec<Matrix3<f64>>,
    twists: &mut Twists,
) {
    poses_with_matrices(topo, root_pos, rot, out, mats);
    let inv_h = 1.0 / h;
    twists.resize(out.len(), (Vector3::zeros(), Vector3::zeros()));
    for ((t, b), a) in twists.iter_mut().zip(out.iter()).zip(from) {
        *t = (
            log_rotation(&(b.rotation * a.rotation.inverse())) * inv_h,
            (b.com - a.com) * inv_h,
        );
    }
}

/// `(I + [a]×)⁻¹·x` ([`crate::control::discrete::solve_skew`]) with the reciprocal `inv = 1/(1 + |a|²)` given: a
/// joint solves twice with the same `a`, so one division serves both (the same up to round-off).
#[inline(always)]
fn solve_skew_with(a: &Vector3<f64>, inv: f64, x: &Vector3<f64>) -> Vector3<f64> {
    (x - a.cross(x) + a * a.dot(x)) * inv
}

/// [`crate::control::discrete::step_wrenches`] for the streamed step (one instant, computed online), with each
/// body's rotation matrix `mats[b]` given: the angular velocities are taken into the body frame, the body-frame
/// inertia applied there (three products with `I` instead of forming `R·I·Rᵀ`), and the torque turned back once.
/// The gyroscopic gradients are applied to their vectors (`∂/∂p·ω⁺ = ω × (Iω × ω⁺) − ω × I(ω × ω⁺)`,
/// `∂/∂v·y = Iω × y − ω × Iy`); cross products commute with the rotation, so these are the same wrenches up to
/// round-off. `out` is resized and written in place.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_wrenches_with_matrices(
    topo: &Topology,
    kin: &[BodyPose],
    mats: &[Matrix3<f64>],
    v: &Twists,
    v1: &Twists,
    h: f64,
    gravity: &Vector3<f64>,
    out: &mut JointWrenches,
) {
    let n = kin.len();
    out.force.resize(n, Vector3::zeros());
    out.torque.resize(n, Vector3::zeros());
    let inv_h = 1.0 / h;
    for b in 0..n {
        let (r, i) = (&mats[b], &topo.inertia[b]);
        let ((w, lin), (w1, lin1)) = (v[b], v1[b]);
        let (w, w1) = (tr_mul(r, &w), tr_mul(r, &w1));
        let y = w1 - w;
        let (iw, iy) = (mul(i, &w), mul(i, &y));
        let dp_w1 = w.cross(&iw.cross(&w1)) - w.cross(&mul(i, &w.cross(&w1)));
        let dv_y = iw.cross(&y) - w.cross(&iy);
        let predicted = -w.cross(&iw) + dp_w1 * h + dv_y;
        out.torque[b] = mul(r, &(iy * inv_h - predicted));
        out.force[b] = topo.mass[b] * ((lin1 - lin) * inv_h - gravity);
    }
    propagate_to_joints(topo, kin, out);
}

/// One joint on the streamed step: its targets ([`crate::control::discrete::joint_step_targets`]) and what its
/// drive correction reads besides the rotation error and the gains, all taken into the joint axes or the parent's
/// frame once.
pub(crate) struct JointOnPath {
    /// The step targets (feedforward, target velocity, anchor bias).
    pub targets: JointStepTargets,
    /// `Aᵀω⁺_p`: the parent's angular velocity at the end of the step, joint axes.
    w1p_a: Vector3<f64>,
    /// `Aᵀu`, `u = Δω⁺ − Δω + hΔω × ω⁺_p` (the damping's velocity error before the target velocity).
    u_a: Vector3<f64>,
    /// `R_pᵀ·hΔω⁺`: the step's relative turn, parent frame.
    turn_p: Vector3<f64>,
    /// `1/(1 + |hω⁺_p|²)`, the axes' turn solve's divisor (both solves share it).
    inv_turn: f64,
}

/// Body `b`'s joint on the step from poses `kin` (rotation matrices `mats`, twists `v`) to twists `v1`, with the
/// joint wrenches `step` of [`step_wrenches_with_matrices`] and the joint frame's matrix `frame` (`F`, parent
/// frame → joint axes). The feedforward `(I + h[ω⁺_p]×)⁻¹` is solved in the joint axes, where it is needed.
#[allow(clippy::too_many_arguments)]
pub(crate) fn joint_on_path(
    topo: &Topology,
    kin: &[BodyPose],
    mats: &[Matrix3<f64>],
    v: &Twists,
    v1: &Twists,
    step: &JointWrenches,
    frame: &Matrix3<f64>,
    dofs: Dofs,
    h: f64,
    b: usize,
) -> JointOnPath {
    let p = topo.parent[b];
    let rp = &mats[p];
    let a = mul(rp, frame);
    let w1p = v1[p].0;
    let (dw, dw1) = (v[b].0 - v[p].0, v1[b].0 - w1p);
    // The target velocity in the world (`R_p` times the drive's): the zero of its damping linearization.
    let velocity = dw1 + h * dw.cross(&w1p);
    let w1p_a = tr_mul(&a, &w1p);
    let turn_a = w1p_a * h;
    let inv_turn = 1.0 / (1.0 + turn_a.norm_squared());
    let held = solve_skew_with(&turn_a, inv_turn, &tr_mul(&a, &step.torque[b]));
    JointOnPath {
        targets: JointStepTargets {
            feedforward: dofs.free_part(&held),
            target_velocity: tr_mul(rp, &velocity),
            anchor_bias: anchor_bias(topo, kin, v1, b),
        },
        w1p_a,
        u_a: tr_mul(&a, &(velocity - dw)),
        turn_p: tr_mul(rp, &(dw1 * h)),
        inv_turn,
    }
}

impl JointOnPath {
    /// [`crate::control::residual::drive_correction_on_path`] for this joint, its drive's frame the joint frame
    /// (`frame`, as [`joint_on_path`]'s): `error` is the joint rotation reached times the target's inverse
    /// (`R_p⁻¹R_c·q_target⁻¹`, from the stream's generalized rotations without forming the bodies' product),
    /// `gain_torque` what the gains follow. The same correction up to round-off.
    pub(crate) fn correction(
        &self,
        error: &UnitQuaternion<f64>,
        frame: &Matrix3<f64>,
        gains: &JointGains,
        dofs: Dofs,
        gain_torque: &Vector3<f64>,
        h: f64,
    ) -> Vector3<f64> {
        let (k, d) = gains.per_axis(gain_torque, |a| dofs.is_free(a));
        let (e, c) = log_rotation_with_jacobian_coefficient(error);
        let jx = apply_left_jacobian_inverse(&e, c, &self.turn_p);
        let tau_f = -k.component_mul(&tr_mul(frame, &e)) + d.component_mul(&self.u_a);
        let inner = -k.component_mul(&tr_mul(frame, &(e + jx))) - tau_f.cross(&self.w1p_a) * h;
        dofs.free_part(&solve_skew_with(
            &(self.w1p_a * h),
            self.inv_turn,
            &(-inner),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::discrete::{chord_twists, joint_step_targets, step_wrenches};
    use crate::control::residual::{PathDrive, drive_correction_on_path};
    use crate::dynamics::JointDrive;
    use crate::math::rotation::exp_rotation;

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64) / ((1u64 << 53) as f64) - 0.5
    }

    fn vec3(seed: &mut u64, scale: f64) -> Vector3<f64> {
        Vector3::new(lcg(seed), lcg(seed), lcg(seed)) * scale
    }

    /// A small random tree: a root, a chain and a branch, with full (non-diagonal) inertias.
    fn topology(seed: &mut u64) -> Topology {
        let parent = vec![usize::MAX, 0, 1, 2, 1, 4];
        let n = parent.len();
        Topology {
            anchor: (0..n)
                .map(|b| {
                    if b == 0 {
                        Vector3::zeros()
                    } else {
                        vec3(seed, 0.6)
                    }
                })
                .collect(),
            joint: (0..n)
                .map(|b| if b == 0 { usize::MAX } else { b - 1 })
                .collect(),
            com: (0..n).map(|_| vec3(seed, 0.3)).collect(),
            mass: (0..n).map(|_| 1.0 + lcg(seed).abs() * 5.0).collect(),
            inertia: (0..n)
                .map(|_| {
                    let m = Matrix3::from_fn(|_, _| lcg(seed));
                    m * m.transpose() + Matrix3::identity() * 0.1
                })
                .collect(),
            parent,
        }
    }

    /// The fused pass against the separate functions (poses, wrenches, joint targets, drive correction) on
    /// random poses: equal to round-off.
    #[test]
    fn the_fused_step_matches_the_separate_functions() {
        let mut seed = 11;
        let topo = topology(&mut seed);
        let n = topo.len();
        let h = 1.0 / 120.0;
        let gravity = Vector3::new(0.0, -9.81, 0.0);
        let pose = |seed: &mut u64| -> (Vector3<f64>, Vec<UnitQuaternion<f64>>) {
            (
                vec3(seed, 1.0),
                (0..n).map(|_| exp_rotation(&vec3(seed, 3.0))).collect(),
            )
        };
        let (r0, q0) = pose(&mut seed);
        // The next two poses a step's turn away.
        let (r1, q1) = (
            r0 + vec3(&mut seed, 0.02),
            q0.iter()
                .map(|q| q * exp_rotation(&vec3(&mut seed, 0.1)))
                .collect::<Vec<_>>(),
        );
        let (r2, q2) = (
            r1 + vec3(&mut seed, 0.02),
            q1.iter()
                .map(|q| q * exp_rotation(&vec3(&mut seed, 0.1)))
                .collect::<Vec<_>>(),
        );
        let (mut k0, mut k1, mut k2) = (Vec::new(), Vec::new(), Vec::new());
        topo.poses(&r0, &q0, &mut k0);
        topo.poses(&r1, &q1, &mut k1);
        topo.poses(&r2, &q2, &mut k2);
        let (mut m1, mut f1) = (Vec::new(), Vec::new());
        poses_with_matrices(&topo, &r1, &q1, &mut f1, &mut m1);
        for (a, b) in k1.iter().zip(&f1) {
            assert!((a.origin - b.origin).amax() <= 1e-14 && (a.com - b.com).amax() <= 1e-14);
            assert_eq!(a.rotation, b.rotation);
        }
        let (mut v, mut v1) = (Vec::new(), Vec::new());
        chord_twists(&k0, &k1, h, &mut v);
        chord_twists(&k1, &k2, h, &mut v1);
        let (mut f2, mut m2, mut placed) = (Vec::new(), Vec::new(), Vec::new());
        place_step(&topo, &r2, &q2, &f1, h, &mut f2, &mut m2, &mut placed);
        for (a, b) in v1.iter().zip(&placed) {
            assert!((a.0 - b.0).amax() <= 1e-12 && (a.1 - b.1).amax() <= 1e-12);
        }
        let (mut expected, mut fused) = (JointWrenches::default(), JointWrenches::default());
        step_wrenches(&topo, &k1, &v, &v1, h, &gravity, &mut expected);
        step_wrenches_with_matrices(&topo, &f1, &m1, &v, &v1, h, &gravity, &mut fused);
        let scale = expected.torque.iter().map(|t| t.amax()).fold(1.0, f64::max);
        for b in 0..n {
            assert!((expected.torque[b] - fused.torque[b]).amax() <= 1e-12 * scale);
            assert!((expected.force[b] - fused.force[b]).amax() <= 1e-12 * scale);
        }
        let gains = JointGains {
            k_s: 3.0,
            k_min: 20.0,
            k_d: 0.3,
            d_min: 2.0,
        };
        for b in 1..n {
            let p = topo.parent[b];
            let frame = exp_rotation(&vec3(&mut seed, 3.0));
            let fm = frame.to_rotation_matrix().into_inner();
            for dofs in [Dofs::Ball, Dofs::Hinge, Dofs::Universal] {
                let t = joint_step_targets(&topo, &k1, &v, &v1, &expected, &frame, dofs, h, b);
                let j = joint_on_path(&topo, &f1, &m1, &v, &v1, &fused, &fm, dofs, h, b);
                let tol = 1e-12 * (1.0 + t.feedforward.amax() + t.target_velocity.amax());
                assert!((t.feedforward - j.targets.feedforward).amax() <= tol);
                assert!((t.target_velocity - j.targets.target_velocity).amax() <= tol);
                assert!((t.anchor_bias - j.targets.anchor_bias).amax() <= tol);
                let drive = JointDrive {
                    child: b,
                    parent: Some(p),
                    frame,
                    stiffness: Vector3::zeros(),
                    damping: Vector3::zeros(),
                    target_rotation: UnitQuaternion::identity(),
                    target_velocity: Vector3::zeros(),
                    feedforward: Vector3::zeros(),
                };
                let axes = k1[p].rotation * frame;
                let gain_torque = t.feedforward;
                let expected = drive_correction_on_path(
                    &drive,
                    &PathDrive {
                        target_rotation: q2[b],
                        gain_torque,
                        axes,
                        rotation: (k1[b].rotation, k1[p].rotation),
                        omega: (v[b].0, v[p].0),
                        next_omega: (v1[b].0, v1[p].0),
                    },
                    &gains,
                    dofs,
                    h,
                );
                let got = j.correction(
                    &(q1[b] * q2[b].inverse()),
                    &fm,
                    &gains,
                    dofs,
                    &gain_torque,
                    h,
                );
                assert!(
                    (expected - got).amax() <= 1e-12 * (1.0 + expected.amax()),
                    "{expected} vs {got}"
                );
            }
        }
    }
}
