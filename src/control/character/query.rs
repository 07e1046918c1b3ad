//! Reading the character: joint rotations against the reference, body frames, world transforms of every
//! skeleton joint and the pose in the skeleton's own terms.

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

use super::Character;
use crate::control::sampling::locate;
use crate::math::rotation_distance;
use crate::skeleton::Pose;

impl Character {
    /// The relative rotation of body `b`'s joint in the simulation (the root: its world rotation).
    pub fn joint_rotation(&self, b: usize) -> UnitQuaternion<f64> {
        let bodies = self.world.bodies();
        match self.prepared.reference.topology.parent[b] {
            usize::MAX => bodies[b].orientation,
            p => bodies[p].orientation.inverse() * bodies[b].orientation,
        }
    }

    /// The reference joint rotation of body `b` at the current time (streamed: the last target reached).
    pub fn reference_rotation(&self, b: usize) -> UnitQuaternion<f64> {
        if let Some(stream) = &self.stream {
            return stream.reached_rotation(b);
        }
        let (k, s) = locate(&self.prepared.reference, self.clip_time());
        self.prepared.reference.rotation_between(k, s, b)
    }

    /// World frame (the skeleton joint) of body `b` in the simulation.
    pub fn body_frame(&self, b: usize) -> Isometry3<f64> {
        let body = self.world.body(b);
        let origin = body.position - body.orientation * self.prepared.reference.topology.com[b];
        Isometry3::from_parts(Translation3::from(origin), body.orientation)
    }

    /// World transform of every skeleton joint: simulated bodies at their joints, merged bones carried by their
    /// body with the clip's local motion.
    pub fn world_transforms(&self) -> Vec<Isometry3<f64>> {
        let pose = self.animation_pose();
        let mut out: Vec<Isometry3<f64>> = Vec::with_capacity(self.prepared.skeleton.len());
        for (j, joint) in self.prepared.skeleton.joints.iter().enumerate() {
            let b = self.prepared.model.body_of_joint[j];
            let w = if self.prepared.model.bodies[b].skeleton_joint == j {
                self.body_frame(b)
            } else {
                let local = Isometry3::from_parts(
                    Translation3::from(pose.translations[j]),
                    joint.rest_rotation * pose.rotations[j],
                );
                match joint.parent {
                    Some(p) => out[p] * local,
                    None => local,
                }
            };
            out.push(w);
        }
        out
    }

    /// The simulated pose in the skeleton's own terms (local rotations relative to rest, in skeleton joint order,
    /// merged bones included; translations: the clip's, with the root at its simulated position), for re-skinning
    /// and baking.
    pub fn pose(&self) -> Pose {
        let world = self.world_transforms();
        let mut pose = self.animation_pose();
        for (j, joint) in self.prepared.skeleton.joints.iter().enumerate() {
            let local = match joint.parent {
                Some(p) => world[p].inverse() * world[j],
                None => {
                    pose.translations[j] = world[j].translation.vector;
                    world[j]
                }
            };
            pose.rotations[j] = joint.rest_rotation.inverse() * local.rotation;
        }
        pose
    }

    /// The pose the character follows now, in the skeleton's terms: the clip at the current time, or the last
    /// streamed target reached.
    pub fn animation_pose(&self) -> Pose {
        match &self.stream {
            Some(stream) => stream.reached_pose().clone(),
            None => self
                .prepared
                .clip
                .sample(self.clip_time().clamp(0.0, self.prepared.clip.duration())),
        }
    }

    /// Angle (radians) between body `b`'s simulated joint rotation and its reference joint rotation, now.
    pub fn joint_deviation(&self, b: usize) -> f64 {
        rotation_distance(&self.joint_rotation(b), &self.reference_rotation(b))
    }

    /// World velocity (m/s) of the world point `point` moving with body `b`.
    pub fn point_velocity(&self, b: usize, point: &Vector3<f64>) -> Vector3<f64> {
        let body = self.world.body(b);
        let v = body.velocity;
        let w = Vector3::new(v[0], v[1], v[2]);
        Vector3::new(v[3], v[4], v[5]) + w.cross(&(point - body.position))
    }
}
