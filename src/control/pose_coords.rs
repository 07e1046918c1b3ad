//! A skeleton pose in the model's generalized coordinates: the root body's frame origin and world rotation, and
//! each body's joint rotation relative to its parent body (rest rotation included). Shared by the clip
//! preprocessing (every frame) and the streamed targets (every pushed pose), so both see the same projection.

use nalgebra::{UnitQuaternion, Vector3};

use super::kinematics::Topology;
use crate::math::rotation::same_hemisphere;
use crate::model::Model;
use crate::skeleton::{Pose, Skeleton};

/// Reusable workspace of the pose → generalized coordinates map of one model.
#[derive(Debug, Clone)]
pub(crate) struct PoseCoords {
    /// The root body's skeleton joint and its ancestors, outermost first (only they move the root origin).
    chain: Vec<usize>,
    /// Per skeleton joint: whether a body's joint or the root chain needs its world rotation (a bone merged
    /// into its parent's body at the end of a branch, a finger or a toe tip, is not needed).
    needed: Vec<bool>,
    world_rot: Vec<UnitQuaternion<f64>>,
    /// Per body, the skeleton joints from its parent body's joint (excluded) down to its own (included),
    /// outermost first: `paths[path_start[b]..path_start[b + 1]]` (empty for the root, and for a body whose parent
    /// body's joint is not its ancestor, which [`PoseCoords::project_local`] then projects as
    /// [`PoseCoords::project`]).
    paths: Vec<usize>,
    path_start: Vec<usize>,
}

impl PoseCoords {
    /// The workspace for `model`, built from `skeleton`.
    pub(crate) fn new(model: &Model, skeleton: &Skeleton) -> PoseCoords {
        let root_joint = model.bodies[0].skeleton_joint;
        let mut chain = vec![root_joint];
        let mut joint = root_joint;
        while let Some(p) = skeleton.joints[joint].parent {
            chain.push(p);
            joint = p;
        }
        chain.reverse();
        // A body's joint and its ancestors; the chain is the root body's joint and its ancestors.
        let mut needed = vec![false; skeleton.len()];
        for body in &model.bodies {
            let mut joint = Some(body.skeleton_joint);
            while let Some(j) = joint.filter(|&j| !needed[j]) {
                needed[j] = true;
                joint = skeleton.joints[j].parent;
            }
        }
        let (mut paths, mut path_start) = (Vec::new(), vec![0]);
        for body in &model.bodies {
            let start = paths.len();
            if let Some(parent) = body.parent {
                let top = model.bodies[parent].skeleton_joint;
                let mut joint = Some(body.skeleton_joint);
                while let Some(j) = joint.filter(|&j| j != top) {
                    paths.push(j);
                    joint = skeleton.joints[j].parent;
                }
                if joint.is_none() {
                    paths.truncate(start);
                } else {
                    paths[start..].reverse();
                }
            }
            path_start.push(paths.len());
        }
        PoseCoords {
            chain,
            needed,
            world_rot: vec![UnitQuaternion::identity(); skeleton.len()],
            paths,
            path_start,
        }
    }

    /// [`PoseCoords::project`] by the local rotations: a body's joint rotation `W_p⁻¹·W_b` is the product of the
    /// skeleton's local rotations (rest included) from its parent body's joint down to its own, usually one (a
    /// merged bone adds one), so only the root chain's world rotations are formed. The same rotations up to
    /// round-off (a streamed target is projected every step; the preprocessing keeps [`PoseCoords::project`]).
    pub(crate) fn project_local(
        &mut self,
        model: &Model,
        skeleton: &Skeleton,
        topology: &Topology,
        pose: &Pose,
        prev: Option<&[UnitQuaternion<f64>]>,
        rot: &mut [UnitQuaternion<f64>],
    ) -> Vector3<f64> {
        let local = |j: usize| skeleton.joints[j].rest_rotation * pose.rotations[j];
        let mut root = Vector3::zeros();
        for (i, &j) in self.chain.iter().enumerate() {
            (self.world_rot[j], root) = match i {
                0 => (local(j), pose.translations[j]),
                _ => {
                    let above = self.world_rot[self.chain[i - 1]];
                    (above * local(j), root + above * pose.translations[j])
                }
            };
        }
        for (b, out) in rot.iter_mut().enumerate() {
            let path = &self.paths[self.path_start[b]..self.path_start[b + 1]];
            let mut q = match (topology.parent[b], path.split_first()) {
                (usize::MAX, _) => self.world_rot[model.bodies[b].skeleton_joint],
                (_, Some((&first, rest))) => rest.iter().fold(local(first), |q, &j| q * local(j)),
                // Not below its parent body's joint: by the world rotations.
                (_, None) => return self.project(model, skeleton, topology, pose, prev, rot),
            };
            if let Some(prev) = prev {
                q = same_hemisphere(q, &prev[b]);
            }
            *out = q;
        }
        root
    }

    /// The root origin and the per-body rotations (`rot`, one per body) of `pose`; with `prev`, each quaternion
    /// is put in the hemisphere of the previous one (continuity for filtering and differencing).
    pub(crate) fn project(
        &mut self,
        model: &Model,
        skeleton: &Skeleton,
        topology: &Topology,
        pose: &Pose,
        prev: Option<&[UnitQuaternion<f64>]>,
        rot: &mut [UnitQuaternion<f64>],
    ) -> Vector3<f64> {
        for (j, joint) in skeleton.joints.iter().enumerate() {
            // Parents come first, so a needed joint's parent is up to date.
            if !self.needed[j] {
                continue;
            }
            let local = joint.rest_rotation * pose.rotations[j];
            self.world_rot[j] = match joint.parent {
                Some(p) => self.world_rot[p] * local,
                None => local,
            };
        }
        let mut root = Vector3::zeros();
        for (i, &j) in self.chain.iter().enumerate() {
            root = match i {
                0 => pose.translations[j],
                _ => root + self.world_rot[self.chain[i - 1]] * pose.translations[j],
            };
        }
        let w = |b: usize| &self.world_rot[model.bodies[b].skeleton_joint];
        for (b, out) in rot.iter_mut().enumerate() {
            let mut q = match topology.parent[b] {
                usize::MAX => *w(b),
                p => w(p).inverse() * w(b),
            };
            if let Some(prev) = prev {
                q = same_hemisphere(q, &prev[b]);
            }
            *out = q;
        }
        root
    }
}
