//! Snapshots of a world's mutable state (for rollback, replays and the simulation guard) and a hash of it (for
//! determinism checks). Only what the next step reads is saved: time, body poses and velocities, the user-force
//! table and the contact solvers' warm-start bases. Structure (bodies, joints, drives) is not: a snapshot
//! restores into the world it came from, or one built the same way.

use nalgebra::{UnitQuaternion, Vector3, Vector6};

use super::World;
use crate::dynamics::ContactImpulse;
use crate::dynamics::force::UserForce;

/// The pose and velocity of one body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyState {
    /// Centre-of-mass position (m, world).
    pub position: Vector3<f64>,
    /// Orientation (body → world).
    pub orientation: UnitQuaternion<f64>,
    /// Twist `(ω; v)` (rad/s, m/s, world).
    pub velocity: Vector6<f64>,
}

/// A world's mutable state (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct WorldState {
    /// Simulation time (s).
    pub time: f64,
    /// Every body's pose and velocity, in world order.
    pub bodies: Vec<BodyState>,
    /// The user-force table, in id order.
    pub user_forces: Vec<UserForce>,
    /// Warm-start bases of the velocity and position contact LCPs (Lemke's last complementary basis).
    pub warm_bases: [Vec<usize>; 2],
    /// The last step's contact impulses with their bodies (the PGS warm start; also what
    /// [`World::contact_impulses`] gives back after a restore).
    pub warm_impulses: Vec<(usize, ContactImpulse)>,
}

/// Why a snapshot does not fit a world.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StateError {
    /// The snapshot has another number of bodies.
    #[error("state of {saved} bodies cannot be restored into a world of {actual} bodies")]
    BodyCount {
        /// Bodies in the snapshot.
        saved: usize,
        /// Bodies in the world.
        actual: usize,
    },
    /// A value in the snapshot is not finite, or a quaternion is not unit.
    #[error("state is not finite or not normalised: {0}")]
    NotFinite(String),
}

impl WorldState {
    /// Checks that every number is finite and every orientation a unit quaternion (to 1e-9).
    pub fn validate(&self) -> Result<(), StateError> {
        if !self.time.is_finite() {
            return Err(StateError::NotFinite(format!("time {}", self.time)));
        }
        for (i, b) in self.bodies.iter().enumerate() {
            let q = b.orientation.coords;
            let finite = b.position.iter().chain(q.iter()).chain(b.velocity.iter());
            if !finite.into_iter().all(|c| c.is_finite()) || (q.norm() - 1.0).abs() > 1e-9 {
                return Err(StateError::NotFinite(format!("body {i}")));
            }
        }
        for (i, (_, j)) in self.warm_impulses.iter().enumerate() {
            let numbers = std::iter::once(&j.normal)
                .chain(j.friction.iter())
                .chain(j.impulse.iter());
            if !numbers.into_iter().all(|c| c.is_finite()) {
                return Err(StateError::NotFinite(format!("contact impulse {i}")));
            }
        }
        Ok(())
    }
}

impl World {
    /// The mutable state the next step reads.
    pub fn save_state(&self) -> WorldState {
        WorldState {
            time: self.time,
            bodies: self
                .bodies
                .iter()
                .map(|b| BodyState {
                    position: b.position,
                    orientation: b.orientation,
                    velocity: b.velocity,
                })
                .collect(),
            user_forces: self.user_forces.clone(),
            warm_bases: self.contacts.warm_bases(),
            warm_impulses: self.contacts.warm_impulses(),
        }
    }

    /// Puts the world back in `state`: the following steps repeat bit for bit those that followed the save.
    /// Contacts set for the next step are cleared (set them again after restoring).
    pub fn restore_state(&mut self, state: &WorldState) -> Result<(), StateError> {
        if state.bodies.len() != self.bodies.len() {
            return Err(StateError::BodyCount {
                saved: state.bodies.len(),
                actual: self.bodies.len(),
            });
        }
        state.validate()?;
        self.time = state.time;
        for (b, s) in self.bodies.iter_mut().zip(&state.bodies) {
            b.position = s.position;
            b.orientation = s.orientation;
            b.velocity = s.velocity;
        }
        if self.user_forces.len() == state.user_forces.len() {
            self.user_forces.clone_from_slice(&state.user_forces);
        } else {
            self.user_forces = state.user_forces.clone();
            self.dirty = true;
        }
        self.contacts.clear_points();
        self.contacts.set_warm_bases(&state.warm_bases);
        self.contacts.set_warm_impulses(&state.warm_impulses);
        Ok(())
    }

    /// 64-bit FNV-1a hash of the time and every body's position, orientation and velocity (their exact bits):
    /// equal states give equal hashes on every machine; any bit of difference changes it (almost surely).
    pub fn state_hash(&self) -> u64 {
        hash_bodies(
            self.time,
            self.bodies
                .iter()
                .map(|b| (&b.position, &b.orientation, &b.velocity)),
        )
    }
}

impl WorldState {
    /// [`World::state_hash`] of the world this state was saved from.
    pub fn hash(&self) -> u64 {
        hash_bodies(
            self.time,
            self.bodies
                .iter()
                .map(|b| (&b.position, &b.orientation, &b.velocity)),
        )
    }
}

/// The state hash: time, then per body position, orientation (i, j, k, w) and twist.
fn hash_bodies<'a>(
    time: f64,
    bodies: impl Iterator<Item = (&'a Vector3<f64>, &'a UnitQuaternion<f64>, &'a Vector6<f64>)>,
) -> u64 {
    let mut h = Fnv1a::new();
    h.f64(time);
    for (p, q, v) in bodies {
        p.iter()
            .chain(q.coords.iter())
            .chain(v.iter())
            .for_each(|&c| h.f64(c));
    }
    h.finish()
}

/// The 64-bit Fowler–Noll–Vo 1a hash: tiny, stable across platforms and versions (unlike `std`'s hasher,
/// which is randomly seeded), good enough to detect divergence (not a cryptographic hash).
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv1a {
    /// The offset basis.
    pub fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    /// Hashes bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Hashes the bits of a float (so −0.0 and 0.0 differ, as they may in a diverged run).
    pub fn f64(&mut self, x: f64) {
        self.bytes(&x.to_bits().to_le_bytes());
    }

    /// Hashes an integer.
    pub fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}
