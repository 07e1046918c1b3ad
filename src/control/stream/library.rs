//! A clip library at runtime: several clips on one skeleton, played with cross-fades, looping and time scaling,
//! producing the target poses a streamed character follows (the feedforward of a blend comes from the online
//! inverse dynamics of [`crate::control::Character::set_target_pose`]).
//!
//! - **Cross-fade**: over `blend_s` the pose goes from the outgoing motion to the new clip, per joint by slerp
//!   (translations by lerp) with a smoothstep weight, so the blend starts and ends with zero weight velocity.
//! - **Root alignment**: a clip started by [`ClipPlayer::play`] is turned about the vertical (Y) axis and shifted
//!   horizontally so its root starts where the current motion's root is, with its heading; its height is its own.
//! - **Looping**: each cycle continues from where the last ended (its horizontal root displacement accumulates).
//! - **Time scaling**: `speed` multiplies the clip's clock.
//!
//! Poses keep the library skeleton's own translations for every joint but the root (clips of other subjects with
//! the same hierarchy have other bone lengths; the physical model is the library skeleton's).

use nalgebra::{UnitQuaternion, Vector3};

use crate::skeleton::{Clip, Pose, Skeleton, slerp_short};

/// Why a clip could not be added or played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LibraryError {
    /// The clip's skeleton differs from the library's.
    #[error("clip `{name}`: {why}")]
    Skeleton {
        /// The clip.
        name: String,
        /// What differs.
        why: String,
    },
    /// No clip has this index.
    #[error("no clip {0} in the library")]
    UnknownClip(usize),
    /// An argument is out of range.
    #[error("{0}")]
    Argument(String),
}

/// Clips sharing one skeleton.
#[derive(Debug, Clone)]
pub struct ClipLibrary {
    skeleton: Skeleton,
    root: usize,
    clips: Vec<(String, Clip)>,
}

impl ClipLibrary {
    /// An empty library for `skeleton` (the character's).
    pub fn new(skeleton: Skeleton) -> ClipLibrary {
        let root = skeleton
            .joints
            .iter()
            .position(|j| j.parent.is_none())
            .unwrap_or(0);
        ClipLibrary {
            skeleton,
            root,
            clips: Vec::new(),
        }
    }

    /// Adds `clip` (on `skeleton`, which must have the library's hierarchy: the same joints in the same order
    /// with the same parents; names may differ, e.g. CMU subjects call a finger joint `LFingers` or
    /// `LeftHandIndex1`); returns its index. Its non-root translations are replaced by the library skeleton's own.
    pub fn add(
        &mut self,
        name: &str,
        skeleton: &Skeleton,
        clip: Clip,
    ) -> Result<usize, LibraryError> {
        let bad = |why: String| LibraryError::Skeleton {
            name: name.to_string(),
            why,
        };
        if skeleton.len() != self.skeleton.len() {
            return Err(bad(format!(
                "{} joints, the library has {}",
                skeleton.len(),
                self.skeleton.len()
            )));
        }
        for (a, b) in skeleton.joints.iter().zip(&self.skeleton.joints) {
            if a.parent != b.parent {
                return Err(bad(format!(
                    "joint `{}` (parent {:?}) where the library has `{}` (parent {:?})",
                    a.name, a.parent, b.name, b.parent
                )));
            }
        }
        if clip.frames.is_empty() || !(clip.frame_time.is_finite() && clip.frame_time > 0.0) {
            return Err(bad("no frames or a bad frame time".into()));
        }
        let mut clip = clip;
        for pose in &mut clip.frames {
            if pose.rotations.len() != self.skeleton.len()
                || pose.translations.len() != self.skeleton.len()
            {
                return Err(bad("a frame does not match the skeleton".into()));
            }
            for (j, joint) in self.skeleton.joints.iter().enumerate() {
                if j != self.root {
                    pose.translations[j] = joint.offset;
                }
            }
        }
        self.clips.push((name.to_string(), clip));
        Ok(self.clips.len() - 1)
    }

    /// The index of the clip named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|(n, _)| n == name)
    }

    /// The library skeleton.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// A clip.
    pub fn clip(&self, index: usize) -> Option<&Clip> {
        self.clips.get(index).map(|(_, c)| c)
    }
}

/// One clip being played: from player time `start`, at `speed`, looping or held at its end, placed by `turn`
/// (about Y) and `shift` (horizontal).
#[derive(Debug, Clone, PartialEq)]
struct Layer {
    clip: usize,
    start: f64,
    speed: f64,
    looping: bool,
    turn: UnitQuaternion<f64>,
    shift: Vector3<f64>,
}

/// Plays clips of a [`ClipLibrary`] with cross-fades; [`ClipPlayer::sample`] gives the target pose at any time.
#[derive(Debug, Clone)]
pub struct ClipPlayer {
    current: Layer,
    /// The outgoing motion during a cross-fade (itself possibly a blend, frozen into its own player).
    previous: Option<(Box<ClipPlayer>, f64)>,
    blend_start: f64,
}

impl ClipPlayer {
    /// Plays clip `clip` from player time 0, unaligned.
    pub fn new(
        library: &ClipLibrary,
        clip: usize,
        looping: bool,
        speed: f64,
    ) -> Result<ClipPlayer, LibraryError> {
        check(library, clip, speed)?;
        Ok(ClipPlayer {
            current: Layer {
                clip,
                start: 0.0,
                speed,
                looping,
                turn: UnitQuaternion::identity(),
                shift: Vector3::zeros(),
            },
            previous: None,
            blend_start: 0.0,
        })
    }

    /// From player time `now`, plays clip `clip` (from its start, at `speed`, looping or not), cross-fading from
    /// the current motion over `blend_s` seconds (0: a cut), its root aligned with the current motion's.
    pub fn play(
        &mut self,
        library: &ClipLibrary,
        now: f64,
        clip: usize,
        blend_s: f64,
        looping: bool,
        speed: f64,
    ) -> Result<(), LibraryError> {
        check(library, clip, speed)?;
        if !(blend_s.is_finite() && blend_s >= 0.0 && now.is_finite()) {
            return Err(LibraryError::Argument(format!(
                "play: blend time must be finite and ≥ 0 and now finite, got {blend_s} s at {now} s"
            )));
        }
        let here = self.sample(library, now);
        let first = &library.clips[clip].1.frames[0];
        let r = library.root;
        let rest = library.skeleton.joints[r].rest_rotation;
        let yaw = |q: &UnitQuaternion<f64>| heading(&(rest * q));
        let turn = UnitQuaternion::from_axis_angle(
            &Vector3::y_axis(),
            yaw(&here.rotations[r]) - yaw(&first.rotations[r]),
        );
        let mut shift = here.translations[r] - turn * first.translations[r];
        shift.y = 0.0;
        let outgoing = std::mem::replace(
            self,
            ClipPlayer {
                current: Layer {
                    clip,
                    start: now,
                    speed,
                    looping,
                    turn,
                    shift,
                },
                previous: None,
                blend_start: now,
            },
        );
        if blend_s > 0.0 {
            self.previous = Some((Box::new(outgoing), blend_s));
        }
        Ok(())
    }

    /// The pose at player time `t`.
    pub fn sample(&self, library: &ClipLibrary, t: f64) -> Pose {
        let pose = self.current.sample(library, t);
        match &self.previous {
            Some((outgoing, blend_s)) if t < self.blend_start + blend_s => {
                let s = ((t - self.blend_start) / blend_s).clamp(0.0, 1.0);
                let w = s * s * (3.0 - 2.0 * s);
                let from = outgoing.sample(library, t);
                Pose {
                    translations: from
                        .translations
                        .iter()
                        .zip(&pose.translations)
                        .map(|(a, b)| a.lerp(b, w))
                        .collect(),
                    rotations: from
                        .rotations
                        .iter()
                        .zip(&pose.rotations)
                        .map(|(a, b)| slerp_short(a, b, w))
                        .collect(),
                }
            }
            _ => pose,
        }
    }
}

impl Layer {
    fn sample(&self, library: &ClipLibrary, t: f64) -> Pose {
        let clip = &library.clips[self.clip].1;
        let duration = clip.duration();
        let local = ((t - self.start) * self.speed).max(0.0);
        let r = library.root;
        let (local, cycles) = if self.looping && duration > 0.0 {
            let n = (local / duration).floor();
            (local - n * duration, n)
        } else {
            (local.min(duration), 0.0)
        };
        let mut pose = clip.sample(local);
        let mut per_cycle =
            clip.frames[clip.frames.len() - 1].translations[r] - clip.frames[0].translations[r];
        per_cycle.y = 0.0;
        let rest = library.skeleton.joints[r].rest_rotation;
        pose.translations[r] = self.turn * (pose.translations[r] + per_cycle * cycles) + self.shift;
        // The root's world rotation is rest·q: turn it in the world, keep the rest factor.
        pose.rotations[r] = rest.inverse() * self.turn * rest * pose.rotations[r];
        pose
    }
}

fn check(library: &ClipLibrary, clip: usize, speed: f64) -> Result<(), LibraryError> {
    if clip >= library.clips.len() {
        return Err(LibraryError::UnknownClip(clip));
    }
    if !(speed.is_finite() && speed > 0.0) {
        return Err(LibraryError::Argument(format!(
            "speed must be positive and finite, got {speed}"
        )));
    }
    Ok(())
}

/// The heading (rad, about +Y) of a world rotation: the direction its z axis points in the horizontal plane.
fn heading(q: &UnitQuaternion<f64>) -> f64 {
    let f = q * Vector3::z();
    f.x.atan2(f.z)
}
