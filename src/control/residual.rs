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
    let tau = step.gain_torque;
    for a in 0..3 {
        let on = dofs.is_free(a);
        drive.stiffness[a] = if on { gains.stiffness(tau[a]) } else { 0.0 };
        drive.damping[a] = if on { gains.damping(tau[a]) } else { 0.0 };
    }
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
