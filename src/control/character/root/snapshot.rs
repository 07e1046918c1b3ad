//! A free root's share of a saved character state (`CharacterState`): the balance machine, the clip's anchor and
//! time offset, the pending feedforward correction and the assist settings, so a restored free-root character
//! continues bit for bit like a kinematic one.

use nalgebra::{Isometry3, Vector3};

use super::machine::Machine;
use super::{RootPolicy, RootRuntime};

/// The mutable part of a [`RootRuntime`].
#[derive(Debug, Clone, PartialEq)]
pub(in crate::control::character) struct RootSnapshot {
    pub policy: RootPolicy,
    pub assist_weight: f64,
    pub machine: Machine,
    pub clip_offset: f64,
    pub anchor: Isometry3<f64>,
    pub extra: Vec<Vector3<f64>>,
    pub ready: bool,
    pub penetration: f64,
}

impl RootRuntime {
    /// The mutable state (the configuration and the ground are the character's own).
    pub(in crate::control::character) fn snapshot(&self) -> RootSnapshot {
        RootSnapshot {
            policy: self.policy,
            assist_weight: self.config.assist_weight,
            machine: self.machine.clone(),
            clip_offset: self.clip_offset,
            anchor: self.anchor,
            extra: self.online.extra.clone(),
            ready: self.online.ready,
            penetration: self.penetration,
        }
    }

    /// Puts `s` back (checked to fit by [`RootSnapshot::fits`]); contacts set for the next step are dropped.
    pub(in crate::control::character) fn restore(&mut self, s: &RootSnapshot) {
        self.policy = s.policy;
        self.config.assist_weight = s.assist_weight;
        self.machine.clone_from(&s.machine);
        self.clip_offset = s.clip_offset;
        self.anchor = s.anchor;
        self.online.extra.clone_from(&s.extra);
        self.online.ready = s.ready;
        self.penetration = s.penetration;
        self.user_contacts.clear();
        self.user_free.clear();
    }
}

impl RootSnapshot {
    /// Why `self` cannot be restored into a character of `bodies` bodies, if it cannot.
    pub(in crate::control::character) fn fits(&self, bodies: usize) -> Result<(), String> {
        if !self.policy.is_free() {
            return Err("a free-root state with a kinematic policy".into());
        }
        if self.machine.held.len() != bodies
            || !(self.extra.is_empty() || self.extra.len() == bodies)
        {
            return Err(format!(
                "a free-root state for another body count than {bodies}"
            ));
        }
        let finite = [
            self.assist_weight,
            self.clip_offset,
            self.penetration,
            self.machine.since,
            self.machine.level,
        ]
        .into_iter()
        .chain(self.anchor.translation.vector.iter().copied())
        .chain(self.anchor.rotation.coords.iter().copied())
        .chain(self.extra.iter().flat_map(|v| v.iter().copied()))
        .chain(
            self.machine
                .held
                .iter()
                .flat_map(|q| q.coords.iter().copied()),
        )
        .chain(
            self.machine
                .fall_events
                .iter()
                .flat_map(|e| [e.time, e.point.x, e.point.y, e.point.z]),
        )
        .all(f64::is_finite);
        let unit = |q: &nalgebra::UnitQuaternion<f64>| (q.coords.norm() - 1.0).abs() <= 1e-9;
        let units = unit(&self.anchor.rotation)
            && unit(&self.machine.held_root.1)
            && self.machine.held.iter().all(unit);
        if !finite || !units || !(0.0..=1.0).contains(&self.assist_weight) {
            return Err(
                "a free-root state with non-finite numbers or an assist weight outside [0, 1]"
                    .into(),
            );
        }
        Ok(())
    }
}
