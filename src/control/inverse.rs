//! Inverse dynamics (Cline 2002 eq. 5.3) by recursive Newton–Euler, leaf to root, O(n); and the dense
//! maximal-coordinate solve of the same equations, kept as the test oracle.
//!
//! Each body needs the net wrench `W_i = (I ω̇ + ω × Iω; m(a − g))` at its CoM. The joint of body `i` carries the
//! wrench the parent applies to it, `W_i` plus what `i` passes on to its children. For every joint that wrench is
//! a force at the anchor (the ball joint's constraint impulses, Jᵀλ) plus a torque (the muscle rows, Hᵀτ, eq.
//! 5.4–5.5); at the root, the 6 rows of the prescribed-root constraint take the residual.

use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

use super::kinematics::{BodyKinematics, Placement, Topology};

/// The joint wrenches of one instant.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JointWrenches {
    /// Per body: the force (N, world) its parent applies at its joint anchor (the root: at its frame origin,
    /// from the world).
    pub force: Vec<Vector3<f64>>,
    /// Per body: the torque (N·m, world) its parent applies to it about the anchor (the root: about its origin).
    pub torque: Vec<Vector3<f64>>,
}

/// Recursive Newton–Euler inverse dynamics on the bodies' kinematics, leaf to root, into `out`.
pub fn newton_euler(
    topo: &Topology,
    bodies: &[BodyKinematics],
    gravity: &Vector3<f64>,
    out: &mut JointWrenches,
) {
    out.force.clear();
    out.torque.clear();
    for (b, k) in bodies.iter().enumerate() {
        push_net_wrench(
            topo,
            b,
            k,
            &topo.inertia_world(b, &k.rotation),
            gravity,
            out,
        );
    }
    propagate_to_joints(topo, bodies, out);
}

/// [`newton_euler`] with each body's world inertia given (`inertia[b]`, from [`Topology::inertia_world`]), for a
/// caller that needs them more than once per instant.
pub(crate) fn newton_euler_with(
    topo: &Topology,
    bodies: &[BodyKinematics],
    inertia: &[Matrix3<f64>],
    gravity: &Vector3<f64>,
    out: &mut JointWrenches,
) {
    out.force.clear();
    out.torque.clear();
    for (b, k) in bodies.iter().enumerate() {
        push_net_wrench(topo, b, k, &inertia[b], gravity, out);
    }
    propagate_to_joints(topo, bodies, out);
}

/// Appends body `b`'s net wrench `(m(a − g); I ω̇ + ω × Iω)` at its CoM, `i_w` its world inertia.
fn push_net_wrench(
    topo: &Topology,
    b: usize,
    k: &BodyKinematics,
    i_w: &Matrix3<f64>,
    gravity: &Vector3<f64>,
    out: &mut JointWrenches,
) {
    out.force
        .push(topo.mass[b] * (k.com_acceleration - gravity));
    out.torque
        .push(i_w * k.alpha + k.omega.cross(&(i_w * k.omega)));
}

/// Turns per-body net wrenches (force, torque about the CoM; in `w`) into joint wrenches, leaf to root: each
/// joint carries its body's wrench plus its children's joints', moments taken about the joint anchor.
pub fn propagate_to_joints<P: Placement>(topo: &Topology, bodies: &[P], w: &mut JointWrenches) {
    // Moments about the world origin, so that sums need no shifting.
    for (b, k) in bodies.iter().enumerate() {
        w.torque[b] += k.com().cross(&w.force[b]);
    }
    for b in (1..topo.len()).rev() {
        let p = topo.parent[b];
        let (f, t) = (w.force[b], w.torque[b]);
        w.force[p] += f;
        w.torque[p] += t;
    }
    for (b, k) in bodies.iter().enumerate() {
        w.torque[b] -= k.origin().cross(&w.force[b]);
    }
}

/// The same joint wrenches from a dense solve of `[Jᵀ Hᵀ](λ; τ) = M v̇ − f_ext` (Cline eq. 5.3) in maximal
/// coordinates: one 6-column block per joint (3 anchor forces, 3 torques, eq. 5.5) and one for the root, a 6n × 6n
/// LU solve. O(n³): for tests only.
pub fn dense_oracle(
    topo: &Topology,
    bodies: &[BodyKinematics],
    gravity: &Vector3<f64>,
) -> Option<JointWrenches> {
    let n = topo.len();
    let mut a = DMatrix::<f64>::zeros(6 * n, 6 * n);
    let mut rhs = DVector::<f64>::zeros(6 * n);
    for (b, k) in bodies.iter().enumerate() {
        let i_w = topo.inertia_world(b, &k.rotation);
        // M v̇ − f_ext at the CoM, angular rows first; gravity and the gyroscopic term are the external forces.
        let tau = i_w * k.alpha + k.omega.cross(&(i_w * k.omega));
        let f = topo.mass[b] * (k.com_acceleration - gravity);
        rhs.fixed_rows_mut::<3>(6 * b).copy_from(&tau);
        rhs.fixed_rows_mut::<3>(6 * b + 3).copy_from(&f);
        // Column block b: the wrench of joint b (force at the anchor = body b's origin, torque), on body b ...
        let s = k.origin - k.com;
        add_joint_columns(&mut a, b, b, &s, 1.0);
        // ... and equal and opposite on the parent.
        let p = topo.parent[b];
        if p != usize::MAX {
            let s_p = k.origin - bodies[p].com;
            add_joint_columns(&mut a, p, b, &s_p, -1.0);
        }
    }
    let x = a.lu().solve(&rhs)?;
    let mut out = JointWrenches::default();
    for b in 0..n {
        out.force.push(x.fixed_rows::<3>(6 * b).into_owned());
        out.torque.push(x.fixed_rows::<3>(6 * b + 3).into_owned());
    }
    Some(out)
}

/// Writes the 6 columns of joint `joint` acting on body `body` (`sign` +1 child, −1 parent): force columns
/// `(sign·[s]; sign·I)`, torque columns `(sign·I; 0)`, `s` from the body's CoM to the anchor.
fn add_joint_columns(
    a: &mut nalgebra::DMatrix<f64>,
    body: usize,
    joint: usize,
    s: &Vector3<f64>,
    sign: f64,
) {
    let (row, col) = (6 * body, 6 * joint);
    let sx = crate::math::spatial::cross_matrix(s) * sign;
    a.view_mut((row, col), (3, 3)).copy_from(&sx);
    for i in 0..3 {
        a[(row + 3 + i, col + i)] = sign;
        a[(row + i, col + 3 + i)] = sign;
    }
}
