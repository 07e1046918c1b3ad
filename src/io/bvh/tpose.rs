//! Detection of cgspeed's leading T-pose reference frame.
//!
//! The cgspeed CMU conversion prepends a reference frame (whole-degree rotations, nearly all zero, e.g. ±17° on
//! the upper legs and ±5° on the shoulders) that is not part of the motion. Rule: the clip has at least
//! [`MIN_FRAMES`] frames, every rotation channel of frame 0 is a whole number of degrees in the file, and the jump from frame 0 to frame 1 (the largest joint rotation change) is both larger than
//! [`MIN_JUMP_RAD`] and more than [`JUMP_RATIO`] × the largest frame-to-frame change in the rest of the clip.
//! A static clip (all frames equal) and a one-frame pose are never flagged.

use super::BvhDocument;
use crate::skeleton::{Channel, Clip, Pose};

/// Fewest frames for which the test makes sense (frame 0, frame 1, and at least one more step to compare to).
pub const MIN_FRAMES: usize = 3;
/// Smallest frame 0 → 1 rotation jump (radians) that counts as a discontinuity.
pub const MIN_JUMP_RAD: f64 = 0.2;
/// How much larger than any later frame-to-frame change the first jump must be.
pub const JUMP_RATIO: f64 = 3.0;

/// Largest rotation change of any joint between two poses (radians).
pub fn max_rotation_step(a: &Pose, b: &Pose) -> f64 {
    // The angle between two rotations grows as |q_a · q_b| shrinks, so find the smallest |dot| first (4
    // multiplications per joint) and take one arccos at the end.
    let min_dot = a
        .rotations
        .iter()
        .zip(&b.rotations)
        .map(|(x, y)| x.coords.dot(&y.coords).abs())
        .fold(1.0, f64::min);
    2.0 * min_dot.clamp(0.0, 1.0).acos()
}

/// (jump from frame 0 to 1, largest later frame-to-frame step), both in radians; `None` for short clips.
pub fn jump_statistics(clip: &Clip) -> Option<(f64, f64)> {
    let f = &clip.frames;
    if f.len() < MIN_FRAMES {
        return None;
    }
    let jump = max_rotation_step(f.first()?, f.get(1)?);
    let later = f
        .windows(2)
        .skip(1)
        .map(|w| match w {
            [a, b] => max_rotation_step(a, b),
            _ => 0.0,
        })
        .fold(0.0, f64::max);
    Some((jump, later))
}

/// Whether frame 0 of the file is a whole-degree reference frame that breaks away from the motion.
pub(crate) fn has_leading_tpose(doc: &BvhDocument, clip: &Clip) -> bool {
    let Some(values) = doc.frame(0) else {
        return false;
    };
    let mut rotation_channels = 0usize;
    for j in &doc.joints {
        for (k, c) in j.channels.iter().enumerate() {
            if matches!(c, Channel::Rotation(_)) {
                rotation_channels += 1;
                let v = values.get(j.first_value + k).copied().unwrap_or(f64::NAN);
                if v.fract() != 0.0 {
                    return false;
                }
            }
        }
    }
    if rotation_channels == 0 {
        return false;
    }
    match jump_statistics(clip) {
        Some((jump, later)) => jump > MIN_JUMP_RAD && jump > JUMP_RATIO * later,
        None => false,
    }
}
