//! Saving and restoring a character's state (rollback netcode, replays) and hashing it (determinism checks).
//! A [`CharacterState`] holds the world's mutable state and the pending hits; `to_bytes`/`from_bytes` give a
//! versioned, checksummed binary form for the C ABI and files.

use nalgebra::{Quaternion, UnitQuaternion, Vector3, Vector4, Vector6};

use nalgebra::{Isometry3, Translation3};

use super::forces::{ActiveForce, Lasting};
use super::root::{FallEvent, FallPhase, Machine, RootSnapshot};
use super::{Character, CharacterError, RootEvent, RootPolicy, RootState};
use crate::dynamics::{
    BodyState, ContactImpulse, Fnv1a, ForceFrame, UserForce, UserForceId, WorldState,
};

/// A character's mutable state between two steps: what the following steps read.
#[derive(Debug, Clone, PartialEq)]
pub struct CharacterState {
    world: WorldState,
    forces: Vec<(usize, Lasting)>,
    free_forces: Vec<usize>,
    /// A free root's balance machine, clip anchor and pending feedforward correction.
    root: Option<RootSnapshot>,
}

/// The first bytes of a serialized [`CharacterState`] (format version 1: a kinematic root).
const MAGIC: &[u8; 8] = b"FLNCHST1";
/// Version 2: version 1 followed by the last step's contact impulses (the PGS warm start) and, for a free root,
/// its block. A state without either is still written as version 1.
const MAGIC_V2: &[u8; 8] = b"FLNCHST2";

impl Character {
    /// The state after the last step (see [`CharacterState`]).
    pub fn save_state(&self) -> CharacterState {
        CharacterState {
            world: self.world.save_state(),
            forces: self.forces.iter().map(|a| (a.id.0, a.lasting)).collect(),
            free_forces: self.free_forces.iter().map(|id| id.0).collect(),
            root: self.root.as_ref().map(|r| r.snapshot()),
        }
    }

    /// Whether `state` fits this character (body count, force table, indices, finite numbers): the check
    /// [`Character::restore_state`] makes before changing anything.
    pub fn check_state(&self, state: &CharacterState) -> Result<(), CharacterError> {
        let forces = state.world.user_forces.len();
        let bad = |what: &str| CharacterError::Argument(format!("state does not fit: {what}"));
        if state.world.bodies.len() != self.prepared.model.bodies.len() {
            return Err(bad(&format!(
                "{} bodies, the character has {}",
                state.world.bodies.len(),
                self.prepared.model.bodies.len()
            )));
        }
        let ids = state
            .forces
            .iter()
            .map(|f| f.0)
            .chain(state.free_forces.iter().copied());
        if ids.clone().any(|id| id >= forces) {
            return Err(bad("a hit force refers past the force table"));
        }
        let mut seen = vec![false; forces];
        if ids
            .into_iter()
            .any(|id| std::mem::replace(&mut seen[id], true))
        {
            return Err(bad("a hit force slot is listed twice"));
        }
        if state
            .world
            .user_forces
            .iter()
            .any(|f| f.body >= self.prepared.model.bodies.len())
        {
            return Err(bad("a force acts on a body the character does not have"));
        }
        match (&state.root, &self.root) {
            (None, None) => {}
            (Some(r), Some(_)) => r
                .fits(self.prepared.model.bodies.len())
                .map_err(|e| bad(&e))?,
            (Some(_), None) => return Err(bad("a free-root state for a kinematic root")),
            (None, Some(_)) => return Err(bad("a kinematic-root state for a free root")),
        }
        state.world.validate().map_err(|e| bad(&e.to_string()))
    }

    /// Restores a state saved from this character (or one built from the same clip and configuration): the
    /// following steps repeat bit for bit those that followed the save. A state of another character is refused
    /// with an error, and the character is left unchanged.
    pub fn restore_state(&mut self, state: &CharacterState) -> Result<(), CharacterError> {
        self.check_state(state)?;
        self.world
            .restore_state(&state.world)
            .map_err(|e| CharacterError::Argument(format!("state does not fit: {e}")))?;
        self.forces = state
            .forces
            .iter()
            .map(|&(id, lasting)| ActiveForce {
                id: UserForceId(id),
                lasting,
            })
            .collect();
        self.free_forces = state
            .free_forces
            .iter()
            .map(|&id| UserForceId(id))
            .collect();
        if let (Some(rt), Some(snapshot)) = (&mut self.root, &state.root) {
            rt.restore(snapshot);
        }
        self.last_fault = None;
        Ok(())
    }

    /// 64-bit FNV-1a hash of the time and every body's position, orientation and velocity (exact bits): two runs
    /// are identical exactly when their hash sequences are (up to hash collisions).
    pub fn state_hash(&self) -> u64 {
        self.world.state_hash()
    }
}

impl CharacterState {
    /// Simulation time of the state (s).
    pub fn time(&self) -> f64 {
        self.world.time
    }

    /// Hash of the state's bodies, equal to [`Character::state_hash`] of the character it was saved from.
    pub fn hash(&self) -> u64 {
        self.world.hash()
    }

    /// The binary form: magic, counts, little-endian numbers, and an FNV-1a checksum of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer(Vec::new());
        let v2 = self.root.is_some() || !self.world.warm_impulses.is_empty();
        w.0.extend_from_slice(if v2 { MAGIC_V2 } else { MAGIC });
        let w_ = &self.world;
        for n in [
            w_.bodies.len(),
            w_.user_forces.len(),
            self.forces.len(),
            self.free_forces.len(),
            w_.warm_bases[0].len(),
            w_.warm_bases[1].len(),
        ] {
            w.u64(n as u64);
        }
        w.f64(w_.time);
        for b in &w_.bodies {
            w.f64s(b.position.iter());
            w.f64s(b.orientation.coords.iter());
            w.f64s(b.velocity.iter());
        }
        for f in &w_.user_forces {
            w.u64(f.body as u64);
            w.f64s(f.point.iter().chain(f.force.iter()).chain(f.torque.iter()));
            w.u64(match f.frame {
                ForceFrame::World => 0,
                ForceFrame::Body => 1,
            });
        }
        for &(id, lasting) in &self.forces {
            w.u64(id as u64);
            match lasting {
                Lasting::Impulse(j) => {
                    w.u64(0);
                    w.f64s(j.iter());
                }
                Lasting::Steps(n) => {
                    w.u64(1);
                    w.u64(n as u64);
                }
            }
        }
        for &id in self
            .free_forces
            .iter()
            .chain(&w_.warm_bases[0])
            .chain(&w_.warm_bases[1])
        {
            w.u64(id as u64);
        }
        if v2 {
            w.u64(w_.warm_impulses.len() as u64);
            for (body, j) in &w_.warm_impulses {
                w.u64(*body as u64);
                w.f64(j.normal);
                w.f64s(j.friction.iter().chain(j.impulse.iter()));
            }
            w.u64(u64::from(self.root.is_some()));
            if let Some(root) = &self.root {
                write_root(&mut w, root);
            }
        }
        let mut h = Fnv1a::new();
        h.bytes(&w.0);
        w.u64(h.finish());
        w.0
    }

    /// Parses [`CharacterState::to_bytes`]; any corruption (size, magic, checksum, counts, non-finite numbers) is
    /// an error naming the byte offset, never a panic or a large allocation.
    pub fn from_bytes(bytes: &[u8]) -> Result<CharacterState, CharacterError> {
        let err = |at: usize, what: &str| {
            CharacterError::Argument(format!("character state, byte {at}: {what}"))
        };
        let magic = bytes.get(..MAGIC.len());
        let v2 = magic == Some(&MAGIC_V2[..]);
        if bytes.len() < MAGIC.len() + 8 || !(v2 || magic == Some(&MAGIC[..])) {
            return Err(err(
                0,
                "not a flinch character state (magic FLNCHST1 or FLNCHST2 missing)",
            ));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut h = Fnv1a::new();
        h.bytes(body);
        if h.finish().to_le_bytes() != sum {
            return Err(err(
                body.len(),
                "checksum mismatch (truncated or corrupted)",
            ));
        }
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let mut counts = [0usize; 6];
        for c in &mut counts {
            // Each counted item takes at least 8 bytes: a count past the remaining size is corrupt.
            let n = r.u64()?;
            if n > (body.len() / 8) as u64 {
                return Err(err(r.at - 8, &format!("count {n} exceeds the data")));
            }
            *c = n as usize;
        }
        let [nb, nf, na, nfree, nw0, nw1] = counts;
        let time = r.f64()?;
        let mut bodies = Vec::with_capacity(nb);
        for _ in 0..nb {
            let p = r.vec3()?;
            // nalgebra's coordinate order (i, j, k, w), as written.
            let q = Quaternion::from(Vector4::new(r.f64()?, r.f64()?, r.f64()?, r.f64()?));
            let (w, v) = (r.vec3()?, r.vec3()?);
            let v = Vector6::new(w.x, w.y, w.z, v.x, v.y, v.z);
            bodies.push(BodyState {
                position: p,
                orientation: UnitQuaternion::new_unchecked(q),
                velocity: v,
            });
        }
        let mut user_forces = Vec::with_capacity(nf);
        for _ in 0..nf {
            let body = r.index()?;
            let (point, force, torque) = (r.vec3()?, r.vec3()?, r.vec3()?);
            let frame = match r.u64()? {
                0 => ForceFrame::World,
                1 => ForceFrame::Body,
                k => return Err(err(r.at - 8, &format!("unknown force frame {k}"))),
            };
            user_forces.push(UserForce {
                body,
                point,
                force,
                torque,
                frame,
            });
        }
        let mut forces = Vec::with_capacity(na);
        for _ in 0..na {
            let id = r.index()?;
            let lasting = match r.u64()? {
                0 => Lasting::Impulse(r.vec3()?),
                1 => Lasting::Steps(r.index()?),
                k => return Err(err(r.at - 8, &format!("unknown hit kind {k}"))),
            };
            forces.push((id, lasting));
        }
        let mut list = |n: usize| (0..n).map(|_| r.index()).collect::<Result<Vec<_>, _>>();
        let free_forces = list(nfree)?;
        let warm_bases = [list(nw0)?, list(nw1)?];
        let mut warm_impulses = Vec::new();
        let mut root = None;
        if v2 {
            let n = r.count()?;
            for _ in 0..n {
                let body = r.index()?;
                let normal = r.f64()?;
                let (friction, impulse) = (r.vec3()?, r.vec3()?);
                warm_impulses.push((
                    body,
                    ContactImpulse {
                        normal,
                        friction,
                        impulse,
                    },
                ));
            }
            if r.u64()? != 0 {
                root = Some(read_root(&mut r)?);
            }
        }
        if r.at != body.len() {
            return Err(err(r.at, "trailing bytes"));
        }
        let world = WorldState {
            time,
            bodies,
            user_forces,
            warm_bases,
            warm_impulses,
        };
        world.validate().map_err(|e| err(0, &e.to_string()))?;
        Ok(CharacterState {
            world,
            forces,
            free_forces,
            root,
        })
    }
}

/// A free root's block of the binary form (after the warm-start bases).
fn write_root(w: &mut Writer, r: &RootSnapshot) {
    w.u64(match r.policy {
        RootPolicy::Kinematic => 0,
        RootPolicy::Free => 1,
        RootPolicy::Assisted => 2,
        RootPolicy::Balanced => 3,
    });
    w.f64(r.assist_weight);
    w.f64(r.clip_offset);
    w.f64s(r.anchor.translation.vector.iter());
    w.f64s(r.anchor.rotation.coords.iter());
    w.f64(r.penetration);
    w.u64(u64::from(r.ready));
    w.u64(r.extra.len() as u64);
    r.extra.iter().for_each(|v| w.f64s(v.iter()));
    let m = &r.machine;
    w.u64(m.state as u64);
    w.f64(m.since);
    w.f64(m.level);
    w.u64(u64::from(m.still_since.is_some()));
    w.f64(m.still_since.unwrap_or(0.0));
    w.u64(m.held.len() as u64);
    m.held.iter().for_each(|q| w.f64s(q.coords.iter()));
    w.f64s(m.held_root.0.iter());
    w.f64s(m.held_root.1.coords.iter());
    w.u64(m.events.len() as u64);
    for e in &m.events {
        w.f64(e.time);
        w.u64(e.from as u64);
        w.u64(e.to as u64);
    }
    // The protective fall's phases (its brace reads the last impact's time).
    w.u64(m.fall_events.len() as u64);
    for e in &m.fall_events {
        w.f64(e.time);
        w.u64(e.phase as u64);
        w.f64s(e.point.iter());
        w.u64(e.body.map_or(u64::MAX, |b| b as u64));
    }
}

/// Reads [`write_root`]'s block; counts are bounded by the remaining bytes.
fn read_root(r: &mut Reader<'_>) -> Result<RootSnapshot, CharacterError> {
    let err = |at: usize, what: String| {
        CharacterError::Argument(format!("character state, byte {at}: {what}"))
    };
    let policy = match r.u64()? {
        1 => RootPolicy::Free,
        2 => RootPolicy::Assisted,
        3 => RootPolicy::Balanced,
        k => return Err(err(r.at - 8, format!("unknown free-root policy {k}"))),
    };
    let assist_weight = r.f64()?;
    let clip_offset = r.f64()?;
    let translation = r.vec3()?;
    let rotation = r.quat()?;
    let penetration = r.f64()?;
    let ready = r.u64()? != 0;
    let n = r.count()?;
    let extra = (0..n).map(|_| r.vec3()).collect::<Result<Vec<_>, _>>()?;
    let state = r.state()?;
    let since = r.f64()?;
    let level = r.f64()?;
    let still = r.u64()? != 0;
    let still_at = r.f64()?;
    let n = r.count()?;
    let held = (0..n).map(|_| r.quat()).collect::<Result<Vec<_>, _>>()?;
    let held_root = (r.vec3()?, r.quat()?);
    let n = r.count()?;
    let mut events = Vec::with_capacity(n);
    for _ in 0..n {
        let time = r.f64()?;
        let (from, to) = (r.state()?, r.state()?);
        events.push(RootEvent { time, from, to });
    }
    let n = r.count()?;
    let mut fall_events = Vec::with_capacity(n);
    for _ in 0..n {
        let time = r.f64()?;
        let phase = r.u64()?;
        let phase = u32::try_from(phase)
            .ok()
            .and_then(FallPhase::from_u32)
            .ok_or_else(|| err(r.at - 8, format!("unknown fall phase {phase}")))?;
        let point = r.vec3()?;
        let body = match r.u64()? {
            u64::MAX => None,
            b => Some(usize::try_from(b).map_err(|_| err(r.at - 8, format!("body {b}")))?),
        };
        fall_events.push(FallEvent {
            time,
            phase,
            point,
            body,
        });
    }
    Ok(RootSnapshot {
        policy,
        assist_weight,
        machine: Machine {
            state,
            since,
            level,
            still_since: still.then_some(still_at),
            held,
            held_root,
            events,
            fall_events,
        },
        clip_offset,
        anchor: Isometry3::from_parts(Translation3::from(translation), rotation),
        extra,
        ready,
        penetration,
    })
}

struct Writer(Vec<u8>);

impl Writer {
    fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn f64(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn f64s<'a>(&mut self, xs: impl Iterator<Item = &'a f64>) {
        xs.for_each(|&x| self.f64(x));
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn word(&mut self) -> Result<[u8; 8], CharacterError> {
        let w = self
            .bytes
            .get(self.at..self.at + 8)
            .and_then(|s| <[u8; 8]>::try_from(s).ok())
            .ok_or_else(|| {
                CharacterError::Argument(format!("character state, byte {}: truncated", self.at))
            })?;
        self.at += 8;
        Ok(w)
    }
    fn u64(&mut self) -> Result<u64, CharacterError> {
        self.word().map(u64::from_le_bytes)
    }
    fn index(&mut self) -> Result<usize, CharacterError> {
        let at = self.at;
        let n = self.u64()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n < u32::MAX as usize)
            .ok_or_else(|| {
                CharacterError::Argument(format!("character state, byte {at}: index {n}"))
            })
    }
    fn f64(&mut self) -> Result<f64, CharacterError> {
        self.word().map(f64::from_le_bytes)
    }
    fn vec3(&mut self) -> Result<Vector3<f64>, CharacterError> {
        Ok(Vector3::new(self.f64()?, self.f64()?, self.f64()?))
    }
    /// A unit quaternion in nalgebra's coordinate order (i, j, k, w), renormalised only if it is not unit
    /// (non-finite values are caught by the state checks).
    fn quat(&mut self) -> Result<UnitQuaternion<f64>, CharacterError> {
        let q = Quaternion::from(Vector4::new(
            self.f64()?,
            self.f64()?,
            self.f64()?,
            self.f64()?,
        ));
        Ok(UnitQuaternion::new_unchecked(q))
    }
    /// A count of items of at least 8 bytes each, bounded by the bytes left.
    fn count(&mut self) -> Result<usize, CharacterError> {
        let at = self.at;
        let n = self.u64()?;
        if n > ((self.bytes.len() - self.at) / 8) as u64 {
            return Err(CharacterError::Argument(format!(
                "character state, byte {at}: count {n} exceeds the data"
            )));
        }
        Ok(n as usize)
    }
    /// A balance state.
    fn state(&mut self) -> Result<RootState, CharacterError> {
        let at = self.at;
        let n = self.u64()?;
        u32::try_from(n)
            .ok()
            .and_then(RootState::from_u32)
            .ok_or_else(|| {
                CharacterError::Argument(format!(
                    "character state, byte {at}: unknown balance state {n}"
                ))
            })
    }
}
