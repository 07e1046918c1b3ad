//! The free-root part of the C++ bridge (issue 11): root policy, assist weight, balance state and events, protective
//! fall events, ground.

use super::WorldData;
use super::ffi::{FallEvent, FallPhase, RootEvent, RootPolicy, RootState};
use flinch_core::control::{
    FallPhase as CoreFallPhase, RootPolicy as CoreRootPolicy, RootState as CoreRootState,
};
use flinch_core::scene::CharacterKey;

impl WorldData {
    pub(super) fn character_mut(
        &mut self,
        what: &str,
        key: u64,
    ) -> Result<&mut flinch_core::control::Character, String> {
        self.0
            .character_mut(CharacterKey::from_raw(key))
            .map_err(|_| {
                format!("{what}: character {key:#x} is not in this world (removed or stale)")
            })
    }

    pub(super) fn set_root_policy(&mut self, key: u64, policy: RootPolicy) -> Result<(), String> {
        // A shared enum crossing from C++ may hold any value of its representation.
        let policy = match policy {
            RootPolicy::Kinematic => CoreRootPolicy::Kinematic,
            RootPolicy::Free => CoreRootPolicy::Free,
            RootPolicy::Assisted => CoreRootPolicy::Assisted,
            RootPolicy::Balanced => CoreRootPolicy::Balanced,
            other => {
                return Err(format!(
                    "set_root_policy: {} is not a RootPolicy (0 Kinematic, 1 Free, 2 Assisted, 3 Balanced)",
                    other.repr
                ));
            }
        };
        self.character_mut("set_root_policy", key)?
            .set_root_policy(policy)
            .map_err(|e| format!("set_root_policy: {e}"))
    }

    pub(super) fn root_policy(&self, key: u64) -> Result<RootPolicy, String> {
        Ok(match self.character(key)?.root_policy() {
            CoreRootPolicy::Kinematic => RootPolicy::Kinematic,
            CoreRootPolicy::Free => RootPolicy::Free,
            CoreRootPolicy::Assisted => RootPolicy::Assisted,
            CoreRootPolicy::Balanced => RootPolicy::Balanced,
        })
    }

    pub(super) fn set_assist_weight(&mut self, key: u64, weight: f64) -> Result<(), String> {
        if !(weight.is_finite() && (0.0..=1.0).contains(&weight)) {
            return Err(format!(
                "set_assist_weight: weight must be finite and in [0, 1], got {weight}"
            ));
        }
        self.character_mut("set_assist_weight", key)?
            .set_assist_weight(weight)
            .map_err(|e| format!("set_assist_weight: {e}"))
    }

    pub(super) fn root_state(&self, key: u64) -> Result<RootState, String> {
        Ok(root_state(self.character(key)?.root_state()))
    }

    pub(super) fn root_events(&self, key: u64) -> Result<Vec<RootEvent>, String> {
        Ok(self
            .character(key)?
            .root_events()
            .iter()
            .map(|e| RootEvent {
                time: e.time,
                from: root_state(e.from),
                to: root_state(e.to),
            })
            .collect())
    }

    pub(super) fn fall_events(&self, key: u64) -> Result<Vec<FallEvent>, String> {
        let c = self.character(key)?;
        Ok(c.fall_events()
            .iter()
            .map(|e| FallEvent {
                time: e.time,
                phase: match e.phase {
                    CoreFallPhase::Reach => FallPhase::Reach,
                    CoreFallPhase::Impact => FallPhase::Impact,
                    CoreFallPhase::Limp => FallPhase::Limp,
                },
                point: e.point.into(),
                joint: e
                    .body
                    .map_or(usize::MAX, |b| c.model().bodies[b].skeleton_joint),
            })
            .collect())
    }

    pub(super) fn ground_floor(&self, key: u64) -> Result<f64, String> {
        self.character(key)?
            .ground()
            .map(|g| g.floor)
            .ok_or_else(|| {
                format!(
                    "ground_floor: character {key:#x} has a kinematic root, hence no ground (set a Free or Assisted root policy)"
                )
            })
    }

    pub(super) fn ground_penetration(&self, key: u64) -> Result<f64, String> {
        Ok(self.character(key)?.ground_penetration())
    }

    pub(super) fn clip_time(&self, key: u64) -> Result<f64, String> {
        Ok(self.character(key)?.clip_time())
    }
}

/// The bridge's balance state.
fn root_state(state: CoreRootState) -> RootState {
    match state {
        CoreRootState::Tracking => RootState::Tracking,
        CoreRootState::Staggering => RootState::Staggering,
        CoreRootState::Falling => RootState::Falling,
        CoreRootState::Ragdoll => RootState::Ragdoll,
        CoreRootState::Resting => RootState::Resting,
        CoreRootState::GettingUp => RootState::GettingUp,
    }
}
