//! Hits on the character: impulses (spread over the next step, whatever its size) and forces held for a
//! duration, applied at a point attached to a body.

use nalgebra::Vector3;

use super::{Character, CharacterError};
use crate::dynamics::{ForceFrame, UserForce, UserForceId};

/// How long a hit force acts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Lasting {
    /// An impulse (N·s): turned into `impulse / h` over the next step of size `h`.
    Impulse(Vector3<f64>),
    /// A force held for this many more steps.
    Steps(usize),
}

/// A hit force in the world's user-force table.
#[derive(Debug, Clone, Copy)]
pub(super) struct ActiveForce {
    pub(super) id: UserForceId,
    pub(super) lasting: Lasting,
}

impl Character {
    /// The body simulating the joint `bone` refers to: an exact name, `role:NAME`, or a name read as a humanoid
    /// role (the rule of [`crate::skeleton::roles::resolve_bone`]).
    pub fn body_of_bone(&self, bone: &str) -> Result<usize, CharacterError> {
        Ok(self.prepared.model.body_of_joint[self.joint_of_bone(bone)?])
    }

    /// The skeleton joint `bone` refers to (see [`Character::body_of_bone`]).
    pub fn joint_of_bone(&self, bone: &str) -> Result<usize, CharacterError> {
        Ok(crate::skeleton::roles::resolve_bone(
            &self.prepared.skeleton,
            bone,
        )?)
    }

    /// Applies `impulse` (N·s, world) at `world_point` (m) of the body of `bone`, spread over the next step (the
    /// step's implicit solve then shares it with the whole character through the joints).
    pub fn apply_impulse(
        &mut self,
        bone: &str,
        world_point: Vector3<f64>,
        impulse: Vector3<f64>,
    ) -> Result<(), CharacterError> {
        let body = self.body_of_bone(bone)?;
        self.apply_body_impulse(body, world_point, impulse)
    }

    /// Like [`Character::apply_impulse`], on model body `body`.
    pub fn apply_body_impulse(
        &mut self,
        body: usize,
        world_point: Vector3<f64>,
        impulse: Vector3<f64>,
    ) -> Result<(), CharacterError> {
        self.add_force(body, world_point, Lasting::Impulse(impulse))
            .map(|_| ())
    }

    /// Sets the contacts of the next step (body indices are model body indices; see
    /// [`crate::dynamics::World::set_contacts`]): a projectile touching the character is a free body of the
    /// contact LCP. After the step, [`Character::world`] gives the impulses and the free bodies' velocities.
    pub fn set_contacts(
        &mut self,
        contacts: &[crate::dynamics::ContactPoint],
        free: &[crate::dynamics::Body],
    ) -> Result<(), CharacterError> {
        if self.root.is_some() {
            return self.set_free_root_contacts(contacts, free);
        }
        Ok(self.world.set_contacts(contacts, free)?)
    }

    /// Selects the contact solver and friction model of the character's world.
    pub fn set_contact_options(
        &mut self,
        options: crate::dynamics::ContactOptions,
    ) -> Result<(), CharacterError> {
        Ok(self.world.set_contact_options(options)?)
    }

    /// Applies `force` (N, world direction) at `world_point` (m, attached to the body from now on) of the body of
    /// `bone` for `duration` seconds (rounded to whole steps of the preprocessed size; the force is scaled so the
    /// impulse is `force·duration` exactly at that step size).
    pub fn apply_force(
        &mut self,
        bone: &str,
        world_point: Vector3<f64>,
        force: Vector3<f64>,
        duration: f64,
    ) -> Result<(), CharacterError> {
        if !(duration.is_finite() && duration > 0.0) {
            return Err(CharacterError::Argument(format!(
                "force duration must be positive, got {duration}"
            )));
        }
        let body = self.body_of_bone(bone)?;
        let h = self.prepared.reference.h;
        let steps = ((duration / h).round() as usize).max(1);
        let scaled = force * (duration / (steps as f64 * h));
        let id = self.add_force(body, world_point, Lasting::Steps(steps))?;
        self.world.user_force_mut(id).force = scaled;
        Ok(())
    }

    /// Registers a hit force on `body` at `world_point` (force zero until set), reusing a free table slot.
    fn add_force(
        &mut self,
        body: usize,
        world_point: Vector3<f64>,
        lasting: Lasting,
    ) -> Result<UserForceId, CharacterError> {
        let finite = |v: &Vector3<f64>| v.iter().all(|c| c.is_finite());
        let impulse_ok = match lasting {
            Lasting::Impulse(j) => finite(&j),
            Lasting::Steps(_) => true,
        };
        if !finite(&world_point) || !impulse_ok {
            return Err(CharacterError::Argument(
                "hit point and impulse must be finite".into(),
            ));
        }
        if body >= self.prepared.model.bodies.len() {
            return Err(CharacterError::Argument(format!(
                "no body {body} (the character has {})",
                self.prepared.model.bodies.len()
            )));
        }
        let point = self.world.body(body).point_local(&world_point);
        let f = UserForce {
            body,
            point,
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
            frame: ForceFrame::World,
        };
        let id = match self.free_forces.pop() {
            Some(id) => {
                *self.world.user_force_mut(id) = f;
                id
            }
            None => self.world.add_user_force(f),
        };
        self.forces.push(ActiveForce { id, lasting });
        Ok(id)
    }

    /// Sets the forces of pending impulses for a step of size `h`.
    pub(super) fn arm_impulses(&mut self, h: f64) {
        for a in &self.forces {
            if let Lasting::Impulse(j) = a.lasting {
                self.world.user_force_mut(a.id).force = j / h;
            }
        }
    }

    /// Counts down the active hit forces after a step and frees the finished ones.
    pub(super) fn expire_forces(&mut self) {
        let mut i = 0;
        while i < self.forces.len() {
            let done = match &mut self.forces[i].lasting {
                Lasting::Impulse(_) => true,
                Lasting::Steps(n) => {
                    *n = n.saturating_sub(1);
                    *n == 0
                }
            };
            if done {
                let id = self.forces[i].id;
                let f = self.world.user_force_mut(id);
                f.force = Vector3::zeros();
                f.torque = Vector3::zeros();
                self.free_forces.push(id);
                self.forces.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// Drops every pending hit force (zeroed and their table slots freed).
    pub(super) fn clear_forces(&mut self) {
        for a in self.forces.drain(..) {
            let f = self.world.user_force_mut(a.id);
            f.force = Vector3::zeros();
            f.torque = Vector3::zeros();
            self.free_forces.push(a.id);
        }
    }
}
