//! The immutable, shareable half of a character (MuJoCo's `mjModel` next to `mjData`, Jolt's `RagdollSettings`
//! next to `Ragdoll`): everything derived from the skeleton, the clip and the configuration — body model,
//! reference motion with its inverse-dynamics feedforward and per-step targets, resolved gains and the drives'
//! stiffness corrections — built once. A [`Character`](super::Character) made from it holds only its world
//! (bodies, joints, drives, solver workspaces) and its control state, so a crowd playing one clip stores the
//! clip's tables once (`docs/performance.md`, "Memory and crowds").

use std::sync::{Arc, OnceLock};

use nalgebra::{UnitQuaternion, Vector3};

use super::super::gains::{JointGains, subtree_loads};
use super::super::kinematics::BodyPose;
use super::super::reference::{Dofs, ReferenceMotion};
use super::super::residual::stiffness_corrections;
use super::super::stream::RootTrack;
use super::{CharacterConfig, CharacterError, GuardConfig, RootConfig};
use crate::control::ground::{GroundError, GroundReference, Terrain, adapt_clip};
use crate::dynamics::{
    Body, ContactOptions, ContactSolver, DriveId, JointDrive, PositionSpring, SpringId,
    Stabilization, World,
};
use crate::io::Imported;
use crate::model::Model;
use crate::skeleton::{Clip, Skeleton};

/// A clip prepared for simulation under one [`CharacterConfig`]: immutable, built once, shared by every
/// character made from it ([`Character::from_prepared`](super::Character::from_prepared), or
/// [`crate::scene::Scene::add_prepared`]). Cloning the `Arc` is the way to share it; it is `Send + Sync`.
#[derive(Debug)]
pub struct PreparedClip {
    pub(super) model: Model,
    pub(super) skeleton: Skeleton,
    pub(super) clip: Clip,
    /// Shared also with each character's prescribed root path (a closure in its world).
    pub(super) reference: Arc<ReferenceMotion>,
    pub(super) gains: Vec<JointGains>,
    /// Per step and body: the torque (joint frame) cancelling the drive's own residual on the reference (see
    /// `residual.rs`); added to the feedforward while the feedback is on.
    pub(super) stiffness_correction: Vec<Vector3<f64>>,
    /// The guard thresholds each new character starts with (a character may change its own).
    pub(super) guard: GuardConfig,
    /// The root policy and balance thresholds each new character starts with.
    pub(super) root: RootConfig,
    /// The ground of a free root: built with the clip for a free policy, else at the first switch to one.
    ground: OnceLock<Result<Arc<GroundReference>, GroundError>>,
    /// The ground the clip was adapted to ([`PreparedClip::on_terrain`]); `None`: the flat floor.
    terrain: Option<OnTerrain>,
}

/// What a clip adapted to a terrain keeps of its flat-ground preparation: the terrain, and the flat clip's
/// ground, whose floor and sole points the adapted clip's ground keeps ([`GroundReference::build_adapted`]).
#[derive(Debug)]
struct OnTerrain {
    terrain: Arc<dyn Terrain>,
    flat_ground: Arc<GroundReference>,
}

/// The contact options a free root's world starts with: PGS, 30 sweeps, 1e-6 N·s.
pub fn free_root_contact_options() -> ContactOptions {
    ContactOptions {
        solver: ContactSolver::Pgs {
            max_sweeps: 30,
            tolerance: 1e-6,
        },
        ..ContactOptions::default()
    }
}

/// A character's world built on a reference, with the handles the controller needs.
pub(super) struct BuiltWorld {
    pub world: World,
    pub drives: Vec<Option<DriveId>>,
    /// World constraint index of each body's joint (`usize::MAX` for the root).
    pub joints: Vec<usize>,
    /// The reference poses of step 0 (the buffer is kept by the character for its guard's resets).
    pub poses: Vec<BodyPose>,
    pub root_track: RootTrack,
    /// The root assist's world drive and spring (a free root).
    pub root_assist: Option<(DriveId, SpringId)>,
}

impl PreparedClip {
    /// Prepares an imported clip; a detected leading T-pose frame (cgspeed BVH) is dropped.
    pub fn from_imported(
        imported: Imported,
        config: &CharacterConfig,
    ) -> Result<PreparedClip, CharacterError> {
        let mut imported = imported;
        imported.drop_leading_tpose();
        PreparedClip::new(imported.skeleton, imported.clip, config)
    }

    /// Builds the body model, preprocesses the clip (inverse dynamics at every step), resolves the gains and the
    /// drives' stiffness corrections: the whole cost of a character, paid once per clip and configuration.
    pub fn new(
        skeleton: Skeleton,
        clip: Clip,
        config: &CharacterConfig,
    ) -> Result<PreparedClip, CharacterError> {
        PreparedClip::new_on(skeleton, clip, config, None)
    }

    /// [`PreparedClip::on_terrain`] for an imported clip; a detected leading T-pose frame is dropped.
    pub fn from_imported_on_terrain(
        imported: Imported,
        config: &CharacterConfig,
        terrain: Arc<dyn Terrain>,
    ) -> Result<PreparedClip, CharacterError> {
        let mut imported = imported;
        imported.drop_leading_tpose();
        PreparedClip::on_terrain(imported.skeleton, imported.clip, config, terrain)
    }

    /// Prepares a flat-ground clip to be walked over `terrain` (stairs, slopes: a [`crate::level::Level`] posed
    /// where the character walks): the clip is prepared on its flat floor, then its feet are raised onto the
    /// ground under them, its root by the lower foot's raise, its legs bent to reach ([`crate::control::ground`]'s
    /// adaptation), and that clip is prepared with the flat clip's sole points, and stance and root lift read
    /// above the terrain ([`GroundReference::build_adapted`]; `docs/world.md`, "Walking the clip over uneven
    /// ground"). The character then tracks the adapted clip:
    /// its feedforward, its assist's target and its figures are the adapted clip's. An error for a clip without
    /// two legs.
    pub fn on_terrain(
        skeleton: Skeleton,
        clip: Clip,
        config: &CharacterConfig,
        terrain: Arc<dyn Terrain>,
    ) -> Result<PreparedClip, CharacterError> {
        let flat = PreparedClip::new(skeleton.clone(), clip, config)?;
        let ground = flat.ground()?;
        let adapted = adapt_clip(
            &flat.skeleton,
            &flat.clip,
            &flat.reference,
            ground,
            terrain.as_ref(),
        )?;
        let mut config = config.clone();
        config.root.ground.floor_m = Some(ground.floor);
        let on = OnTerrain {
            terrain,
            flat_ground: Arc::clone(ground),
        };
        PreparedClip::new_on(skeleton, adapted.clip, &config, Some(on))
    }

    fn new_on(
        skeleton: Skeleton,
        clip: Clip,
        config: &CharacterConfig,
        terrain: Option<OnTerrain>,
    ) -> Result<PreparedClip, CharacterError> {
        if !config.guard.is_valid() {
            return Err(CharacterError::Argument(format!(
                "guard thresholds must be finite and > 0, got {:?}",
                config.guard
            )));
        }
        config.root.validate().map_err(CharacterError::Argument)?;
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
        reference.poses(0, &mut kin);
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
        // The corrections evaluate the world's own drives; every character's world is built the same way, so
        // one built here (and dropped) gives each of them its exact corrections.
        let built = build_world(&reference, false);
        let stiffness_correction = stiffness_corrections(
            &reference,
            &built.world,
            &built.drives,
            &gains,
            config.preprocess.threads,
        );
        let prepared = PreparedClip {
            model,
            skeleton,
            clip,
            reference,
            gains,
            stiffness_correction,
            guard: config.guard,
            root: config.root,
            ground: OnceLock::new(),
            terrain,
        };
        if config.root.policy.is_free() {
            prepared.ground()?;
        }
        Ok(prepared)
    }

    /// The ground of the clip (floor, sole points, stance, ground-reaction feedforward, residual root wrench), built
    /// on first use with the configured [`RootConfig::ground`]; an error for a clip without feet.
    pub fn ground(&self) -> Result<&Arc<GroundReference>, GroundError> {
        self.ground
            .get_or_init(|| {
                match &self.terrain {
                    Some(on) => GroundReference::build_adapted(
                        &self.model,
                        &self.reference,
                        &self.root.ground,
                        &on.flat_ground,
                        on.terrain.as_ref(),
                    ),
                    None => GroundReference::build(
                        &self.model,
                        &self.skeleton,
                        &self.reference,
                        &self.root.ground,
                    ),
                }
                .map(Arc::new)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The root policy and balance thresholds new characters start with.
    pub fn root_config(&self) -> &RootConfig {
        &self.root
    }

    /// The reference motion (shared by every character of this clip).
    pub fn reference(&self) -> &ReferenceMotion {
        &self.reference
    }

    /// The reference pose of the root body at clip time `t` (s, clamped to the clip): its centre of mass
    /// (world, m) and orientation. Where the clip walks, before any character plays it (to place a level along
    /// the path, say).
    pub fn root_target(&self, t: f64) -> (Vector3<f64>, UnitQuaternion<f64>) {
        super::super::sampling::root_pose(&self.reference, t)
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

    /// The simulation step the reference was preprocessed for (s).
    pub fn step_size(&self) -> f64 {
        self.reference.h
    }

    /// The guard thresholds a new character starts with.
    pub fn guard(&self) -> GuardConfig {
        self.guard
    }
}

/// Builds a character's world on the first reference sample: one body per model body, the root prescribed along
/// the reference path (through the returned [`RootTrack`], which a stream may redirect), a joint and a drive per
/// other body, prepared for stepping.
/// With `free`, the root is a free body instead, with the assist's drive to the world and centre-of-mass spring
/// (both without gains until the controller sets them).
pub(super) fn build_world(reference: &Arc<ReferenceMotion>, free: bool) -> BuiltWorld {
    // Exact size: the buffer stays with the character (its guard's reset reuses it).
    let mut kin = Vec::with_capacity(reference.bodies());
    reference.poses(0, &mut kin);
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
    let root_track = RootTrack::default();
    let root_assist = if free {
        let drive = JointDrive::new(world.bodies(), 0, None, Vector3::zeros(), Vector3::zeros());
        let spring = PositionSpring::new(world.bodies(), 0);
        // The feet's contacts every step: warm-started PGS costs a third of Lemke for the same figures
        // (docs/root.md, "Contacts"); a caller may still choose Lemke.
        let _ = world.set_contact_options(free_root_contact_options());
        Some((world.add_drive(drive), world.add_spring(spring)))
    } else {
        let path = Arc::clone(reference);
        let track = root_track.clone();
        world.add_prescribed(0, Box::new(move |t: f64| track.pose(&path, t)));
        None
    };
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
    BuiltWorld {
        world,
        drives,
        joints,
        poses: kin,
        root_track,
        root_assist,
    }
}
