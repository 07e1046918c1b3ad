//! A clip looped without a seam: a walk made as long as a course needs (`Clip::looped`).
//!
//! [`Clip::continued`] repeats the whole clip, so each repetition starts where the clip starts, whatever the
//! pose at its end: a walk's repetition jumps from one gait phase to another (the CMU walk's at 2.84 s splits a
//! stance and the feet jump by centimetres). Here the loop runs between the two frames, one in the clip's first
//! half and one at least half a clip later, whose poses and pose changes match best, and the first frames of
//! each repetition are blended from the frames that followed the loop's end in the clip.

use nalgebra::Vector3;

use super::{Clip, Pose};
use crate::math::rotation_distance;

/// How long the blend into each repetition lasts (s), at most.
const BLEND_S: f64 = 0.2;
/// Frames ahead compared with each other as well (the pose's change, so the loop keeps the gait's phase).
const LOOKAHEAD_FRAMES: usize = 2;
/// Weight of the root height's difference (per metre) beside the joints' rotation differences (per radian).
const ROOT_HEIGHT_WEIGHT: f64 = 10.0;

impl Clip {
    /// The clip made `seconds` long (rounded to whole frames): played to the end of its best loop, then that
    /// loop repeated, each repetition moved on horizontally by the distance the loop travels and blended in over
    /// up to 0.2 s (see the module's comment). The repetitions are not turned: a clip that turns jumps in heading
    /// at each (over the blend). A clip of fewer than 8 frames is [`Clip::continued`]; empty for a frame time or
    /// `seconds` that is not positive.
    pub fn looped(&self, seconds: f64) -> Clip {
        let n = self.frames.len();
        let total = self.frames_for(seconds);
        let Some((a, b)) = self.best_loop() else {
            return self.continued(seconds);
        };
        let period = b - a;
        let root = |f: usize| {
            self.frames[f]
                .translations
                .first()
                .copied()
                .unwrap_or_else(Vector3::zeros)
        };
        let travel = root(b) - root(a);
        let travel = Vector3::new(travel.x, 0.0, travel.z);
        let blend = ((BLEND_S / self.frame_time).round() as usize).min(n - 1 - b);
        let moved = |f: usize, by: usize| {
            let mut pose = self.frames[f].clone();
            if let Some(t) = pose.translations.first_mut() {
                *t += travel * by as f64;
            }
            pose
        };
        let frames = (0..total)
            .map(|i| {
                if i < b {
                    return self.frames[i].clone();
                }
                let (repetition, k) = (1 + (i - b) / period, (i - b) % period);
                let pose = moved(a + k, repetition);
                if k < blend {
                    // The clip's own continuation past the loop's end, in the previous repetition's place.
                    let before = moved(b + k, repetition - 1);
                    let w = (k + 1) as f64 / (blend + 1) as f64;
                    Pose::interpolate(&before, &pose, w)
                } else {
                    pose
                }
            })
            .collect();
        Clip {
            frame_time: self.frame_time,
            frames,
        }
    }

    /// The loop `(a, b)`: `a` in the clip's first half, `b` at least half a clip after it with room for the
    /// lookahead, whose poses (and the poses `LOOKAHEAD_FRAMES` later) differ least; `None` for fewer than 8
    /// frames.
    fn best_loop(&self) -> Option<(usize, usize)> {
        let n = self.frames.len();
        if n < 8 {
            return None;
        }
        let distance = |p: &Pose, q: &Pose| {
            let joints: f64 = p
                .rotations
                .iter()
                .zip(&q.rotations)
                .map(|(x, y)| rotation_distance(x, y).powi(2))
                .sum();
            let height = match (p.translations.first(), q.translations.first()) {
                (Some(x), Some(y)) => ROOT_HEIGHT_WEIGHT * (x.y - y.y),
                _ => 0.0,
            };
            joints + height * height
        };
        let mut best: Option<(f64, usize, usize)> = None;
        for a in 0..n / 2 {
            for b in a + n / 2..n - LOOKAHEAD_FRAMES {
                let d = distance(&self.frames[a], &self.frames[b])
                    + distance(
                        &self.frames[a + LOOKAHEAD_FRAMES],
                        &self.frames[b + LOOKAHEAD_FRAMES],
                    );
                if best.is_none_or(|(e, _, _)| d < e) {
                    best = Some((d, a, b));
                }
            }
        }
        best.map(|(_, a, b)| (a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::UnitQuaternion;

    /// A one-joint clip swinging `angle(t)` about x, its root walking along +z at 1 m/s.
    fn swinging(frames: usize, angle: impl Fn(f64) -> f64) -> Clip {
        let frame_time = 1.0 / 30.0;
        Clip {
            frame_time,
            frames: (0..frames)
                .map(|i| {
                    let t = i as f64 * frame_time;
                    Pose {
                        translations: vec![Vector3::new(0.0, 1.0, t)],
                        rotations: vec![UnitQuaternion::from_axis_angle(
                            &Vector3::x_axis(),
                            angle(t),
                        )],
                    }
                })
                .collect(),
        }
    }

    #[test]
    fn a_periodic_motion_loops_on_its_period_without_a_jump() {
        // A 1 s period in a 1.7 s clip: `continued` jumps at 1.7 s, the loop runs a whole period.
        let clip = swinging(51, |t| (std::f64::consts::TAU * t).sin());
        let (a, b) = clip.best_loop().unwrap();
        assert_eq!(b - a, 30, "loop {a}..{b}");
        let long = clip.looped(5.0);
        assert_eq!(long.frames.len(), 150);
        let step = |c: &Clip, i: usize| {
            rotation_distance(&c.frames[i].rotations[0], &c.frames[i + 1].rotations[0])
        };
        let largest = |c: &Clip| {
            (0..c.frames.len() - 1)
                .map(|i| step(c, i))
                .fold(0.0, f64::max)
        };
        let natural = largest(&clip);
        assert!(
            largest(&long) <= natural * 1.001,
            "{} > {natural}",
            largest(&long)
        );
        assert!(largest(&clip.continued(5.0)) > 3.0 * natural);
        // The root keeps walking at 1 m/s: every frame one frame's travel ahead of the one before.
        for i in 0..long.frames.len() - 1 {
            let dz = long.frames[i + 1].translations[0].z - long.frames[i].translations[0].z;
            assert!((dz - 1.0 / 30.0).abs() < 1e-9, "frame {i}: {dz}");
        }
    }

    #[test]
    fn short_or_invalid_clips_fall_back_or_are_empty() {
        let clip = swinging(5, |t| t);
        assert_eq!(clip.looped(1.0), clip.continued(1.0));
        assert!(swinging(40, |t| t).looped(f64::NAN).frames.is_empty());
        assert!(swinging(40, |t| t).looped(-1.0).frames.is_empty());
    }
}
