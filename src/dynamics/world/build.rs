//! Building a [`World`]: bodies, joints, drives and forces.

use nalgebra::Vector3;

use super::{DriveId, SpringId, UserForceId, World};
use crate::dynamics::body::Body;
use crate::dynamics::constraint::{
    BallJoint, Constraint, FixedJoint, HingeJoint, Prescribed, Trajectory, UniversalJoint,
};
use crate::dynamics::force::{Damping, Force, JointDrive, PositionSpring, UserForce};

impl World {
    /// Adds a body; returns its index.
    pub fn add_body(&mut self, body: Body) -> usize {
        self.bodies.push(body);
        self.dirty = true;
        self.bodies.len() - 1
    }

    /// All bodies.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// One body.
    pub fn body(&self, i: usize) -> &Body {
        &self.bodies[i]
    }

    /// One body, mutable (poses and velocities may be edited between steps).
    pub fn body_mut(&mut self, i: usize) -> &mut Body {
        &mut self.bodies[i]
    }

    /// Adds any constraint; returns its index (its rows follow those of earlier constraints in λ).
    pub fn add_constraint(&mut self, c: Box<dyn Constraint>) -> usize {
        self.constraints.push(c);
        self.dirty = true;
        self.constraints.len() - 1
    }

    /// A ball joint between `a` and `b` (or the world) at world point `anchor` (m).
    pub fn add_ball_joint(&mut self, a: usize, b: Option<usize>, anchor: Vector3<f64>) -> usize {
        let c = BallJoint::new(&self.bodies, a, b, anchor);
        self.add_constraint(Box::new(c))
    }

    /// A hinge between `a` and `b` (or the world) at world point `anchor` (m) about world direction `axis`.
    pub fn add_hinge(
        &mut self,
        a: usize,
        b: Option<usize>,
        anchor: Vector3<f64>,
        axis: Vector3<f64>,
    ) -> usize {
        let c = HingeJoint::new(&self.bodies, a, b, anchor, axis);
        self.add_constraint(Box::new(c))
    }

    /// A universal joint at `anchor` (m) with world axes `axis_b` (fixed in b) and `axis_a` (fixed in a).
    pub fn add_universal(
        &mut self,
        a: usize,
        b: Option<usize>,
        anchor: Vector3<f64>,
        axis_b: Vector3<f64>,
        axis_a: Vector3<f64>,
    ) -> usize {
        let c = UniversalJoint::new(&self.bodies, a, b, anchor, axis_b, axis_a);
        self.add_constraint(Box::new(c))
    }

    /// Welds `a` to `b` (or the world) at world point `anchor` (m).
    pub fn add_fixed(&mut self, a: usize, b: Option<usize>, anchor: Vector3<f64>) -> usize {
        let c = FixedJoint::new(&self.bodies, a, b, anchor);
        self.add_constraint(Box::new(c))
    }

    /// Makes `body` follow `trajectory` exactly (see [`Prescribed`]).
    pub fn add_prescribed(&mut self, body: usize, trajectory: Box<dyn Trajectory>) -> usize {
        self.add_constraint(Box::new(Prescribed::new(body, trajectory)))
    }

    /// Adds a joint drive; its targets can be changed every step through [`World::drive_mut`].
    pub fn add_drive(&mut self, drive: JointDrive) -> DriveId {
        self.drives.push(drive);
        self.dirty = true;
        DriveId(self.drives.len() - 1)
    }

    /// A drive, mutable (set its targets for the coming step here).
    pub fn drive_mut(&mut self, id: DriveId) -> &mut JointDrive {
        &mut self.drives[id.0]
    }

    /// A drive.
    pub fn drive(&self, id: DriveId) -> &JointDrive {
        &self.drives[id.0]
    }

    /// Adds a user force (a push); change or zero it between steps through [`World::user_force_mut`].
    pub fn add_user_force(&mut self, f: UserForce) -> UserForceId {
        self.user_forces.push(f);
        self.dirty = true;
        UserForceId(self.user_forces.len() - 1)
    }

    /// A user force.
    pub fn user_force(&self, id: UserForceId) -> &UserForce {
        &self.user_forces[id.0]
    }

    /// A user force, mutable.
    pub fn user_force_mut(&mut self, id: UserForceId) -> &mut UserForce {
        &mut self.user_forces[id.0]
    }

    /// Adds a centre-of-mass spring (a free root's assist); retarget it between steps through
    /// [`World::spring_mut`].
    pub fn add_spring(&mut self, s: PositionSpring) -> SpringId {
        self.springs.push(s);
        self.dirty = true;
        SpringId(self.springs.len() - 1)
    }

    /// A centre-of-mass spring, mutable.
    pub fn spring_mut(&mut self, id: SpringId) -> &mut PositionSpring {
        &mut self.springs[id.0]
    }

    /// A centre-of-mass spring.
    pub fn spring(&self, id: SpringId) -> &PositionSpring {
        &self.springs[id.0]
    }

    /// Adds viscous damping to `body` (N·m·s/rad, N·s/m).
    pub fn add_damping(&mut self, body: usize, angular: f64, linear: f64) {
        self.add_force(Box::new(Damping {
            body,
            angular,
            linear,
        }));
    }

    /// Adds any force.
    pub fn add_force(&mut self, f: Box<dyn Force>) {
        self.forces.push(f);
        self.dirty = true;
    }
}
