//! Free-root characters (issue 11, `docs/root.md`): the root policy, the root assist (the residual root wrench
//! of the ground-reaction inverse dynamics plus an implicit spring–damper toward the clip's root pose), the ground
//! contacts of the feet and, when falling, of the whole body, and the balance state machine
//! `Tracking → Staggering → Falling → Ragdoll → Resting → GettingUp → Tracking`, whose transitions are events.

mod balance;
mod body_sums;
mod config;
mod figures;
mod machine;
mod online;
mod probes;
mod protect;
mod snapshot;
mod step;

use std::sync::Arc;

use nalgebra::{Isometry3, UnitQuaternion, Vector3};

pub use config::{BalanceConfig, GetUpConfig, RootConfig, RootPolicy};
pub use figures::FreeRootFigures;
pub use machine::{RootEvent, RootState};
pub use protect::{FallEvent, FallPhase, ProtectConfig};

use super::{Character, CharacterError};
use crate::control::ground::GroundReference;
use crate::dynamics::{Body, ContactOptions, ContactPoint, DriveId, SpringId};
pub(super) use machine::Machine;
use probes::Probe;
pub(super) use snapshot::RootSnapshot;

/// The mutable state of a free root (absent for a kinematic root).
#[derive(Debug)]
pub(super) struct RootRuntime {
    policy: RootPolicy,
    config: RootConfig,
    ground: Arc<GroundReference>,
    drive: DriveId,
    spring: SpringId,
    /// Assist gains at weight 1: linear (N/m, N·s/m) and angular (N·m/rad, N·m·s/rad).
    gains: [f64; 4],
    /// Whole-body rotational inertia about the centre of mass on the first sample (kg·m², a third of the trace).
    inertia: f64,
    /// The balanced root's plan (`Balanced`).
    balance: balance::BalancePlan,
    machine: machine::Machine,
    /// The arms and neck of a protective fall (`None`: no arm to reach with).
    protect: Option<Box<protect::ProtectRig>>,
    /// Clip time = world time − `clip_offset` (a get-up restarts the clip).
    clip_offset: f64,
    /// Where the clip is played: a turn about the vertical and a horizontal shift (identity until a get-up).
    anchor: Isometry3<f64>,
    /// Contact probes: sole points, then the end spheres of every other body's capsules.
    probes: Vec<Probe>,
    /// Contacts set by the caller for the next step (projectiles, other characters), kept to merge with the
    /// ground's.
    user_contacts: Vec<ContactPoint>,
    user_free: Vec<Body>,
    /// The merged contact set of the step (reused buffer).
    contacts: Vec<ContactPoint>,
    /// The feedforward correction for the ground reaction the contacts carried.
    online: online::OnlineReaction,
    /// Deepest probe below the floor after the last step (m, ≥ 0).
    penetration: f64,
    /// The step's contacts with kinematic colliders of a level: (index in `contacts`, collider).
    kinematic: Vec<(usize, crate::level::ColliderKey)>,
    /// Each probe at the step's start in a level (for the penetration measure).
    probe_starts: Vec<probes::ProbeStart>,
    /// Each probe's memory of the level near it, colliders and mesh triangles (a cache: the contacts do not
    /// depend on it).
    probe_memories: Vec<crate::level::ProbeMemory>,
}

impl Character {
    /// The last step's contacts of a free root's probes with kinematic colliders of its level: the collider, the
    /// contact and the impulse it gave the character (N·s, world). Empty for a kinematic root (its scene sets
    /// those contacts itself).
    pub fn kinematic_touches(
        &self,
    ) -> impl Iterator<Item = (crate::level::ColliderKey, &ContactPoint, Vector3<f64>)> {
        let impulses = self.world.contact_impulses();
        self.root.iter().flat_map(move |rt| {
            rt.kinematic.iter().filter_map(move |&(i, key)| {
                Some((key, rt.contacts.get(i)?, impulses.get(i)?.impulse))
            })
        })
    }

    /// The root policy in force.
    pub fn root_policy(&self) -> RootPolicy {
        self.root
            .as_ref()
            .map_or(RootPolicy::Kinematic, |r| r.policy)
    }

    /// Switches the root policy at runtime. Between `Free` and `Assisted` only the assist changes; to or from
    /// `Kinematic` the world is rebuilt around the same body states (pending hit forces kept), and a character
    /// made kinematic goes back onto its clip. A clip without feet cannot go free ([`CharacterError::Ground`]).
    pub fn set_root_policy(&mut self, policy: RootPolicy) -> Result<(), CharacterError> {
        let current = self.root_policy();
        if policy == current {
            return Ok(());
        }
        match (current.is_free(), policy.is_free()) {
            (true, true) => {
                if let Some(r) = &mut self.root {
                    r.policy = policy;
                }
            }
            (false, true) => {
                let ground = Arc::clone(self.prepared.ground()?);
                let assist = self.rebuild_world(true);
                self.root = assist.map(|a| Box::new(RootRuntime::new(self, policy, ground, a)));
            }
            _ => {
                let t = self.time();
                self.root = None;
                self.rebuild_world(false);
                self.reset_to_clip(t);
            }
        }
        Ok(())
    }

    /// Sets the assist weight in [0, 1] (an `Assisted` root; a game may drop it to 0 at a knockout).
    pub fn set_assist_weight(&mut self, weight: f64) -> Result<(), CharacterError> {
        if !(weight.is_finite() && (0.0..=1.0).contains(&weight)) {
            return Err(CharacterError::Argument(format!(
                "assist weight must be finite and in [0, 1], got {weight}"
            )));
        }
        if let Some(r) = &mut self.root {
            r.config.assist_weight = weight;
        }
        Ok(())
    }

    /// The assist weight in force (0 for a kinematic root; the configured weight of a `Free` root, which does not
    /// use it).
    pub fn assist_weight(&self) -> f64 {
        self.root.as_ref().map_or(0.0, |r| r.config.assist_weight)
    }

    /// The balance state (`Tracking` for a kinematic root).
    pub fn root_state(&self) -> RootState {
        self.root
            .as_ref()
            .map_or(RootState::Tracking, |r| r.machine.state)
    }

    /// Every state transition since the character was made free, oldest first.
    pub fn root_events(&self) -> &[RootEvent] {
        self.root.as_ref().map_or(&[], |r| &r.machine.events)
    }

    /// The ground of a free root: floor, sole points, stance, ground reaction, residual root wrench.
    pub fn ground(&self) -> Option<&GroundReference> {
        self.root.as_ref().map(|r| &*r.ground)
    }

    /// The deepest body point below the floor after the last step of a free root (m; 0 for a kinematic root).
    pub fn ground_penetration(&self) -> f64 {
        self.root.as_ref().map_or(0.0, |r| r.penetration)
    }

    /// The clip time the character plays now (the world time, unless a get-up restarted the clip).
    pub fn clip_time(&self) -> f64 {
        let t = self.time();
        self.root.as_ref().map_or(t, |r| r.clip_time(t))
    }

    /// The root's target pose (the clip's root body pose, anchored) at world time `t`: where the assist pulls.
    pub fn root_target(&self, t: f64) -> (Vector3<f64>, UnitQuaternion<f64>) {
        match &self.root {
            Some(r) => r.target_pose(&self.prepared.reference, t),
            None => crate::control::sampling::root_pose(&self.prepared.reference, t),
        }
    }

    /// Rebuilds the world with a free (`true`) or prescribed root around the current body states; returns the
    /// root assist's drive and spring of a free root.
    fn rebuild_world(&mut self, free: bool) -> Option<(DriveId, SpringId)> {
        let state = self.world.save_state();
        let options = self.world.contact_options();
        let default = if free {
            ContactOptions::default()
        } else {
            super::prepared::free_root_contact_options()
        };
        let built = super::prepared::build_world(&self.prepared.reference, free);
        self.world = built.world;
        self.drives = built.drives;
        self.joints = built.joints;
        self.root_track = built.root_track;
        // Contact options the caller chose survive the switch; the previous mode's default gives way to the new.
        if options != default {
            let _ = self.world.set_contact_options(options);
        }
        // Same bodies in the same order: restoring cannot fail.
        let _ = self.world.restore_state(&state);
        built.root_assist
    }
}
