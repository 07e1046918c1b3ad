//! Analytic two-bone IK (thigh–shin–ankle, upper arm–forearm–wrist) on a target pose: the knee angle from the
//! law of cosines in the limb's current bend plane, then a swing of the whole limb about the hip onto the
//! goal. The end effector keeps its world rotation.

use nalgebra::{Isometry3, Point3, Unit, UnitQuaternion, Vector3};

use crate::skeleton::{Pose, Skeleton};

/// A two-bone limb on the target skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Limb {
    /// Upper joint (thigh, upper arm).
    pub upper: usize,
    /// Middle joint (shin, forearm).
    pub middle: usize,
    /// End joint (foot, hand).
    pub end: usize,
    /// The end joint hangs elsewhere (an IK-rig foot parented to the root): it is placed at `tip` in the middle
    /// joint's frame instead of following it as a descendant.
    pub end_attached: bool,
    /// The end joint's position in the middle joint's frame (rest pose).
    pub tip: Point3<f64>,
    /// Bend axis to use when the limb is straight, in the upper joint's frame.
    pub bend_hint: Vector3<f64>,
}

/// Sets joint `j`'s local rotation so that its world rotation becomes `w`, given the current world transforms.
fn set_world_rotation(
    sk: &Skeleton,
    pose: &mut Pose,
    world: &[Isometry3<f64>],
    j: usize,
    w: UnitQuaternion<f64>,
) {
    let parent = sk.joints[j]
        .parent
        .map_or(UnitQuaternion::identity(), |p| world[p].rotation);
    pose.rotations[j] = sk.joints[j].rest_rotation.inverse() * parent.inverse() * w;
}

/// The analytic two-bone solve on world points: upper joint `a`, middle joint `b`, end `c`, and the `goal` of the
/// end. Returns the world rotations `(swing, bend)`: the upper bone's new world rotation is `swing · R_upper`, the
/// lower bone's `swing · bend · R_middle` (the bend about the limb's current bend plane's normal, or about
/// `bend_hint` (world, unit) when the limb is straight; the goal clamped to the limb's reach). `None` for a bone of zero
/// length. Shared by the retarget's planted feet and the free root's protective fall (`docs/root.md`).
pub(crate) fn two_bone(
    [a, b, c]: [Vector3<f64>; 3],
    goal: &Vector3<f64>,
    bend_hint: &Vector3<f64>,
) -> Option<(UnitQuaternion<f64>, UnitQuaternion<f64>)> {
    let (l1, l2) = ((b - a).norm(), (c - b).norm());
    if l1 < 1e-9 || l2 < 1e-9 {
        return None;
    }
    let d = (goal - a)
        .norm()
        .clamp((l1 - l2).abs() * 1.001 + 1e-9, (l1 + l2) * 0.9999);
    let cos_target = ((l1 * l1 + l2 * l2 - d * d) / (2.0 * l1 * l2)).clamp(-1.0, 1.0);
    let (ba, bc) = (a - b, c - b);
    let cos_now = (ba.dot(&bc) / (l1 * l2)).clamp(-1.0, 1.0);
    let axis = ba
        .cross(&bc)
        .try_normalize(1e-6)
        .or_else(|| (bend_hint.norm() > 1e-12).then_some(*bend_hint))?;
    let bend = UnitQuaternion::from_axis_angle(
        &Unit::new_unchecked(axis),
        cos_target.acos() - cos_now.acos(),
    );
    let c1 = b + bend * bc;
    let swing = UnitQuaternion::rotation_between(&(c1 - a), &(goal - a))
        .unwrap_or_else(UnitQuaternion::identity);
    Some((swing, bend))
}

impl Limb {
    /// Where the end effector is in `world`.
    pub fn end_position(&self, world: &[Isometry3<f64>]) -> Vector3<f64> {
        (world[self.middle] * self.tip).coords
    }

    /// Upper plus lower bone length in `world` (the limb's reach).
    pub fn reach(&self, world: &[Isometry3<f64>]) -> f64 {
        let a = world[self.upper].translation.vector;
        let b = world[self.middle].translation.vector;
        (b - a).norm() + (self.end_position(world) - b).norm()
    }

    /// Moves the limb so that its end reaches `goal` (or points at it, fully stretched, when out of reach).
    pub fn solve(&self, sk: &Skeleton, pose: &mut Pose, goal: &Vector3<f64>) {
        let end_rotation = pose.world_transforms(sk)[self.end].rotation;
        self.solve_to(sk, pose, goal, end_rotation);
    }

    /// [`Limb::solve`] with the end effector turned to the world rotation `end_rotation` (a foot tilted onto a
    /// slope).
    pub fn solve_to(
        &self,
        sk: &Skeleton,
        pose: &mut Pose,
        goal: &Vector3<f64>,
        end_rotation: UnitQuaternion<f64>,
    ) {
        let world = pose.world_transforms(sk);
        let a = world[self.upper].translation.vector;
        let b = world[self.middle].translation.vector;
        let c = self.end_position(&world);
        let Some((swing, bend)) = two_bone(
            [a, b, c],
            goal,
            &(world[self.upper].rotation * self.bend_hint),
        ) else {
            return;
        };
        let upper_w = swing * world[self.upper].rotation;
        let middle_w = swing * bend * world[self.middle].rotation;
        set_world_rotation(sk, pose, &world, self.upper, upper_w);
        let world = pose.world_transforms(sk);
        set_world_rotation(sk, pose, &world, self.middle, middle_w);
        let world = pose.world_transforms(sk);
        if self.end_attached {
            let at = world[self.middle] * self.tip;
            if let Some(p) = sk.joints[self.end].parent {
                pose.translations[self.end] = (world[p].inverse() * at).coords;
            }
        }
        set_world_rotation(sk, pose, &world, self.end, end_rotation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::Joint;

    #[test]
    fn a_leg_reaches_a_goal_and_keeps_the_foot_rotation() {
        let sk = Skeleton::new(vec![
            Joint::new("hip", None, Vector3::new(0.0, 1.0, 0.0), vec![]),
            Joint::new("knee", Some(0), Vector3::new(0.0, -0.5, 0.0), vec![]),
            Joint::new("ankle", Some(1), Vector3::new(0.0, -0.5, 0.0), vec![]),
        ])
        .unwrap();
        let limb = Limb {
            upper: 0,
            middle: 1,
            end: 2,
            end_attached: false,
            tip: Point3::new(0.0, -0.5, 0.0),
            bend_hint: -Vector3::x(),
        };
        let mut pose = Pose::rest(&sk);
        let goal = Vector3::new(0.1, 0.3, 0.2);
        limb.solve(&sk, &mut pose, &goal);
        let w = pose.world_transforms(&sk);
        assert!((w[2].translation.vector - goal).norm() < 1e-9);
        assert!(w[2].rotation.angle_to(&UnitQuaternion::identity()) < 1e-9);
        // Bones keep their lengths (rotations only).
        assert!(((w[1].translation.vector - w[0].translation.vector).norm() - 0.5).abs() < 1e-12);
    }
}
