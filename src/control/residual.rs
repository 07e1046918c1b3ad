//! The drives' own residual on the reference, cancelled in advance by the feedforward.

use nalgebra::{UnitQuaternion, Vector3, Vector6};

use super::gains::JointGains;
use super::parallel::{Table, pieces, ranges, run, thread_count};
use super::reference::{Dofs, ReferenceMotion};
use crate::dynamics::{Body, DriveId, JointDrive, World};

/// The drives' residual on the reference, cancelled in advance.
///
/// On the reference, a drive's linearly implicit prediction of its own torque at `t + h` is not exactly zero:
/// the first-order prediction of the rotation error misses `O(h²·ω_c·ω_p)` and its axes turn with the parent,
/// which at `k·|τ|`-scaled stiffness on a swinging foot is a few tenths of a degree of tracking error. This
/// evaluates each drive (the world's own code) at every reference sample with the gains it will use and returns
/// the feedforward (joint frame, after the implicit axes turning) that cancels that prediction. Samples are
/// independent: they are split over up to `threads` threads (the same bits for any count).
pub(super) fn stiffness_corrections(
    reference: &ReferenceMotion,
    world: &World,
    drives: &[Option<DriveId>],
    gains: &[JointGains],
    threads: Option<usize>,
) -> Vec<Vector3<f64>> {
    let nb = reference.bodies();
    let h = reference.h;
    let steps = reference.steps;
    let mut out = Table::new(steps * nb);
    let threads = thread_count(steps.saturating_sub(1), threads);
    let parts = ranges(steps, pieces(threads));
    let rows = out.pieces(&parts, nb);
    // Copies of the drives and bodies: the world itself is not shared between threads.
    let drives: Vec<Option<JointDrive>> = drives
        .iter()
        .map(|d| d.map(|id| world.drive(id).clone()))
        .collect();
    let start: Vec<Body> = world.bodies().to_vec();
    run(
        threads,
        parts.into_iter().zip(rows).collect(),
        |(r, mut out)| {
            let mut bodies = start.clone();
            let mut kin = Vec::with_capacity(nb);
            for k in r {
                // The last sample has no step after it, and a joint without a drive no correction: zero.
                if k + 1 == steps {
                    (0..nb).for_each(|_| out.push(Vector3::zeros()));
                    continue;
                }
                // Only the poses: the drives read the twists from the reference.
                let r = k * nb..(k + 1) * nb;
                reference
                    .topology
                    .poses(&reference.root_pos[k], &reference.rot[r], &mut kin);
                for (b, body) in bodies.iter_mut().enumerate() {
                    body.position = kin[b].com;
                    body.orientation = kin[b].rotation;
                    body.velocity = reference.twist(k, b);
                }
                for (b, drive) in drives.iter().enumerate() {
                    let Some(drive) = drive else {
                        out.push(Vector3::zeros());
                        continue;
                    };
                    let i = k * nb + b;
                    let p = reference.topology.parent[b];
                    out.push(drive_correction(
                        drive,
                        &bodies,
                        &DriveStep {
                            target_rotation: reference.rotation(k + 1, b),
                            target_velocity: reference.target_velocity[i],
                            gain_torque: reference.feedforward[i],
                            next_child: reference.twist(k + 1, b),
                            next_parent: reference.twist(k + 1, p),
                            axes: kin[p].rotation * reference.joint_frame[b],
                        },
                        &gains[b],
                        reference.dofs[b],
                        h,
                    ));
                }
            }
        },
    );
    out.finish()
}

/// One step of one drive on the reference: its targets, feedforward, the twists of its bodies at the end of the
/// step and its joint axes (world) at the start.
pub(super) struct DriveStep {
    /// Target rotation at the end of the step (joint rotation, parent frame).
    pub target_rotation: UnitQuaternion<f64>,
    /// Target velocity of the step (rad/s, parent frame).
    pub target_velocity: Vector3<f64>,
    /// The torque the gains follow (joint frame; the step's feedforward, or its smoothed stream).
    pub gain_torque: Vector3<f64>,
    /// The child's twist at the end of the step (world).
    pub next_child: Vector6<f64>,
    /// The parent's twist at the end of the step (world).
    pub next_parent: Vector6<f64>,
    /// The joint frame's axes in the world at the start of the step.
    pub axes: UnitQuaternion<f64>,
}

/// The correction torque (joint frame, free axes) cancelling `drive`'s own implicit prediction on the reference,
/// with `bodies` placed on the reference at the start of the step.
pub(super) fn drive_correction(
    drive: &JointDrive,
    bodies: &[Body],
    step: &DriveStep,
    gains: &JointGains,
    dofs: Dofs,
    h: f64,
) -> Vector3<f64> {
    let (b, p) = (drive.child, drive.parent.unwrap_or(usize::MAX));
    let mut drive = drive.clone();
    drive.target_rotation = step.target_rotation;
    drive.target_velocity = step.target_velocity;
    drive.feedforward = Vector3::zeros();
    (drive.stiffness, drive.damping) = gains.per_axis(&step.gain_torque, |a| dofs.is_free(a));
    // The drive's gradients are angular 3×3 blocks (`JointDrive::torque`): ∂τ/∂ω_p = −∂τ/∂ω_c.
    let e = drive.torque(bodies);
    let ang = |v: &Vector6<f64>| Vector3::new(v[0], v[1], v[2]);
    let (w_c, w_p) = (ang(&bodies[b].velocity), ang(&bodies[p].velocity));
    let (w1_c, w1_p) = (ang(&step.next_child), ang(&step.next_parent));
    let predicted =
        e.torque + (e.dc * w1_c + e.dp * w1_p) * h + e.dwc * (w1_c - w_c) - e.dwc * (w1_p - w_p);
    let torque = -predicted;
    let held = super::discrete::solve_skew(&(w1_p * h), &torque);
    dofs.free_part(&(step.axes.inverse() * held))
}

/// One step of one drive on a streamed target path: where its two bodies are at the start of the step, the
/// angular velocities they have and must end it with (world), and the drive's target and gains' torque (its
/// target velocity is the step's own, [`super::discrete::joint_step_targets`]): all that
/// [`drive_correction_on_path`] reads.
pub(crate) struct PathDrive {
    /// Target rotation at the end of the step (joint rotation, parent frame).
    pub target_rotation: UnitQuaternion<f64>,
    /// The torque the gains follow (joint frame; the smoothed stream of the feedforward).
    pub gain_torque: Vector3<f64>,
    /// The joint frame's axes in the world at the start of the step.
    pub axes: UnitQuaternion<f64>,
    /// Child and parent body rotations (world).
    pub rotation: (UnitQuaternion<f64>, UnitQuaternion<f64>),
    /// Child and parent angular velocities at the start of the step (rad/s, world).
    pub omega: (Vector3<f64>, Vector3<f64>),
    /// Child and parent angular velocities at the end of the step (rad/s, world).
    pub next_omega: (Vector3<f64>, Vector3<f64>),
}

/// [`drive_correction`] for the streamed step, in closed form. The drive's implicit prediction
/// `τ + h(∂τ/∂δθ_c·ω⁺_c + ∂τ/∂δθ_p·ω⁺_p) + ∂τ/∂ω_c·(Δω⁺ − Δω)` (the world's drive, [`JointDrive::torque`], with
/// `∂τ/∂δθ_p = −[τ]× − ∂τ/∂δθ_c + ∂τ/∂ω_c·[Δω]×`) regroups, in the drive axes `A = R_p·F`, as
/// `A·(−K·Fᵀ(e + J_l⁻¹(e)·R_pᵀ·hΔω⁺) − hτ_F × Aᵀω⁺_p)` with `τ_F = −K·Fᵀe + D·Aᵀu`, `u = Δω⁺ − Δω + hΔω × ω⁺_p`:
/// the damping's part of the prediction cancels because the target velocity is the step's own
/// (`R_pᵀ(Δω⁺ + hΔω × ω⁺_p)`, [`super::discrete::joint_step_targets`]). A few quaternion rotations and cross
/// products instead of the three 3×3 gradient blocks and their products, and no bodies to place; the same value
/// up to round-off.
pub(crate) fn drive_correction_on_path(
    drive: &JointDrive,
    path: &PathDrive,
    gains: &JointGains,
    dofs: Dofs,
    h: f64,
) -> Vector3<f64> {
    use crate::math::rotation::{
        apply_left_jacobian_inverse, log_rotation_with_jacobian_coefficient,
    };
    let (qc, qp) = path.rotation;
    let (wc, wp) = path.omega;
    let (w1c, w1p) = path.next_omega;
    let (k, d) = gains.per_axis(&path.gain_torque, |a| dofs.is_free(a));
    let (e, c) = log_rotation_with_jacobian_coefficient(
        &(qp.inverse() * qc * path.target_rotation.inverse()),
    );
    let (dw, dw1) = (wc - wp, w1c - w1p);
    let u = dw1 - dw + (h * dw).cross(&w1p);
    let identity = drive.frame == UnitQuaternion::identity();
    let a = if identity { qp } else { qp * drive.frame };
    // Parent coordinates → drive frame (Fᵀ).
    let from_parent = |x: Vector3<f64>| {
        if identity {
            x
        } else {
            drive.frame.inverse_transform_vector(&x)
        }
    };
    let jx = apply_left_jacobian_inverse(&e, c, &qp.inverse_transform_vector(&(dw1 * h)));
    let w1p_a = a.inverse_transform_vector(&w1p);
    let tau_f =
        -k.component_mul(&from_parent(e)) + d.component_mul(&a.inverse_transform_vector(&u));
    let inner = -k.component_mul(&from_parent(e + jx)) - tau_f.cross(&w1p_a) * h;
    // The correction −A·inner, held in the parent's axes as the step turns them: (I + h[ω⁺_p]×)⁻¹ commutes with
    // the rotation A, so in the joint axes (A itself, the usual case) it is solved there.
    if a == path.axes {
        dofs.free_part(&super::discrete::solve_skew(&(w1p_a * h), &(-inner)))
    } else {
        let held = super::discrete::solve_skew(&(w1p * h), &(-(a * inner)));
        dofs.free_part(&path.axes.inverse_transform_vector(&held))
    }
}
