//! Clips: sampled motion on a skeleton, forward kinematics and sampling at any time.

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

use super::Skeleton;
use crate::math::same_hemisphere;

/// The local state of every joint at one instant.
///
/// Joint `j`'s frame relative to its parent's is `T(translations[j]) · R(rest_rotation_j · rotations[j])`.
#[derive(Debug, Clone, PartialEq)]
pub struct Pose {
    /// Local translation of each joint in its parent's frame (metres): the rest offset, plus whatever position
    /// channels add. Joints without position channels carry their rest offset.
    pub translations: Vec<Vector3<f64>>,
    /// Local rotation of each joint relative to its rest orientation (the joint rotation the controller tracks).
    pub rotations: Vec<UnitQuaternion<f64>>,
}

impl Pose {
    /// The rest pose of a skeleton: rest offsets, identity rotations.
    pub fn rest(skeleton: &Skeleton) -> Pose {
        Pose {
            translations: skeleton.joints.iter().map(|j| j.offset).collect(),
            rotations: vec![UnitQuaternion::identity(); skeleton.len()],
        }
    }

    /// World transform of every joint (forward kinematics), written into `out` (resized to the joint count).
    pub fn world_transforms_into(&self, skeleton: &Skeleton, out: &mut Vec<Isometry3<f64>>) {
        out.clear();
        for (i, joint) in skeleton.joints.iter().enumerate() {
            let local = Isometry3::from_parts(
                Translation3::from(self.translations[i]),
                joint.rest_rotation * self.rotations[i],
            );
            let world = match joint.parent {
                Some(p) => out[p] * local,
                None => local,
            };
            out.push(world);
        }
    }

    /// World transform of every joint (forward kinematics).
    pub fn world_transforms(&self, skeleton: &Skeleton) -> Vec<Isometry3<f64>> {
        let mut out = Vec::with_capacity(skeleton.len());
        self.world_transforms_into(skeleton, &mut out);
        out
    }

    /// Interpolates two poses: translations linearly, rotations by slerp along the short arc.
    pub fn interpolate(a: &Pose, b: &Pose, t: f64) -> Pose {
        Pose {
            translations: a
                .translations
                .iter()
                .zip(&b.translations)
                .map(|(x, y)| x.lerp(y, t))
                .collect(),
            rotations: a
                .rotations
                .iter()
                .zip(&b.rotations)
                .map(|(x, y)| slerp_short(x, y, t))
                .collect(),
        }
    }
}

/// Slerp from `a` to `b` along the shorter arc (the sign of `b` is chosen to match `a`).
pub fn slerp_short(
    a: &UnitQuaternion<f64>,
    b: &UnitQuaternion<f64>,
    t: f64,
) -> UnitQuaternion<f64> {
    let b = same_hemisphere(*b, a);
    // nalgebra's slerp returns None only for antipodal inputs, which `same_hemisphere` rules out; nlerp is
    // the exact limit for (near-)identical inputs.
    a.try_slerp(&b, t, 1e-12).unwrap_or_else(|| a.nlerp(&b, t))
}

/// A clip: poses sampled at a fixed frame time on one skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// Seconds between frames.
    pub frame_time: f64,
    /// One pose per frame, each with one entry per skeleton joint.
    pub frames: Vec<Pose>,
}

impl Clip {
    /// Number of frames.
    pub fn frame_count(&self) -> usize {
        self.frames.len()
    }

    /// Frames per second.
    pub fn frame_rate(&self) -> f64 {
        1.0 / self.frame_time
    }

    /// Duration in seconds from the first to the last frame.
    pub fn duration(&self) -> f64 {
        self.frame_time * (self.frames.len().saturating_sub(1)) as f64
    }

    /// The pose at time `t` seconds (clamped to the clip): lerp of translations, slerp of rotations between the
    /// neighbouring frames. Panics only on a clip without frames.
    pub fn sample(&self, t: f64) -> Pose {
        let n = self.frames.len();
        assert!(n > 0, "Clip::sample on an empty clip");
        let x = (t / self.frame_time).clamp(0.0, (n - 1) as f64);
        let i = (x.floor() as usize).min(n - 1);
        let frac = x - i as f64;
        if i + 1 >= n || frac == 0.0 {
            return self.frames[i].clone();
        }
        Pose::interpolate(&self.frames[i], &self.frames[i + 1], frac)
    }

    /// Makes every joint's rotation sequence hemisphere-continuous (q and −q are the same rotation, but
    /// interpolation and differentiation need neighbours on the same side).
    pub fn make_hemisphere_continuous(&mut self) {
        for f in 1..self.frames.len() {
            let (prev, cur) = self.frames.split_at_mut(f);
            let prev = &prev[f - 1];
            for (q, p) in cur[0].rotations.iter_mut().zip(&prev.rotations) {
                *q = same_hemisphere(*q, p);
            }
        }
    }

    /// Removes the first frame (e.g. the cgspeed T-pose reference frame).
    pub fn drop_first_frame(&mut self) {
        if !self.frames.is_empty() {
            self.frames.remove(0);
        }
    }

    /// The clip played elsewhere: every root joint of `skeleton` turned by `yaw` (radians, about the vertical
    /// through its first frame's position) and then moved by `offset` (m). For crowds in crossing lanes and
    /// characters placed side by side (`flinch view`).
    pub fn placed(&self, skeleton: &Skeleton, yaw: f64, offset: Vector3<f64>) -> Clip {
        let turn = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), yaw);
        let mut clip = self.clone();
        for (j, joint) in skeleton.joints.iter().enumerate() {
            if joint.parent.is_some() {
                continue;
            }
            let Some(first) = clip
                .frames
                .first()
                .and_then(|f| f.translations.get(j).copied())
            else {
                continue;
            };
            let pivot = Vector3::new(first.x, 0.0, first.z);
            // A root's rotation is relative to its rest orientation: the world turn is conjugated by it.
            let local_turn = joint.rest_rotation.inverse() * turn * joint.rest_rotation;
            for frame in &mut clip.frames {
                if let (Some(t), Some(q)) =
                    (frame.translations.get_mut(j), frame.rotations.get_mut(j))
                {
                    *t = turn * (*t - pivot) + pivot + offset;
                    *q = local_turn * *q;
                }
            }
        }
        clip
    }

    /// How many frames make `seconds` (rounded), 0 for a clip without frames, a frame time that is not positive
    /// or `seconds` that is not: the length of [`Clip::continued`] and [`Clip::looped`].
    pub(super) fn frames_for(&self, seconds: f64) -> usize {
        let valid = !self.frames.is_empty()
            && self.frame_time > 0.0
            && seconds.is_finite()
            && seconds > 0.0;
        if valid {
            (seconds / self.frame_time).round() as usize
        } else {
            0
        }
    }

    /// The clip repeated to `seconds` (rounded to whole frames), each repetition's root moved on horizontally by
    /// the distance the one before travelled, so a walk keeps walking instead of jumping back to its start (long
    /// clips for benchmarks and crowds). Empty for a clip without frames, a frame time that is not positive or
    /// `seconds` that is not.
    pub fn continued(&self, seconds: f64) -> Clip {
        let n = self.frames.len();
        let frames = self.frames_for(seconds);
        let root = |f: &Pose| {
            f.translations
                .first()
                .copied()
                .unwrap_or_else(Vector3::zeros)
        };
        let travel = match (self.frames.first(), self.frames.last()) {
            (Some(a), Some(b)) => root(b) - root(a),
            _ => Vector3::zeros(),
        };
        let travel = Vector3::new(travel.x, 0.0, travel.z);
        Clip {
            frame_time: self.frame_time,
            frames: (0..frames)
                .map(|i| {
                    let mut pose = self.frames[i % n].clone();
                    if let Some(t) = pose.translations.first_mut() {
                        *t += travel * (i / n) as f64;
                    }
                    pose
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Axis, axis_rotation, rotation_distance};
    use crate::skeleton::{Channel, Joint};

    fn arm() -> Skeleton {
        let rot = vec![
            Channel::Rotation(Axis::Z),
            Channel::Rotation(Axis::X),
            Channel::Rotation(Axis::Y),
        ];
        Skeleton::new(vec![
            Joint::new("root", None, Vector3::zeros(), rot.clone()),
            Joint::new("elbow", Some(0), Vector3::new(1.0, 0.0, 0.0), rot.clone()),
            Joint::new("wrist", Some(1), Vector3::new(1.0, 0.0, 0.0), rot),
        ])
        .unwrap()
    }

    #[test]
    fn forward_kinematics_composes_parent_first() {
        let sk = arm();
        let mut pose = Pose::rest(&sk);
        pose.rotations[0] = axis_rotation(Axis::Z, std::f64::consts::FRAC_PI_2);
        pose.rotations[1] = axis_rotation(Axis::Z, std::f64::consts::FRAC_PI_2);
        let w = pose.world_transforms(&sk);
        // Root turns +90° about z: elbow at (0,1,0); elbow turns another 90°: wrist at (-1,1,0).
        assert!((w[1].translation.vector - Vector3::new(0.0, 1.0, 0.0)).norm() < 1e-12);
        assert!((w[2].translation.vector - Vector3::new(-1.0, 1.0, 0.0)).norm() < 1e-12);
    }

    /// Two frames 0.5 s apart: the rest pose, then the root moved to `root` and the elbow turned 1 rad about y.
    fn two_frames(root: Vector3<f64>) -> Clip {
        let sk = arm();
        let a = Pose::rest(&sk);
        let mut b = Pose::rest(&sk);
        b.translations[0] = root;
        b.rotations[1] = axis_rotation(Axis::Y, 1.0);
        Clip {
            frame_time: 0.5,
            frames: vec![a, b],
        }
    }

    #[test]
    fn sampling_interpolates_between_frames() {
        let clip = two_frames(Vector3::new(2.0, 0.0, 0.0));
        let mid = clip.sample(0.25);
        assert!((mid.translations[0].x - 1.0).abs() < 1e-12);
        assert!(rotation_distance(&mid.rotations[1], &axis_rotation(Axis::Y, 0.5)) < 1e-12);
        assert_eq!(clip.sample(10.0), clip.frames[1]);
        assert_eq!(clip.sample(-1.0), clip.frames[0]);
        assert!((clip.duration() - 0.5).abs() < 1e-15);
    }

    #[test]
    fn a_continued_walk_moves_on_by_each_repetitions_travel() {
        let clip = two_frames(Vector3::new(1.0, 0.3, 2.0));
        let (a, b) = (clip.frames[0].clone(), clip.frames[1].clone());
        // 2.5 s = 5 frames: a, b, a + travel, b + travel, a + 2 travel (travel horizontal: (1, 0, 2)).
        let long = clip.continued(2.5);
        assert_eq!(long.frames.len(), 5);
        let travel = Vector3::new(1.0, 0.0, 2.0);
        assert_eq!(long.frames[3].translations[0], b.translations[0] + travel);
        assert_eq!(
            long.frames[4].translations[0],
            a.translations[0] + travel * 2.0
        );
        assert_eq!(long.frames[3].rotations, b.rotations);
        assert_eq!(long.frames[4].translations[1], a.translations[1]);
        // Nothing to repeat, or no time: empty, no panic.
        assert!(clip.continued(f64::NAN).frames.is_empty());
        let empty = Clip {
            frame_time: 0.0,
            frames: Vec::new(),
        };
        assert!(empty.continued(10.0).frames.is_empty());
    }

    #[test]
    fn slerp_takes_short_arc() {
        let a = axis_rotation(Axis::X, 0.1);
        let b = UnitQuaternion::new_unchecked(-axis_rotation(Axis::X, 0.3).into_inner());
        let m = slerp_short(&a, &b, 0.5);
        assert!(rotation_distance(&m, &axis_rotation(Axis::X, 0.2)) < 1e-12);
    }

    #[test]
    fn skeleton_rejects_bad_parent_order() {
        let j = |p| Joint::new("j", p, Vector3::zeros(), vec![]);
        assert!(Skeleton::new(vec![j(None), j(Some(1))]).is_err());
        assert!(Skeleton::new(vec![j(Some(0))]).is_err());
        assert!(Skeleton::new(vec![]).is_err());
        assert!(Skeleton::new(vec![j(None), j(Some(0)), j(Some(0))]).is_ok());
    }
}
