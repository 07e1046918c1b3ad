//! One frame of the retarget: the source's world pose → the target's local pose.

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use super::align::Alignment;
use super::chains::Tree;
use crate::skeleton::{Pose, Skeleton, slerp_short};

/// Placement of the target in the source's world: scale about the origin by the leg ratio, heights measured
/// from the floor the feet stand on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Target / source leg length: the horizontal scale (stride).
    pub ratio: f64,
    /// Target / source rest height of the hip joints (thigh roots) above the ankles: the vertical scale of the
    /// legs. It differs from the leg ratio when a rig's legs do not hang straight in its rest pose.
    pub height_ratio: f64,
    /// Source rest height of the pelvis key above its hip joints (m).
    pub source_hips: f64,
    /// Target rest height of the pelvis key above its hip joints (m). A rig whose pelvis joint sits far above its
    /// thighs (RobotExpressive: the pelvis placed by the leg ratio alone put its walk 0.3 m above its floor).
    pub target_hips: f64,
    /// Source ankle height when planted (low percentile over the clip).
    pub source_ankle: f64,
    /// Target ankle height in the target rest pose (its feet on its floor).
    pub target_ankle: f64,
}

impl Placement {
    /// Where the target pelvis goes for a source pelvis at `p`.
    pub fn pelvis(&self, p: &Vector3<f64>) -> Vector3<f64> {
        Vector3::new(
            p.x * self.ratio,
            self.target_ankle
                + self.target_hips
                + (p.y - self.source_ankle - self.source_hips) * self.height_ratio,
            p.z * self.ratio,
        )
    }
}

/// World rotation delta of source joint `j` from its rest.
fn delta(align: &Alignment, world: &[Isometry3<f64>], j: usize) -> UnitQuaternion<f64> {
    world[j].rotation * align.source_rest[j].rotation.inverse()
}

/// The source's world rotation delta at fraction `u` of key `ki`'s chain (0: the parent key's joint).
fn chain_delta(
    align: &Alignment,
    tree: &Tree,
    ki: usize,
    u: f64,
    world: &[Isometry3<f64>],
) -> UnitQuaternion<f64> {
    let key = &tree.keys[ki];
    let chain = &align.source_fractions[ki];
    let mut prev = match key.parent {
        Some(p) => (0.0, delta(align, world, tree.keys[p].source)),
        None => (0.0, delta(align, world, key.source)),
    };
    for &(j, v) in chain {
        let d = delta(align, world, j);
        if u <= v + 1e-12 {
            let span = v - prev.0;
            let s = if span > 1e-12 {
                ((u - prev.0) / span).clamp(0.0, 1.0)
            } else {
                1.0
            };
            return slerp_short(&prev.1, &d, s);
        }
        prev = (v, d);
    }
    prev.1
}

/// The target's local pose for one source frame (`world`: the source's world transforms).
pub fn solve_frame(
    target: &Skeleton,
    tree: &Tree,
    align: &Alignment,
    placement: &Placement,
    world: &[Isometry3<f64>],
) -> Pose {
    let n = target.len();
    let mut desired: Vec<Option<UnitQuaternion<f64>>> = vec![None; n];
    for d in &align.driven {
        desired[d.joint] = Some(chain_delta(align, tree, d.key, d.fraction, world) * d.offset);
    }
    let pelvis = &tree.keys[0];
    let rest = &align.target_rest;
    let pelvis_world = Isometry3::from_parts(
        Translation3::from(placement.pelvis(&world[pelvis.source].translation.vector)),
        desired[pelvis.target].unwrap_or(rest[pelvis.target].rotation),
    );
    // Joints between the root and the pelvis stay at rest: the root follows the pelvis rigidly.
    let root_world = pelvis_world * (rest[0].inverse() * rest[pelvis.target]).inverse();
    let mut pose = Pose::rest(target);
    pose.translations[0] = root_world.translation.vector;
    pose.rotations[0] = target.joints[0].rest_rotation.inverse() * root_world.rotation;
    let mut world_rot = vec![UnitQuaternion::identity(); n];
    world_rot[0] = root_world.rotation;
    for j in 1..n {
        let joint = &target.joints[j];
        let p = joint.parent.unwrap_or(0);
        let w = desired[j].unwrap_or(world_rot[p] * joint.rest_rotation);
        pose.rotations[j] = joint.rest_rotation.inverse() * world_rot[p].inverse() * w;
        world_rot[j] = w;
    }
    place_attached(target, tree, align, &mut pose);
    pose
}

/// Sets the translation of every attached key joint (not a descendant of its parent key's joint) so that it
/// sits where its parent key's joint carries it, rigidly as in the rest pose.
pub fn place_attached(target: &Skeleton, tree: &Tree, align: &Alignment, pose: &mut Pose) {
    if !tree.keys.iter().any(|k| k.target_attached) {
        return;
    }
    let world = pose.world_transforms(target);
    for key in tree.keys.iter().filter(|k| k.target_attached) {
        let Some(pk) = key.parent.map(|p| tree.keys[p].target) else {
            continue;
        };
        let j = key.target;
        let tip =
            align.target_rest[pk].inverse() * Point3::from(align.target_rest[j].translation.vector);
        let at = world[pk] * tip;
        if let Some(parent) = target.joints[j].parent {
            pose.translations[j] = (world[parent].inverse() * at).coords;
        }
    }
}
