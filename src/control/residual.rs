//! The drives' own residual on the reference, cancelled in advance by the feedforward.

use nalgebra::Vector3;

use super::gains::JointGains;
use super::reference::ReferenceMotion;
use crate::dynamics::force::Force;
use crate::dynamics::{Body, DriveId, World};

/// The drives' residual on the reference, cancelled in advance.
///
/// On the reference, a drive's linearly implicit prediction of its own torque at `t + h` is not exactly zero:
/// the first-order prediction of the rotation error misses `O(h²·ω_c·ω_p)` and its axes turn with the parent,
/// which at `k·|τ|`-scaled stiffness on a swinging foot is a few tenths of a degree of tracking error. This
/// evaluates each drive (the world's own code) at every reference sample with the gains it will use and returns
/// the feedforward (joint frame, after the implicit axes turning) that cancels that prediction.
pub(super) fn stiffness_corrections(
    reference: &ReferenceMotion,
    world: &World,
    drives: &[Option<DriveId>],
    gains: &[JointGains],
) -> Vec<Vector3<f64>> {
    let nb = reference.bodies();
    let h = reference.h;
    let mut out = vec![Vector3::zeros(); reference.steps * nb];
    let mut bodies: Vec<Body> = world.bodies().to_vec();
    let mut kin = Vec::with_capacity(nb);
    for k in 0..reference.steps.saturating_sub(1) {
        reference.kinematics(k, &mut kin);
        for (b, body) in bodies.iter_mut().enumerate() {
            body.position = kin[b].com;
            body.orientation = kin[b].rotation;
            body.velocity = reference.twist(k, b);
        }
        for (b, id) in drives.iter().enumerate() {
            let Some(id) = *id else { continue };
            let i = k * nb + b;
            let p = reference.topology.parent[b];
            let mut drive = world.drive(id).clone();
            drive.target_rotation = reference.rotation(k + 1, b);
            drive.target_velocity = reference.target_velocity[i];
            drive.feedforward = Vector3::zeros();
            let tau = reference.feedforward[i];
            for a in 0..3 {
                let on = reference.dofs[b].is_free(a);
                drive.stiffness[a] = if on { gains[b].stiffness(tau[a]) } else { 0.0 };
                drive.damping[a] = if on { gains[b].damping(tau[a]) } else { 0.0 };
            }
            let e = drive.eval(&bodies);
            let (v_c, v_p) = (bodies[b].velocity, bodies[p].velocity);
            let (v1_c, v1_p) = (reference.twist(k + 1, b), reference.twist(k + 1, p));
            let predicted = e.wrench[0]
                + (e.dp[0][0] * v1_c + e.dp[0][1] * v1_p) * h
                + e.dv[0][0] * (v1_c - v_c)
                + e.dv[0][1] * (v1_p - v_p);
            let torque = -Vector3::new(predicted[0], predicted[1], predicted[2]);
            let w_p1 = reference.twists[(k + 1) * nb + p].0;
            let held = super::discrete::solve_skew(&(w_p1 * h), &torque);
            let local = (kin[p].rotation * reference.joint_frame[b]).inverse() * held;
            out[i] = reference.dofs[b].free_part(&local);
        }
    }
    out
}
