//! A scene's faults (the guard's resets, per character), its state hash and its snapshots.

use super::slab::Slab;
use super::{Ball, CharacterKey, Scene, SceneError};
use crate::control::{CharacterState, FaultEvent};
use crate::dynamics::Fnv1a;

/// A character's fault in a scene step: the guard reset it to its clip.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneFault {
    /// The character.
    pub character: CharacterKey,
    /// What happened and when (scene time after the faulty substep).
    pub event: FaultEvent,
}

/// Everything a scene's following steps read: time, each character's state and the balls.
#[derive(Debug, Clone)]
pub struct SceneState {
    time: f64,
    characters: Vec<(CharacterKey, CharacterState)>,
    balls: Slab<Ball>,
}

impl SceneState {
    /// Scene time of the snapshot (s).
    pub fn time(&self) -> f64 {
        self.time
    }
}

impl Scene {
    /// The faults of the last [`Scene::step`] (each a character reset to its clip by its guard).
    pub fn faults(&self) -> &[SceneFault] {
        &self.faults
    }

    /// 64-bit FNV-1a hash of the scene time, every character's body states (in key order, with their keys) and
    /// every ball: equal for bit-identical scenes, on any machine and thread count.
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv1a::new();
        h.f64(self.time);
        for (k, c) in self.characters.iter() {
            h.u64(k.to_raw());
            h.u64(c.state_hash());
        }
        for (k, b) in self.balls.iter() {
            h.u64(k.to_raw());
            for x in b.position.iter().chain(b.velocity.iter()) {
                h.f64(*x);
            }
            h.f64(b.radius);
            h.f64(b.mass);
        }
        h.finish()
    }

    /// A snapshot for [`Scene::restore_state`] (rollback, replays).
    pub fn save_state(&self) -> SceneState {
        SceneState {
            time: self.time,
            characters: self
                .characters
                .iter()
                .map(|(k, c)| (CharacterKey(k), c.save_state()))
                .collect(),
            balls: self.balls.clone(),
        }
    }

    /// Puts the scene back in `state`; the characters must be those of the snapshot (same keys), else an error
    /// and nothing changes. Balls come back with their keys (balls spawned since are gone).
    pub fn restore_state(&mut self, state: &SceneState) -> Result<(), SceneError> {
        let same = self.characters.len() == state.characters.len()
            && state
                .characters
                .iter()
                .all(|(k, _)| self.characters.get(k.0).is_some());
        if !same {
            return Err(SceneError::Argument(
                "the snapshot's characters are not this scene's (added or removed since)".into(),
            ));
        }
        // Validate every character before changing any, so a refused snapshot leaves the scene untouched.
        for (k, s) in &state.characters {
            let c = self.characters.get(k.0).ok_or(SceneError::StaleCharacter)?;
            c.check_state(s)?;
        }
        for (k, s) in &state.characters {
            self.character_mut(*k)?.restore_state(s)?;
        }
        self.balls = state.balls.clone();
        self.time = state.time;
        self.events.clear();
        self.faults.clear();
        Ok(())
    }
}
