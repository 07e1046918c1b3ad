//! Inverse dynamics and kinematics of the control layer: recursive Newton–Euler against the dense solve of
//! Cline eq. 5.3, forward-kinematics velocities and accelerations against finite differences.

use flinch::control::{
    Character, CharacterConfig, GeneralizedState, JointWrenches, dense_oracle, newton_euler,
};
use nalgebra::{UnitQuaternion, Vector3};

fn walk() -> Character {
    let imported = flinch::io::load_embedded_walk(&Default::default()).unwrap();
    Character::from_imported(imported, &CharacterConfig::default()).unwrap()
}

#[test]
fn newton_euler_agrees_with_the_dense_maximal_coordinate_solve() {
    let c = walk();
    let r = c.reference();
    let mut kin = Vec::new();
    let mut fast = JointWrenches::default();
    let mut worst = 0.0f64;
    for k in (0..r.steps).step_by(17) {
        r.kinematics(k, &mut kin);
        newton_euler(&r.topology, &kin, &r.gravity, &mut fast);
        let dense = dense_oracle(&r.topology, &kin, &r.gravity).expect("the tree system is square");
        let scale = fast
            .force
            .iter()
            .chain(&fast.torque)
            .map(|v| v.norm())
            .fold(0.0, f64::max);
        for b in 0..kin.len() {
            let e = (fast.force[b] - dense.force[b])
                .norm()
                .max((fast.torque[b] - dense.torque[b]).norm());
            worst = worst.max(e / scale);
        }
    }
    println!("figure id_dense_rel_err {worst:.2e} 1");
    assert!(worst <= 1e-9, "RNEA vs dense eq. 5.3: {worst:e}");
}

#[test]
fn the_root_residual_is_the_weight_of_a_character_at_rest() {
    // A still clip (one frame held for half a second): the prescribed root must carry exactly the character's
    // weight, straight up.
    let imported = flinch::io::load_embedded_walk(&Default::default()).unwrap();
    let mut clip = imported.clip.clone();
    let first = clip.frames[1].clone();
    clip.frames = vec![first; 60];
    let c = Character::new(imported.skeleton, clip, &CharacterConfig::default()).unwrap();
    let r = c.reference();
    let weight = c.model().total_mass() * 9.81;
    let id = r.continuous_inverse_dynamics(None);
    assert_eq!(id.root_force.len(), r.steps);
    for k in 0..r.steps {
        let f = id.root_force[k];
        assert!(
            (f.y - weight).abs() < 1e-9 * weight && f.x.abs() < 1e-9 && f.z.abs() < 1e-9,
            "{f:?}"
        );
    }
}

/// Moves a generalized state along `ε`: rotations by `exp(ε·u + ε²/2·u̇)` in the body frame, the root origin by
/// `ε·v + ε²/2·a`, velocities by `ε·u̇` and `ε·a`.
fn advance(
    s: &GeneralizedState<'_>,
    eps: f64,
    rot: &mut Vec<UnitQuaternion<f64>>,
    vel: &mut Vec<Vector3<f64>>,
) -> (Vector3<f64>, Vector3<f64>) {
    rot.clear();
    vel.clear();
    for i in 0..s.rot.len() {
        let phi = s.vel[i] * eps + s.acc[i] * (0.5 * eps * eps);
        rot.push(s.rot[i] * UnitQuaternion::from_scaled_axis(phi));
        vel.push(s.vel[i] + s.acc[i] * eps);
    }
    (
        s.root_pos + s.root_vel * eps + s.root_acc * (0.5 * eps * eps),
        s.root_vel + s.root_acc * eps,
    )
}

#[test]
fn forward_kinematics_velocities_and_accelerations_match_finite_differences() {
    let c = walk();
    let r = c.reference();
    let eps = 1e-5;
    let mut worst_v = 0.0f64;
    let mut worst_a = 0.0f64;
    for k in [5, 120, 250] {
        let (mut vel, mut acc) = (Vec::new(), Vec::new());
        let s = r.state(k, &mut vel, &mut acc);
        let mut kin = Vec::new();
        r.topology.forward(&s, &mut kin);
        let at = |e: f64| {
            let (mut rot, mut vel) = (Vec::new(), Vec::new());
            let (p, v) = advance(&s, e, &mut rot, &mut vel);
            let st = GeneralizedState {
                root_pos: p,
                root_vel: v,
                root_acc: s.root_acc,
                rot: &rot,
                vel: &vel,
                acc: s.acc,
            };
            let mut out = Vec::new();
            r.topology.forward(&st, &mut out);
            out
        };
        let (plus, minus) = (at(eps), at(-eps));
        for b in 0..kin.len() {
            let v_fd = (plus[b].com - minus[b].com) / (2.0 * eps);
            let w_fd = (plus[b].rotation * minus[b].rotation.inverse()).scaled_axis() / (2.0 * eps);
            let a_fd = (plus[b].com_velocity - minus[b].com_velocity) / (2.0 * eps);
            let al_fd = (plus[b].omega - minus[b].omega) / (2.0 * eps);
            let rel = |x: Vector3<f64>, y: Vector3<f64>| (x - y).norm() / (1.0 + y.norm());
            worst_v = worst_v
                .max(rel(v_fd, kin[b].com_velocity))
                .max(rel(w_fd, kin[b].omega));
            worst_a = worst_a
                .max(rel(a_fd, kin[b].com_acceleration))
                .max(rel(al_fd, kin[b].alpha));
        }
    }
    println!("figure fk_velocity_fd_err {worst_v:.2e} 1");
    println!("figure fk_acceleration_fd_err {worst_a:.2e} 1");
    assert!(worst_v < 1e-7, "velocity vs FD: {worst_v:e}");
    assert!(worst_a < 1e-6, "acceleration vs FD: {worst_a:e}");
}

#[test]
fn continuous_inverse_dynamics_is_newton_euler_in_joint_frames_for_any_thread_count() {
    // 10 s of walk: long enough (1 200 samples) for the pass to split over threads.
    let imported = flinch::io::load_embedded_walk(&Default::default()).unwrap();
    let clip = imported.clip.continued(10.0);
    let c = Character::new(imported.skeleton, clip, &CharacterConfig::default()).unwrap();
    let r = c.reference();
    let one = r.continuous_inverse_dynamics(Some(1));
    assert_eq!(one.torque.len(), r.steps * r.bodies());
    assert_eq!(one, r.continuous_inverse_dynamics(Some(3)));
    // Sample by sample: Newton–Euler on the forward kinematics, each torque in its joint's frame (free axes).
    let (mut kin, mut w) = (Vec::new(), JointWrenches::default());
    for k in (0..r.steps).step_by(97) {
        r.kinematics(k, &mut kin);
        newton_euler(&r.topology, &kin, &r.gravity, &mut w);
        assert_eq!(one.root_force[k], w.force[0]);
        for b in 0..r.bodies() {
            let want = match r.topology.parent[b] {
                usize::MAX => kin[b].rotation.inverse() * w.torque[b],
                p => {
                    let axes = kin[p].rotation * r.joint_frame[b];
                    r.dofs[b].free_part(&(axes.inverse() * w.torque[b]))
                }
            };
            let err = (one.joint_torque(k, b) - want).norm();
            assert!(
                err <= 1e-12 * want.norm().max(1.0),
                "sample {k} body {b}: {err:e}"
            );
        }
    }
}

#[test]
fn reference_velocities_and_accelerations_carry_each_pose_to_the_next() {
    // MuJoCo's discrete-inverse property, for the velocities and accelerations the reference computes on demand:
    // from sample k, `u_{k+1} = u_k + h·u̇_k` and `q_{k+1} = q_k·exp(h·u_{k+1})`.
    let c = walk();
    let r = c.reference();
    let h = r.h;
    let mut worst_rot = 0.0f64;
    let mut worst_vel = 0.0f64;
    for k in 0..r.steps - 1 {
        for b in 0..r.bodies() {
            let u1 = r.velocity(k, b) + r.acceleration(k, b) * h;
            worst_vel = worst_vel.max((u1 - r.velocity(k + 1, b)).norm());
            let landed = r.rotation(k, b) * UnitQuaternion::from_scaled_axis(u1 * h);
            worst_rot = worst_rot.max(landed.angle_to(&r.rotation(k + 1, b)));
        }
    }
    println!("figure reference_step_landing_rad {worst_rot:.2e} 1");
    assert!(worst_vel < 1e-10, "velocity update: {worst_vel:e} rad/s");
    assert!(worst_rot < 1e-12, "pose landing: {worst_rot:e} rad");
    // The kinematics use the same velocities: the root's angular velocity is its world rotation of u_k.
    let mut kin = Vec::new();
    r.kinematics(7, &mut kin);
    assert_eq!(kin[0].omega, r.rotation(7, 0) * r.velocity(7, 0));
}
