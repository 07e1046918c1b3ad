//! The runtime character (Cline 2002 §5.1, p. 80): one rigid body per model body, joints, the root prescribed along
//! the reference path, and per joint a drive carrying the feedforward torque and the |τ|-scaled feedback, all
//! integrated by the world's linearly implicit step with post-stabilization.

use std::sync::Arc;

use nalgebra::Vector3;
use serde::{Deserialize, Serialize};

use super::discrete::JointStepTargets;
use super::gains::Gains;
use super::reference::{PreprocessConfig, ReferenceError, ReferenceMotion};
use super::sampling::{lerp_sample, locate};
use super::stream::{RootTrack, Stream};
use forces::ActiveForce;

mod forces;
mod guard;
mod prepared;
mod query;
mod root;
mod state;

mod streamed;
use crate::dynamics::{DriveId, StepError, StepReport, StepScratch, UserForceId, World};
use crate::io::Imported;
use crate::model::{
    BuildConfig, ConfigError, Model, ModelError, parse_json, parse_toml, read_config_file,
};
use crate::skeleton::{Clip, Skeleton};
pub use guard::{FaultEvent, FaultKind, GuardConfig};
pub use prepared::PreparedClip;
use prepared::build_world;
pub use root::{
    BalanceConfig, FreeRootFigures, GetUpConfig, RootConfig, RootEvent, RootPolicy, RootState,
};
pub use root::{FallEvent, FallPhase, ProtectConfig};
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
    /// The root policy (kinematic by default), the assist and the balance thresholds (see [`RootConfig`]).
    pub root: RootConfig,
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
    /// The ground of a free root could not be built from the clip (no feet, bad ground settings).
    #[error(transparent)]
    Ground(#[from] crate::control::ground::GroundError),
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

/// How a free root's balance state shapes the joint drives (all ones while tracking).
pub(super) struct Shaping<'a> {
    /// Stiffness factor (damping is kept).
    stiffness: f64,
    /// Feedforward factor.
    feedforward: f64,
    /// Factor of the clip's target velocities and joint anchor biases.
    follow: f64,
    /// A held pose (joint rotations per body) and the blend from it toward the clip (0: held).
    held: Option<(&'a [nalgebra::UnitQuaternion<f64>], f64)>,
    /// Per-body torque added to the feedforward (joint frame): the free root's correction for the ground reaction
    /// the contacts actually carried.
    extra: Option<&'a [Vector3<f64>]>,
    /// Per-body rotation left-multiplied onto the joint's target (parent frame; identity leaves it): the balanced
    /// root's torso and foot-placement adjustments.
    adjust: Option<&'a [nalgebra::UnitQuaternion<f64>]>,
}

impl Shaping<'_> {
    /// On the clip.
    const TRACK: Shaping<'static> = Shaping {
        stiffness: 1.0,
        feedforward: 1.0,
        follow: 1.0,
        held: None,
        extra: None,
        adjust: None,
    };
}

/// A physically simulated character replaying its reference motion.
pub struct Character {
    world: World,
    /// The immutable half: model, reference, gains, corrections (shared by the characters of one clip).
    prepared: Arc<PreparedClip>,
    drives: Vec<Option<DriveId>>,
    /// World constraint index of each body's joint (`usize::MAX` for the root).
    joints: Vec<usize>,
    forces: Vec<ActiveForce>,
    free_forces: Vec<UserForceId>,
    terms: ControlTerms,
    guard: GuardConfig,
    last_fault: Option<FaultEvent>,
    fault_count: u64,
    /// Reference poses buffer of the guard's reset (kept so a reset does not allocate twice).
    scratch_poses: Vec<super::kinematics::BodyPose>,
    /// The root's path (the reference until targets are streamed), shared with the world's prescribed root.
    root_track: RootTrack,
    /// Streamed targets, once the first one was set (see `streamed.rs`).
    stream: Option<Box<Stream>>,
    /// Time constant (s) of the low-pass through which a streamed character's gains follow its feedforward.
    stream_gain_time_constant: f64,
    /// The free root's assist, ground and balance state (`None`: kinematic root).
    root: Option<Box<root::RootRuntime>>,
    /// Collision layers against a level: (membership, mask) (see [`Character::set_level_layers`]).
    level_layers: (u32, u32),
}

impl std::fmt::Debug for Character {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Character")
            .field("bodies", &self.prepared.model.bodies.len())
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

    /// Builds the character of an imported flat-ground clip walked over `terrain` ([`PreparedClip::on_terrain`]);
    /// a detected leading T-pose frame is dropped.
    pub fn from_imported_on_terrain(
        imported: Imported,
        config: &CharacterConfig,
        terrain: Arc<dyn crate::control::ground::Terrain>,
    ) -> Result<Character, CharacterError> {
        let prepared = PreparedClip::from_imported_on_terrain(imported, config, terrain)?;
        Ok(Character::from_prepared(Arc::new(prepared)))
    }

    /// Builds the model, preprocesses the clip and places the character on the first reference sample: a
    /// [`PreparedClip`] used by this character alone (prepare once and use [`Character::from_prepared`] for many).
    pub fn new(
        skeleton: Skeleton,
        clip: Clip,
        config: &CharacterConfig,
    ) -> Result<Character, CharacterError> {
        let prepared = PreparedClip::new(skeleton, clip, config)?;
        Ok(Character::from_prepared(Arc::new(prepared)))
    }

    /// A character of a prepared clip, on its first reference sample: builds only its world and workspaces (the
    /// clip's tables stay shared with every other character of `prepared`).
    pub fn from_prepared(prepared: Arc<PreparedClip>) -> Character {
        let free = prepared.root.policy.is_free();
        let built = build_world(&prepared.reference, free);
        let assist = built.root_assist;
        let mut character = Character {
            world: built.world,
            drives: built.drives,
            joints: built.joints,
            forces: Vec::new(),
            free_forces: Vec::new(),
            terms: ControlTerms::default(),
            guard: prepared.guard,
            last_fault: None,
            fault_count: 0,
            scratch_poses: built.poses,
            root_track: built.root_track,
            stream: None,
            stream_gain_time_constant: super::stream::GAIN_TIME_CONSTANT_S,
            root: None,
            level_layers: (u32::MAX, u32::MAX),
            prepared,
        };
        // A free policy was checked when the clip was prepared: its ground exists.
        if let (Some(assist), Ok(ground)) = (assist, character.prepared.ground()) {
            let ground = Arc::clone(ground);
            let policy = character.prepared.root.policy;
            character.lift_onto_floor(&ground, 0.0);
            character.root = Some(Box::new(root::RootRuntime::new(
                &character, policy, ground, assist,
            )));
        }
        character
    }

    /// The character's collision layers against a level: it touches a collider when `layers & collider.mask`
    /// and `collider.layers & mask` are both nonzero (default: every bit of both, touching everything).
    pub fn set_level_layers(&mut self, layers: u32, mask: u32) {
        self.level_layers = (layers, mask);
    }

    /// The character's (layers, mask) against a level.
    pub fn level_layers(&self) -> (u32, u32) {
        self.level_layers
    }

    /// The prepared clip this character plays (clone the `Arc` to make more characters of it).
    pub fn prepared(&self) -> &Arc<PreparedClip> {
        &self.prepared
    }

    /// Selects which control terms are applied (both by default).
    pub fn set_control_terms(&mut self, terms: ControlTerms) {
        self.terms = terms;
    }

    /// The reference motion the controller tracks.
    pub fn reference(&self) -> &ReferenceMotion {
        &self.prepared.reference
    }

    /// The physical model.
    pub fn model(&self) -> &Model {
        &self.prepared.model
    }

    /// The skeleton of the clip.
    pub fn skeleton(&self) -> &Skeleton {
        &self.prepared.skeleton
    }

    /// The clip as imported (after dropping a T-pose frame).
    pub fn clip(&self) -> &Clip {
        &self.prepared.clip
    }

    /// The simulated world (bodies in model order).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Exchanges the world's step scratch with `scratch` (see [`World::exchange_scratch`]): characters of one
    /// skeleton stepped one after another on a thread, each between two exchanges with that thread's scratch,
    /// step in buffers that stay in cache, with bit-identical results. [`crate::scene::Scene`] does it for you.
    pub fn exchange_scratch(&mut self, scratch: &mut StepScratch) -> bool {
        self.world.exchange_scratch(scratch)
    }

    /// Simulation time (s).
    pub fn time(&self) -> f64 {
        self.world.time()
    }

    /// The simulation step the reference was preprocessed for (s).
    pub fn step_size(&self) -> f64 {
        self.prepared.reference.h
    }

    /// Whether the simulation has reached the end of the reference (it then holds the last pose); for a free root,
    /// the end of the clip as it plays after a get-up.
    pub fn finished(&self) -> bool {
        self.stream.is_none() && self.clip_time() >= self.prepared.reference.duration() - 1e-9
    }

    /// Advances by `h` seconds. At the preprocessed step size the targets and torques are the stored samples
    /// (the discrete-consistent path); at any other `h` they are interpolated on the reference.
    ///
    /// The step is guarded (see [`GuardConfig`]): a step that fails, or leaves a non-finite state, joints apart
    /// or absurd speeds, resets the character to its clip at the new time and is reported by
    /// [`Character::last_fault`]; the returned report is then that of the reset (zero gaps).
    pub fn step(&mut self, h: f64) -> Result<StepReport, CharacterError> {
        self.step_in(h, None)
    }

    /// [`Character::step`] in a level: a free root stands on, falls against and is pushed by the level's
    /// colliders (its probes against them), in place of the flat floor fitted to its clip when the level holds a
    /// static collider; a level of kinematic colliders only (a bat) pushes it while it stands on the flat floor.
    /// A kinematic root meets a level through the contacts its scene sets (`Scene` does).
    pub fn step_in(
        &mut self,
        h: f64,
        level: Option<&crate::level::Level>,
    ) -> Result<StepReport, CharacterError> {
        if !(h.is_finite() && h > 0.0) {
            return Err(CharacterError::Argument(format!(
                "time step must be positive, got {h}"
            )));
        }
        if self.root.is_some() {
            return self.step_free(h, level.filter(|l| !l.is_empty()));
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
        // A clone of the `Arc` (no allocation) frees `self` for the drives below.
        let prepared = Arc::clone(&self.prepared);
        self.set_shaped_drive_targets(t, t_next, &prepared.reference.feedforward, &Shaping::TRACK);
    }

    /// [`Character::set_drive_targets`] with the feedforward table `feedforward` (per step and body, like
    /// [`ReferenceMotion::feedforward`]) and the free root's `shaping` (its balance state's gains and pose).
    fn set_shaped_drive_targets(
        &mut self,
        t: f64,
        t_next: f64,
        feedforward: &[Vector3<f64>],
        shaping: &Shaping<'_>,
    ) {
        let prepared = Arc::clone(&self.prepared);
        let reference = &*prepared.reference;
        let (k, s) = locate(reference, t);
        let (k1, s1) = locate(reference, t_next);
        for b in 0..self.drives.len() {
            let Some(id) = self.drives[b] else { continue };
            let nb = reference.bodies();
            let mut tau = lerp_sample(reference, k, s, |k| feedforward[k * nb + b]);
            if let Some(extra) = shaping.extra {
                tau += extra[b];
            }
            let correction = lerp_sample(reference, k, s, |k| {
                prepared.stiffness_correction[k * nb + b]
            });
            let velocity = lerp_sample(reference, k, s, |k| reference.target_velocity[k * nb + b]);
            let bias = lerp_sample(reference, k, s, |k| reference.anchor_bias[k * nb + b]);
            let mut rotation = reference.rotation_between(k1, s1, b);
            if let Some((held, alpha)) = shaping.held {
                rotation = held[b].slerp(&rotation, alpha);
            }
            if let Some(adjust) = shaping.adjust {
                rotation = adjust[b] * rotation;
            }
            let targets = JointStepTargets {
                feedforward: tau * shaping.feedforward,
                target_velocity: velocity * shaping.follow,
                anchor_bias: bias * shaping.follow,
            };
            self.apply_drive(
                b,
                id,
                &targets,
                tau,
                correction * shaping.feedforward,
                rotation,
            );
            if shaping.stiffness != 1.0 {
                let drive = self.world.drive_mut(id);
                drive.stiffness *= shaping.stiffness;
            }
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
        let g = self.prepared.gains[b];
        let dofs = self.prepared.reference.dofs[b];
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
        let feedback = self.terms.feedback;
        (drive.stiffness, drive.damping) =
            g.per_axis(&gain_torque, |i| feedback && dofs.is_free(i));
        self.world
            .set_constraint_bias(self.joints[b], targets.anchor_bias.as_slice());
    }
}
