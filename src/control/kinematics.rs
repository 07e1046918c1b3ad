//! Forward kinematics of a [`Model`] in generalized coordinates: body poses, twists and accelerations.
//!
//! Generalized coordinates, indexed by body (`b = 0` is the root, its "parent" is the world):
//! - `rot[b]`: for the root, its world rotation; for a child, `q_rel = R_parent⁻¹·R_child` (the child body frame
//!   in the parent body frame, rest rotation included);
//! - `vel[b]`, `acc[b]`: angular velocity and acceleration of the body relative to its parent, **in the body's own
//!   frame** (MuJoCo's ball and free joint convention: `q ← q ⊗ exp(h·u)`);
//! - the root's frame origin `root_pos` with world linear velocity and acceleration.

use nalgebra::{Matrix3, UnitQuaternion, Vector3};

use crate::model::Model;

/// The world state of one body at one instant (its frame origin is the skeleton joint, not the CoM).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyKinematics {
    /// Body rotation (body → world).
    pub rotation: UnitQuaternion<f64>,
    /// Body frame origin (the joint) in the world (m).
    pub origin: Vector3<f64>,
    /// Centre of mass in the world (m).
    pub com: Vector3<f64>,
    /// Angular velocity (rad/s, world).
    pub omega: Vector3<f64>,
    /// CoM velocity (m/s, world).
    pub com_velocity: Vector3<f64>,
    /// Angular acceleration (rad/s², world).
    pub alpha: Vector3<f64>,
    /// CoM acceleration (m/s², world).
    pub com_acceleration: Vector3<f64>,
}

/// Where one body is at one instant (see [`Topology::poses`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyPose {
    /// Body rotation (body → world).
    pub rotation: UnitQuaternion<f64>,
    /// Body frame origin (the joint) in the world (m).
    pub origin: Vector3<f64>,
    /// Centre of mass in the world (m).
    pub com: Vector3<f64>,
}

/// Where a body is: all that the pose-only passes (joint wrenches, chord twists, anchor rows) read, so that they
/// run on a [`BodyPose`] (the preprocessing's discrete inverse dynamics needs no velocities) or on a full
/// [`BodyKinematics`] alike, with the same operations and so the same bits.
pub trait Placement {
    /// Body rotation (body → world).
    fn rotation(&self) -> &UnitQuaternion<f64>;
    /// Body frame origin (the joint) in the world (m).
    fn origin(&self) -> &Vector3<f64>;
    /// Centre of mass in the world (m).
    fn com(&self) -> &Vector3<f64>;
}

/// [`Placement`] for a type with public `rotation`, `origin` and `com` fields.
macro_rules! placement_by_fields {
    ($($t:ty),*) => {$(
        impl Placement for $t {
            #[inline]
            fn rotation(&self) -> &UnitQuaternion<f64> {
                &self.rotation
            }
            #[inline]
            fn origin(&self) -> &Vector3<f64> {
                &self.origin
            }
            #[inline]
            fn com(&self) -> &Vector3<f64> {
                &self.com
            }
        }
    )*};
}

placement_by_fields!(BodyPose, BodyKinematics);

/// One instant of the character in generalized coordinates (borrowed slices, indexed by body).
#[derive(Debug, Clone, Copy)]
pub struct GeneralizedState<'a> {
    /// Root frame origin (m, world).
    pub root_pos: Vector3<f64>,
    /// Root origin velocity (m/s, world).
    pub root_vel: Vector3<f64>,
    /// Root origin acceleration (m/s², world).
    pub root_acc: Vector3<f64>,
    /// Root world rotation, then each joint's relative rotation.
    pub rot: &'a [UnitQuaternion<f64>],
    /// Angular velocities relative to the parent, body frame (rad/s).
    pub vel: &'a [Vector3<f64>],
    /// Angular accelerations relative to the parent, body frame (rad/s²).
    pub acc: &'a [Vector3<f64>],
}

/// Joint anchors and CoM offsets of a model, flattened for the sweeps.
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    /// Parent body of each body (`usize::MAX` for the root).
    pub parent: Vec<usize>,
    /// Joint anchor of each body in its parent's frame (m); zero for the root.
    pub anchor: Vec<Vector3<f64>>,
    /// Index into `model.joints` of each body's joint (`usize::MAX` for the root).
    pub joint: Vec<usize>,
    /// CoM in the body frame (m).
    pub com: Vec<Vector3<f64>>,
    /// Mass (kg).
    pub mass: Vec<f64>,
    /// Inertia about the CoM, body frame (kg·m²).
    pub inertia: Vec<Matrix3<f64>>,
}

impl Topology {
    /// The sweep data of `model`.
    pub fn new(model: &Model) -> Topology {
        let n = model.bodies.len();
        let mut t = Topology {
            parent: vec![usize::MAX; n],
            anchor: vec![Vector3::zeros(); n],
            joint: vec![usize::MAX; n],
            com: model.bodies.iter().map(|b| b.mass.com.coords).collect(),
            mass: model.bodies.iter().map(|b| b.mass.mass).collect(),
            inertia: model.bodies.iter().map(|b| b.mass.inertia).collect(),
        };
        for (j, joint) in model.joints.iter().enumerate() {
            t.parent[joint.child] = joint.parent;
            t.anchor[joint.child] = joint.parent_from_child.translation.vector;
            t.joint[joint.child] = j;
        }
        t
    }

    /// World inertia about the CoM of body `b` at `rotation` (kg·m²).
    // Inlinable across modules: the inverse dynamics call it for every body of every sample.
    #[inline]
    pub fn inertia_world(&self, b: usize, rotation: &UnitQuaternion<f64>) -> Matrix3<f64> {
        let r = rotation.to_rotation_matrix();
        r * self.inertia[b] * r.transpose()
    }

    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether the model has no body.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// Every body's pose alone, root to leaves, into `out` (resized): `(rotation, frame origin, CoM)`, the same
    /// bits as [`Topology::forward`]'s, without its velocities and accelerations (for a caller that needs only
    /// where the bodies are).
    pub fn poses(
        &self,
        root_pos: &Vector3<f64>,
        rot: &[UnitQuaternion<f64>],
        out: &mut Vec<BodyPose>,
    ) {
        out.clear();
        for (b, (&parent, q)) in self.parent.iter().zip(rot).enumerate() {
            let (rotation, origin) = match parent {
                usize::MAX => (*q, *root_pos),
                p => {
                    let pk = &out[p];
                    (pk.rotation * q, pk.origin + pk.rotation * self.anchor[b])
                }
            };
            let com = origin + rotation * self.com[b];
            out.push(BodyPose {
                rotation,
                origin,
                com,
            });
        }
    }

    /// Forward kinematics, root to leaves: every body's pose, twist and acceleration into `out` (resized).
    pub fn forward(&self, s: &GeneralizedState<'_>, out: &mut Vec<BodyKinematics>) {
        self.forward_by(
            (s.root_pos, s.root_vel, s.root_acc),
            s.rot,
            |b| (s.vel[b], s.acc[b]),
            out,
        );
    }

    /// [`Topology::forward`] with the root's `(position, velocity, acceleration)`, the rotations, and each body's
    /// relative `(velocity, acceleration)` from `motion(b)` (stored or computed on demand: the reference derives
    /// them from its poses).
    pub(crate) fn forward_by(
        &self,
        (root_pos, root_vel, root_acc): (Vector3<f64>, Vector3<f64>, Vector3<f64>),
        rot: &[UnitQuaternion<f64>],
        motion: impl Fn(usize) -> (Vector3<f64>, Vector3<f64>),
        out: &mut Vec<BodyKinematics>,
    ) {
        out.clear();
        for (b, (&p, q)) in self.parent.iter().zip(rot).enumerate() {
            let (vel, acc) = motion(b);
            let mut k = if p == usize::MAX {
                let r = *q;
                BodyKinematics {
                    rotation: r,
                    origin: root_pos,
                    com: Vector3::zeros(),
                    omega: r * vel,
                    com_velocity: root_vel,
                    alpha: r * acc,
                    com_acceleration: root_acc,
                }
            } else {
                let pk = out[p];
                let r = pk.rotation * q;
                let arm = pk.rotation * self.anchor[b];
                // Origin velocity and acceleration of the anchor point on the parent.
                let v_origin = pk.com_velocity + pk.omega.cross(&(pk.origin + arm - pk.com));
                let d = pk.origin + arm - pk.com;
                let a_origin =
                    pk.com_acceleration + pk.alpha.cross(&d) + pk.omega.cross(&pk.omega.cross(&d));
                let u = r * vel;
                BodyKinematics {
                    rotation: r,
                    origin: pk.origin + arm,
                    com: Vector3::zeros(),
                    omega: pk.omega + u,
                    com_velocity: v_origin,
                    alpha: pk.alpha + pk.omega.cross(&u) + r * acc,
                    com_acceleration: a_origin,
                }
            };
            // Move the linear quantities from the frame origin to the CoM.
            let c = k.rotation * self.com[b];
            k.com = k.origin + c;
            k.com_velocity += k.omega.cross(&c);
            k.com_acceleration += k.alpha.cross(&c) + k.omega.cross(&k.omega.cross(&c));
            out.push(k);
        }
    }
}
