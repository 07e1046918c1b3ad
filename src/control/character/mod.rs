//! The runtime character (Cline 2002 §5.1, p. 80): one rigid body per model body, joints, the root prescribed along
//! the reference path, and per joint a drive carrying the feedforward torque and the |τ|-scaled feedback, all
//! integrated by the world's linearly implicit step with post-stabilization.

use std::sync::Arc;

use nalgebra::Vector3;
use serde::{Deserialize, Serialize};

use super::discrete::JointStepTargets;
use super::gains::{Gains, JointGains, subtree_loads};
use super::reference::{Dofs, PreprocessConfig, ReferenceError, ReferenceMotion};
use super::residual::stiffness_corrections;
use super::sampling::{lerp_sample, locate};
use super::stream::{RootTrack, Stream};
use forces::ActiveForce;

mod forces;
mod guard;
mod query;
mod state;

mod streamed;
use crate::dynamics::{
    Body, DriveId, JointDrive, Stabilization, StepError, StepReport, UserForceId, World,
};
use crate::io::Imported;
use crate::model::{
    BuildConfig, ConfigError, Model, ModelError, parse_json, parse_toml, read_config_file,
};
use crate::skeleton::{Clip, Skeleton};
pub use guard::{FaultEvent, FaultKind, GuardConfig};
pub use state::CharacterState;

/// Everything that shapes a character: the body model, the preprocessing and the default gains.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CharacterConfig {
    /// Shapes, masses, joint kinds and per-bone gain overrides.
    pub model: BuildConfig,
    /// Simulation rate and smoothing.
    pub preprocess: PreprocessConfig,
    /// Default feedback gains (per-bone overrides in `model.bones.NAME.gains`).
    pub gains: Gains,
    /// The simulation guard's thresholds (see [`GuardConfig`]).
    pub guard: GuardConfig,
}

impl CharacterConfig {
    /// Parses JSON text.
    pub fn from_json(text: &str) -> Result<CharacterConfig, ConfigError> {
        parse_json(text)
    }

    /// Parses TOML text.
    pub fn from_toml(text: &str) -> Result<CharacterConfig, ConfigError> {
        parse_toml(text)
    }

    /// Reads a `.json` or `.toml` file (anything else is parsed as JSON).
    pub fn from_file(path: &std::path::Path) -> Result<CharacterConfig, ConfigError> {
        read_config_file(path)
    }
}

/// Why a character could not be built or stepped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CharacterError {
    /// The body model could not be built.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The clip could not be preprocessed.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// A gain is negative or not finite.
    #[error("gains of joint `{bone}` must be finite and ≥ 0: {gains:?}")]
    Gains {
        /// The bone (or `default`).
        bone: String,
        /// The offending gains.
        gains: Gains,
    },
    /// A bone reference names no joint (see [`crate::skeleton::roles::resolve_bone`] for the rule).
    #[error(transparent)]
    UnknownBone(#[from] crate::skeleton::roles::BoneLookupError),
    /// An argument is out of range (non-finite vector, non-positive time step or duration).
    #[error("{0}")]
    Argument(String),
    /// The simulation step failed.
    #[error(transparent)]
    Step(#[from] StepError),
    /// Contacts handed to the character were refused.
    #[error(transparent)]
    Contact(#[from] crate::dynamics::ContactError),
}

/// What the controller applies: both terms by default; switches for experiments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ControlTerms {
    /// Apply the inverse-dynamics feedforward torques.
    pub feedforward: bool,
    /// Apply the |τ|-scaled feedback.
    pub feedback: bool,
}

impl Default for ControlTerms {
    fn default() -> Self {
        ControlTerms {
            feedforward: true,
            feedback: true,
        }
    }
}

/// A physically simulated character replaying its reference motion.
pub struct Character {
    world: World,
    reference: Arc<ReferenceMotion>,
    model: Model,
    skeleton: Skeleton,
    clip: Clip,
    gains: Vec<JointGains>,
    drives: Vec<Option<DriveId>>,
    /// World constraint index of each body's joint (`usize::MAX` for the root).
    joints: Vec<usize>,
    /// Per step and body: the torque (joint frame) cancelling the drive's own residual on the reference (see
    /// `residual.rs`); added to the feedforward while the feedback is on.
    stiffness_correction: Vec<Vector3<f64>>,
    forces: Vec<ActiveForce>,
    free_forces: Vec<UserForceId>,
    terms: ControlTerms,
    guard: GuardConfig,
    last_fault: Option<FaultEvent>,
    fault_count: u64,
    /// Reference kinematics buffer of the guard's reset (kept so a reset does not allocate twice).
    scratch_kinematics: Vec<super::kinematics::BodyKinematics>,
    /// The root's path (the reference until targets are streamed), shared with the world's prescribed root.
    root_track: RootTrack,
    /// Streamed targets, once the first one was set (see `streamed.rs`).
    stream: Option<Box<Stream>>,
    /// Time constant (s) of the low-pass through which a streamed character's gains follow its feedforward.
    stream_gain_time_constant: f64,
}

impl std::fmt::Debug for Character {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Character")
            .field("bodies", &self.model.bodies.len())
            .field("time", &self.world.time())
            .finish_non_exhaustive()
    }
}

impl Character {
    /// Builds the character of an imported clip; a detected leading T-pose frame (cgspeed BVH) is dropped.
    pub fn from_imported(
        imported: Imported,
        config: &CharacterConfig,
    ) -> Result<Character, CharacterError> {
        let mut imported = imported;
        imported.drop_leading_tpose();
        Character::new(imported.skeleton, imported.clip, config)
    }

    /// Builds the model, preprocesses the clip and places the character on the first reference sample.
    pub fn new(
        skeleton: Skeleton,
        clip: Clip,
        config: &CharacterConfig,
    ) -> Result<Character, CharacterError> {
        if !config.guard.is_valid() {
            return Err(CharacterError::Argument(format!(
                "guard thresholds must be finite and > 0, got {:?}",
                config.guard
            )));
        }
        if !config.gains.is_valid() {
            return Err(CharacterError::Gains {
                bone: "default".into(),
                gains: config.gains,
            });
        }
        let model = Model::from_skeleton(&skeleton, &config.model)?;
        let reference = Arc::new(ReferenceMotion::build(
            &model,
            &skeleton,
            &clip,
            &config.preprocess,
        )?);
        let mut kin = Vec::new();
        reference.kinematics(0, &mut kin);
        let loads = subtree_loads(&reference.topology, &kin, reference.gravity.norm());
        let gains = model
            .bodies
            .iter()
            .zip(&loads)
            .map(|(b, &(load, inertia))| {
                let g = match config
                    .model
                    .bones
                    .get(&b.name)
                    .and_then(|c| c.gains.as_ref())
                {
                    Some(o) => config.gains.with_overrides(o),
                    None => config.gains,
                };
                if g.is_valid() {
                    Ok(g.resolve(load, inertia))
                } else {
                    Err(CharacterError::Gains {
                        bone: b.name.clone(),
                        gains: g,
                    })
                }
            })
            .collect::<Result<Vec<_>, _>>()?;

        let mut world = World::new();
        world.set_gravity(reference.gravity);
        world.set_stabilization(Stabilization::PostStab {
            max_iters: 3,
            tol: 1e-10,
        });
        for (b, k) in kin.iter().enumerate() {
            let mut body = Body::new(
                reference.topology.mass[b],
                reference.topology.inertia[b],
                k.com,
                k.rotation,
            );
            body.velocity = reference.twist(0, b);
            world.add_body(body);
        }
        let path = Arc::clone(&reference);
        let root_track = RootTrack::default();
        let track = root_track.clone();
        world.add_prescribed(0, Box::new(move |t: f64| track.pose(&path, t)));
        let mut drives = vec![None; kin.len()];
        let mut joints = vec![usize::MAX; kin.len()];
        for b in 1..kin.len() {
            let p = reference.topology.parent[b];
            let anchor = kin[b].origin;
            let frame = kin[p].rotation * reference.joint_frame[b];
            joints[b] = match reference.dofs[b] {
                Dofs::Ball => world.add_ball_joint(b, Some(p), anchor),
                Dofs::Hinge => world.add_hinge(b, Some(p), anchor, frame * Vector3::x()),
                Dofs::Universal => world.add_universal(
                    b,
                    Some(p),
                    anchor,
                    frame * Vector3::x(),
                    kin[b].rotation * (reference.joint_axes[b] * Vector3::y()),
                ),
            };
            let mut drive = JointDrive::new(
                world.bodies(),
                b,
                Some(p),
                Vector3::zeros(),
                Vector3::zeros(),
            );
            drive.frame = reference.joint_frame[b];
            drives[b] = Some(world.add_drive(drive));
        }
        world.prepare();
        let stiffness_correction = stiffness_corrections(&reference, &world, &drives, &gains);
        Ok(Character {
            world,
            reference,
            model,
            skeleton,
            clip,
            gains,
            drives,
            joints,
            stiffness_correction,
            forces: Vec::new(),
            free_forces: Vec::new(),
            terms: ControlTerms::default(),
            guard: config.guard,
            last_fault: None,
            fault_count: 0,
            scratch_kinematics: kin,
            root_track,
            stream: None,
            stream_gain_time_constant: super::stream::GAIN_TIME_CONSTANT_S,
        })
    }

    /// Selects which control terms are applied (both by default).
    pub fn set_control_terms(&mut self, terms: ControlTerms) {
        self.terms = terms;
    }

    /// The reference motion the controller tracks.
    pub fn reference(&self) -> &ReferenceMotion {
        &self.reference
    }

    /// The physical model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The skeleton of the clip.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// The clip as imported (after dropping a T-pose frame).
    pub fn clip(&self) -> &Clip {
        &self.clip
    }

    /// The simulated world (bodies in model order).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Simulation time (s).
    pub fn time(&self) -> f64 {
        self.world.time()
    }

    /// The simulation step the reference was preprocessed for (s).
    pub fn step_size(&self) -> f64 {
        self.reference.h
    }

    /// Whether the simulation has reached the end of the reference (it then holds the last pose).
    pub fn finished(&self) -> bool {
        self.stream.is_none() && self.world.time() >= self.reference.duration() - 1e-9
    }

    /// Advances by `h` seconds. At the preprocessed step size the targets and torques are the stored samples
    /// (the discrete-consistent path); at any other `h` they are interpolated on the reference.
    ///
    /// The step is guarded (see [`GuardConfig`]): a step that fails, or leaves a non-finite state, joints apart
    /// or absurd speeds, resets the character to its clip at the new time and is reported by
    /// [`Character::last_fault`]; the returned report is then that of the reset (zero gaps).
    pub fn step(&mut self, h: f64) -> Result<StepReport, CharacterError> {
        if !(h.is_finite() && h > 0.0) {
            return Err(CharacterError::Argument(format!(
                "time step must be positive, got {h}"
            )));
        }
        let t = self.world.time();
        if self.stream.is_some() {
            self.set_streamed_targets(h);
        } else {
            self.set_drive_targets(t, t + h);
        }
        self.arm_impulses(h);
        let result = self.world.step(h);
        self.expire_forces();
        if let Some(stream) = &mut self.stream {
            stream.advance();
        }
        Ok(self.guard_step(result, t + h)?)
    }

    /// Sets every drive's targets for the end of the step, the feedforward and gains of the step and the
    /// joints' anchor velocity bias, interpolated on the reference's step schedule.
    fn set_drive_targets(&mut self, t: f64, t_next: f64) {
        let reference = Arc::clone(&self.reference);
        let reference = &*reference;
        let (k, s) = locate(reference, t);
        let (k1, s1) = locate(reference, t_next);
        for b in 0..self.drives.len() {
            let Some(id) = self.drives[b] else { continue };
            let nb = reference.bodies();
            let tau = lerp_sample(reference, k, s, |k| reference.feedforward[k * nb + b]);
            let correction =
                lerp_sample(reference, k, s, |k| self.stiffness_correction[k * nb + b]);
            let velocity = lerp_sample(reference, k, s, |k| reference.target_velocity[k * nb + b]);
            let bias = lerp_sample(reference, k, s, |k| reference.anchor_bias[k * nb + b]);
            let rotation = reference.rotation_between(k1, s1, b);
            let targets = JointStepTargets {
                feedforward: tau,
                target_velocity: velocity,
                anchor_bias: bias,
            };
            self.apply_drive(b, id, &targets, tau, correction, rotation);
        }
    }

    /// Sets body `b`'s drive (`id`) for the coming step: the target rotation at its end, the step's targets from
    /// the discrete inverse dynamics (feedforward plus the drive residual `correction` when the feedback is on),
    /// gains following `|gain_torque|` (the feedforward itself, or its smoothed stream) and the joint's anchor
    /// velocity bias.
    fn apply_drive(
        &mut self,
        b: usize,
        id: DriveId,
        targets: &JointStepTargets,
        gain_torque: Vector3<f64>,
        correction: Vector3<f64>,
        rotation: nalgebra::UnitQuaternion<f64>,
    ) {
        let tau = targets.feedforward;
        let g = self.gains[b];
        let dofs = self.reference.dofs[b];
        let drive = self.world.drive_mut(id);
        drive.target_rotation = rotation;
        drive.target_velocity = targets.target_velocity;
        drive.feedforward = match self.terms {
            ControlTerms {
                feedforward: false, ..
            } => Vector3::zeros(),
            ControlTerms { feedback: true, .. } => tau + correction,
            _ => tau,
        };
        for i in 0..3 {
            let on = self.terms.feedback && dofs.is_free(i);
            drive.stiffness[i] = if on { g.stiffness(gain_torque[i]) } else { 0.0 };
            drive.damping[i] = if on { g.damping(gain_torque[i]) } else { 0.0 };
        }
        self.world
            .set_constraint_bias(self.joints[b], targets.anchor_bias.as_slice());
    }
}
