//! Streamed targets: the character follows poses pushed every step (an engine's animation system) instead of
//! its preprocessed clip, with the feedforward computed online by the discrete-step inverse dynamics on the
//! ring of the last three poses (see `control/stream` and `docs/engine.md`).

use nalgebra::{UnitQuaternion, Vector3};

use super::{Character, CharacterConfig, CharacterError};
use crate::control::pose_coords::PoseCoords;
use crate::control::residual::{PathDrive, drive_correction_on_path};
use crate::control::sampling::locate;
use crate::control::stream::online::{joint_on_path, step_wrenches_with_matrices};
use crate::control::stream::{GenPose, PoseVelocities, RootSegment, Stream};
use crate::math::rotation::exp_rotation;
use crate::math::spatial::twist;
use crate::skeleton::{Clip, Pose, Skeleton};

impl Character {
    /// Builds a character driven only by streamed targets ([`Character::set_target_pose`]): the body model of
    /// `skeleton`, placed in `initial` (at rest, or moving with `velocities`). No clip is preprocessed; the gains'
    /// load floors come from `initial`. `config.preprocess.rate_hz` sets [`Character::step_size`].
    pub fn streamed(
        skeleton: Skeleton,
        initial: &Pose,
        velocities: Option<&PoseVelocities>,
        config: &CharacterConfig,
    ) -> Result<Character, CharacterError> {
        check_pose(&skeleton, initial, "initial pose")?;
        let initial = normalized(initial);
        if let Some(v) = velocities {
            check_velocities(&skeleton, v)?;
        }
        let mut config = config.clone();
        // One frame: nothing to filter.
        config.preprocess.cutoff_hz = None;
        let frame_time = 1.0 / config.preprocess.rate_hz;
        let clip = Clip {
            frame_time: if frame_time.is_finite() && frame_time > 0.0 {
                frame_time
            } else {
                1.0
            },
            frames: vec![initial.clone()],
        };
        let mut c = Character::new(skeleton, clip, &config)?;
        // The pose one step before, along the velocities: the chord the character starts with.
        let h = c.prepared.reference.h;
        let before = match velocities {
            Some(v) => rewind(&c.prepared.skeleton, &initial, v, h),
            None => initial.clone(),
        };
        let mut coords = PoseCoords::new(&c.prepared.model, &c.prepared.skeleton);
        let coords_pose = |coords: &mut PoseCoords, pose: &Pose, time: f64| {
            let mut rot = vec![UnitQuaternion::identity(); c.prepared.model.bodies.len()];
            let root = coords.project_local(
                &c.prepared.model,
                &c.prepared.skeleton,
                &c.prepared.reference.topology,
                pose,
                None,
                &mut rot,
            );
            GenPose { root, rot, time }
        };
        let prev = coords_pose(&mut coords, &before, -h);
        let cur = coords_pose(&mut coords, &initial, 0.0);
        let stream = Stream::new(
            coords,
            &c.prepared.reference.topology,
            &c.prepared.reference.joint_frame,
            prev,
            cur,
            initial,
            c.root_track.clone(),
        );
        let (_, _, v, _) = stream.step_path();
        let start: Vec<_> = v.iter().map(|(w, l)| twist(w, l)).collect();
        for (b, v) in start.iter().enumerate() {
            c.world.body_mut(b).velocity = *v;
        }
        c.install_stream(stream);
        Ok(c)
    }

    /// Sets the target pose of the coming step: `pose` (skeleton order, like a clip frame: local rotations
    /// relative to rest, the root's translation and rotation) is where the character should be at the end of
    /// the next [`Character::step`] (in a [`crate::scene::Scene`], at the end of the next frame). The first call
    /// on a clip character switches it from its clip to the stream. `velocities`, when the animation system knows
    /// them, continue the target through steps no new target arrives for (else the last two targets'
    /// velocity does); the feedforward always uses the finite differences of the targets, which is what the step
    /// integrates.
    pub fn set_target_pose(
        &mut self,
        pose: &Pose,
        velocities: Option<&PoseVelocities>,
    ) -> Result<(), CharacterError> {
        self.push_target(pose, velocities, None)
    }

    /// Like [`Character::set_target_pose`], for a target at time `time` (s, ≥ the end of the next step): the
    /// steps until then aim at points on the way to it (a slerp from the pose reached).
    pub fn set_target_pose_at(
        &mut self,
        pose: &Pose,
        velocities: Option<&PoseVelocities>,
        time: f64,
    ) -> Result<(), CharacterError> {
        if !(time.is_finite() && time > self.time()) {
            return Err(CharacterError::Argument(format!(
                "a target's time must be finite and after the character's time {}, got {time}",
                self.time()
            )));
        }
        self.push_target(pose, velocities, Some(time))
    }

    /// Sets the time constant (s, ≥ 0; default [`crate::control::stream::GAIN_TIME_CONSTANT_S`]) of the low-pass
    /// through which the feedback gains follow the feedforward torque while targets are streamed (0: no
    /// smoothing). A clip character keeps it for when it is streamed.
    pub fn set_stream_gain_time_constant(&mut self, seconds: f64) -> Result<(), CharacterError> {
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(CharacterError::Argument(format!(
                "gain time constant must be finite and ≥ 0, got {seconds}"
            )));
        }
        self.stream_gain_time_constant = seconds;
        if let Some(s) = &mut self.stream {
            s.gain_filter.time_constant = seconds;
        }
        Ok(())
    }

    /// Whether the character follows streamed targets (rather than its clip).
    pub fn is_streamed(&self) -> bool {
        self.stream.is_some()
    }

    /// Whether a streamed target is waiting for the next step.
    pub fn has_pending_target(&self) -> bool {
        self.stream.as_ref().is_some_and(|s| s.has_pending())
    }

    /// A target set for "the end of the next step" is reached at `t` instead (the end of a scene frame stepped
    /// in substeps).
    pub(crate) fn anchor_pending_target(&mut self, t: f64) {
        if let Some(s) = &mut self.stream {
            s.anchor_pending(t);
        }
    }

    fn push_target(
        &mut self,
        pose: &Pose,
        velocities: Option<&PoseVelocities>,
        time: Option<f64>,
    ) -> Result<(), CharacterError> {
        check_pose(&self.prepared.skeleton, pose, "target pose")?;
        if let Some(v) = velocities {
            check_velocities(&self.prepared.skeleton, v)?;
        }
        if self.stream.is_none() {
            self.begin_stream();
        }
        let Some(stream) = self.stream.as_mut() else {
            return Ok(());
        };
        stream.push(
            &self.prepared.model,
            &self.prepared.skeleton,
            &self.prepared.reference.topology,
            pose,
            velocities,
            time,
        );
        Ok(())
    }

    /// Starts streaming from the reference where the character is now (its sample and the one before).
    fn begin_stream(&mut self) {
        let reference = &self.prepared.reference;
        let nb = reference.bodies();
        let t = self.world.time();
        let (k, _) = locate(reference, t);
        let at = |k: usize, time: f64| GenPose {
            root: reference.root_pos[k],
            rot: reference.rot[k * nb..(k + 1) * nb].to_vec(),
            time,
        };
        let prev = if k > 0 {
            at(k - 1, t - reference.h)
        } else {
            at(0, t)
        };
        let pose = self
            .prepared
            .clip
            .sample(t.min(self.prepared.clip.duration()));
        let stream = Stream::new(
            PoseCoords::new(&self.prepared.model, &self.prepared.skeleton),
            &reference.topology,
            &reference.joint_frame,
            prev,
            at(k, t),
            pose,
            self.root_track.clone(),
        );
        self.install_stream(stream);
    }

    /// Makes `stream` the character's source of targets, with the character's gain smoothing.
    fn install_stream(&mut self, mut stream: Stream) {
        stream.gain_filter.time_constant = self.stream_gain_time_constant;
        self.stream = Some(Box::new(stream));
    }

    /// The streamed step's targets: the online discrete inverse dynamics from the pose reached to the target,
    /// the drive residual correction, the gains following |τ|, and the root's segment. One pass per body
    /// (`control/stream/online`): the same values as the preprocessing's functions up to round-off.
    pub(super) fn set_streamed_targets(&mut self, h: f64) {
        let Some(mut stream) = self.stream.take() else {
            return;
        };
        let t = self.world.time();
        let reference = std::sync::Arc::clone(&self.prepared.reference);
        let topo = &reference.topology;
        stream.prepare(&self.prepared.model, &self.prepared.skeleton, topo, t, h);
        let mut wrenches = std::mem::take(&mut stream.wrenches);
        let mut gain_filter = std::mem::take(&mut stream.gain_filter);
        let (kin, kin1, v, v1) = stream.step_path();
        let (mats, frames) = stream.step_matrices();
        step_wrenches_with_matrices(topo, kin, mats, v, v1, h, &reference.gravity, &mut wrenches);
        stream.root.set(RootSegment {
            t0: t,
            start: (kin[0].com, kin[0].rotation),
            t1: t + h,
            end: (kin1[0].com, kin1[0].rotation),
        });
        for b in 0..self.drives.len() {
            let Some(id) = self.drives[b] else { continue };
            let dofs = reference.dofs[b];
            let joint = joint_on_path(topo, kin, mats, v, v1, &wrenches, &frames[b], dofs, h, b);
            let rotation = stream.target_rotation(b);
            let gain_torque = gain_filter.filter(b, joint.targets.feedforward, h);
            let drive = self.world.drive(id);
            let correction = if !self.terms.feedback {
                Vector3::zeros()
            } else if drive.frame == reference.joint_frame[b] {
                joint.correction(
                    &stream.rotation_error(b),
                    &frames[b],
                    &self.prepared.gains[b],
                    dofs,
                    &gain_torque,
                    h,
                )
            } else {
                // A drive whose axes are not the joint's (set by hand): the general closed form.
                let p = topo.parent[b];
                drive_correction_on_path(
                    drive,
                    &PathDrive {
                        target_rotation: rotation,
                        gain_torque,
                        axes: kin[p].rotation * reference.joint_frame[b],
                        rotation: (kin[b].rotation, kin[p].rotation),
                        omega: (v[b].0, v[p].0),
                        next_omega: (v1[b].0, v1[p].0),
                    },
                    &self.prepared.gains[b],
                    dofs,
                    h,
                )
            };
            self.apply_drive(b, id, &joint.targets, gain_torque, correction, rotation);
        }
        stream.wrenches = wrenches;
        stream.gain_filter = gain_filter;
        self.stream = Some(stream);
    }
}

/// `pose` with its rotations renormalized.
fn normalized(pose: &Pose) -> Pose {
    let mut out = pose.clone();
    for q in &mut out.rotations {
        *q = UnitQuaternion::new_normalize(q.into_inner());
    }
    out
}

/// Checks `pose` against `skeleton`: one finite entry per joint, no zero rotation. Every streamed target passes
/// here, so without a square root or an early exit per value: `|q|² > 1e-18` is `|q| > 1e-9`, and a sum of
/// `x·0` is 0 exactly when every `x` is finite (an infinity or NaN makes it NaN).
fn check_pose(skeleton: &Skeleton, pose: &Pose, what: &str) -> Result<(), CharacterError> {
    let n = skeleton.len();
    if pose.rotations.len() != n || pose.translations.len() != n {
        return Err(CharacterError::Argument(format!(
            "{what}: {} rotations and {} translations for {n} skeleton joints",
            pose.rotations.len(),
            pose.translations.len()
        )));
    }
    for (j, (q, x)) in pose.rotations.iter().zip(&pose.translations).enumerate() {
        let c = q.quaternion().coords;
        let zero = (c[0] * 0.0 + c[1] * 0.0 + c[2] * 0.0 + c[3] * 0.0)
            + (x[0] * 0.0 + x[1] * 0.0 + x[2] * 0.0);
        if !(zero == 0.0 && c.norm_squared() > 1e-18) {
            return Err(CharacterError::Argument(format!(
                "{what}: joint {j} (`{}`) has a non-finite or zero rotation or translation",
                skeleton.joints[j].name
            )));
        }
    }
    Ok(())
}

/// `velocities` checked against `skeleton`.
fn check_velocities(skeleton: &Skeleton, v: &PoseVelocities) -> Result<(), CharacterError> {
    if v.angular.len() != skeleton.len() {
        return Err(CharacterError::Argument(format!(
            "pose velocities: {} angular velocities for {} skeleton joints",
            v.angular.len(),
            skeleton.len()
        )));
    }
    if !v
        .angular
        .iter()
        .chain(std::iter::once(&v.root_linear))
        .all(|w| w.iter().all(|c| c.is_finite()))
    {
        return Err(CharacterError::Argument(
            "pose velocities must be finite".into(),
        ));
    }
    Ok(())
}

/// The pose `h` seconds before `pose` along `velocities`.
fn rewind(skeleton: &Skeleton, pose: &Pose, v: &PoseVelocities, h: f64) -> Pose {
    let mut out = pose.clone();
    for (q, w) in out.rotations.iter_mut().zip(&v.angular) {
        *q *= exp_rotation(&(-w * h));
    }
    if let Some(r) = skeleton.joints.iter().position(|j| j.parent.is_none()) {
        out.translations[r] -= v.root_linear * h;
    }
    out
}
