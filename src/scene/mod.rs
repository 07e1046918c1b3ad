//! A scene: several characters and ball projectiles stepped together at a game's frame rate.
//!
//! Characters are independent worlds (each its own implicit solve); the scene gives them one clock, fixed
//! substeps no longer than any character's preprocessed step, and balls that fly ballistically and hit them.
//! Until the contact solver lands, a ball's first touch of a body is resolved as one instantaneous impulse
//! against an immovable target along the contact normal (Newton restitution `e`, default 0): the ball gives up
//! `(1 + e)` times its normal momentum relative to the body's surface, which the character's implicit step then
//! shares with the whole body through the joints. See `docs/scene.md`.

mod aim;
mod slab;
mod sweep;

pub use aim::aimed_ball;

use nalgebra::Vector3;

use crate::control::{Character, CharacterError, GRAVITY, ImpulseWork};
use slab::{RawKey, Slab};
use sweep::sweep_sphere_capsule;

/// Identifies a character in a [`Scene`]; detects removal (a stale key is an error, never another character).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CharacterKey(RawKey);

/// Identifies a ball in a [`Scene`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BallKey(RawKey);

macro_rules! raw_key {
    ($t:ty) => {
        impl $t {
            /// The key as one integer (for handles crossing the C ABI); never 0.
            pub fn to_raw(self) -> u64 {
                self.0.to_raw()
            }

            /// A key from [`Self::to_raw`]; any integer is accepted (unknown ones are stale).
            pub fn from_raw(raw: u64) -> Self {
                Self(RawKey::from_raw(raw))
            }
        }
    };
}
raw_key!(CharacterKey);
raw_key!(BallKey);

/// A ball projectile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball {
    /// Radius (m), > 0.
    pub radius: f64,
    /// Mass (kg), > 0.
    pub mass: f64,
    /// Centre position (m, world).
    pub position: Vector3<f64>,
    /// Velocity (m/s, world).
    pub velocity: Vector3<f64>,
}

/// A ball touched a character's body.
#[derive(Debug, Clone, PartialEq)]
pub struct HitEvent {
    /// When (s, scene time).
    pub time: f64,
    /// The character hit.
    pub character: CharacterKey,
    /// The body hit (its skeleton joint's name).
    pub bone: String,
    /// The model body index.
    pub body: usize,
    /// Contact point on the body's surface (m, world).
    pub point: Vector3<f64>,
    /// Contact normal, unit, from the body towards the ball.
    pub normal: Vector3<f64>,
    /// Impulse applied to the character (N·s, world); the ball received its opposite.
    pub impulse: Vector3<f64>,
    /// The ball, if the hit came from one.
    pub ball: Option<BallKey>,
    /// Work done on the character by the impulse over the step that carried it (J).
    pub energy_j: f64,
}

/// What went wrong in a scene call.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The character key was removed (or never issued by this scene).
    #[error("stale character key: the character was removed or belongs to another scene")]
    StaleCharacter,
    /// The ball key was removed (or never issued by this scene).
    #[error("stale ball key: the ball was removed or belongs to another scene")]
    StaleBall,
    /// A character failed.
    #[error(transparent)]
    Character(#[from] CharacterError),
    /// An argument is out of range.
    #[error("{0}")]
    Argument(String),
}

/// Characters and balls on one clock.
#[derive(Debug, Default)]
pub struct Scene {
    characters: Slab<Character>,
    /// Per character slot: the largest joint separation (m) of the last step's substeps.
    separations: Vec<f64>,
    balls: Slab<Ball>,
    time: f64,
    restitution: f64,
    events: Vec<HitEvent>,
    scratch_works: Vec<ImpulseWork>,
    scratch_keys: Vec<RawKey>,
}

/// A ball's earliest touch in a substep: chord fraction, character, body, point, normal.
type FirstTouch = (f64, CharacterKey, usize, Vector3<f64>, Vector3<f64>);

/// The substep used when the scene holds no character (balls only).
const DEFAULT_SUBSTEP: f64 = 1.0 / 120.0;

impl Scene {
    /// An empty scene at time 0.
    pub fn new() -> Scene {
        Scene::default()
    }

    /// Scene time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Newton restitution of ball hits, in [0, 1] (default 0: the ball keeps no normal velocity relative to
    /// the body).
    pub fn set_restitution(&mut self, e: f64) -> Result<(), SceneError> {
        if !(0.0..=1.0).contains(&e) {
            return Err(SceneError::Argument(format!(
                "restitution must be in [0, 1], got {e}"
            )));
        }
        self.restitution = e;
        Ok(())
    }

    /// Adds a character (it keeps its own clock, which the scene advances with its own).
    pub fn add_character(&mut self, character: Character) -> CharacterKey {
        CharacterKey(self.characters.insert(character))
    }

    /// Removes a character and gives it back.
    pub fn remove_character(&mut self, key: CharacterKey) -> Result<Character, SceneError> {
        self.characters
            .remove(key.0)
            .ok_or(SceneError::StaleCharacter)
    }

    /// A character.
    pub fn character(&self, key: CharacterKey) -> Result<&Character, SceneError> {
        self.characters.get(key.0).ok_or(SceneError::StaleCharacter)
    }

    /// A character, mutably (to hit it, change its control terms).
    pub fn character_mut(&mut self, key: CharacterKey) -> Result<&mut Character, SceneError> {
        self.characters
            .get_mut(key.0)
            .ok_or(SceneError::StaleCharacter)
    }

    /// The largest joint anchor separation (m) of a character over the last [`Scene::step`].
    pub fn max_separation(&self, key: CharacterKey) -> Result<f64, SceneError> {
        self.character(key)?;
        Ok(self
            .separations
            .get(key.0.index as usize)
            .copied()
            .unwrap_or(0.0))
    }

    /// The characters with their keys.
    pub fn characters(&self) -> impl Iterator<Item = (CharacterKey, &Character)> {
        self.characters.iter().map(|(k, c)| (CharacterKey(k), c))
    }

    /// Number of characters.
    pub fn character_count(&self) -> usize {
        self.characters.len()
    }

    /// Adds a ball; radius and mass must be positive, position and velocity finite.
    pub fn spawn_ball(&mut self, ball: Ball) -> Result<BallKey, SceneError> {
        let finite = ball
            .position
            .iter()
            .chain(ball.velocity.iter())
            .all(|c| c.is_finite());
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if !positive(ball.radius) || !positive(ball.mass) || !finite {
            return Err(SceneError::Argument(format!(
                "a ball needs a positive radius and mass and a finite position and velocity, got {ball:?}"
            )));
        }
        Ok(BallKey(self.balls.insert(ball)))
    }

    /// A ball.
    pub fn ball(&self, key: BallKey) -> Result<&Ball, SceneError> {
        self.balls.get(key.0).ok_or(SceneError::StaleBall)
    }

    /// Removes a ball and gives it back.
    pub fn remove_ball(&mut self, key: BallKey) -> Result<Ball, SceneError> {
        self.balls.remove(key.0).ok_or(SceneError::StaleBall)
    }

    /// The balls with their keys.
    pub fn balls(&self) -> impl Iterator<Item = (BallKey, &Ball)> {
        self.balls.iter().map(|(k, b)| (BallKey(k), b))
    }

    /// The hits of the last [`Scene::step`].
    pub fn events(&self) -> &[HitEvent] {
        &self.events
    }

    /// The substep size for a frame of `dt`: `dt` split evenly into pieces no longer than the smallest
    /// character step (a frame that is a multiple of the characters' step keeps them on their preprocessed
    /// samples, the discrete-consistent path).
    fn substeps(&self, dt: f64) -> (usize, f64) {
        let h = self
            .characters
            .iter()
            .map(|(_, c)| c.step_size())
            .fold(f64::INFINITY, f64::min);
        let h = if h.is_finite() { h } else { DEFAULT_SUBSTEP };
        let n = ((dt / h) - 1e-9).ceil().max(1.0) as usize;
        (n, dt / n as f64)
    }

    /// Advances everything by `dt` seconds (a game frame); balls hit characters on the way.
    pub fn step(&mut self, dt: f64) -> Result<(), SceneError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(SceneError::Argument(format!(
                "time step must be positive and finite, got {dt}"
            )));
        }
        self.events.clear();
        self.separations.iter_mut().for_each(|s| *s = 0.0);
        let (n, h) = self.substeps(dt);
        for _ in 0..n {
            self.substep(h)?;
        }
        Ok(())
    }

    fn substep(&mut self, h: f64) -> Result<(), SceneError> {
        let first_event = self.events.len();
        // Scratch buffers kept across substeps: no allocation per step once warmed up.
        let mut works = std::mem::take(&mut self.scratch_works);
        let mut ball_keys = std::mem::take(&mut self.scratch_keys);
        works.clear();
        ball_keys.clear();
        ball_keys.extend(self.balls.iter().map(|(k, _)| k));
        for &key in &ball_keys {
            let Some(ball) = self.balls.get(key).copied() else {
                continue;
            };
            let moved = self.fly(BallKey(key), ball, h, &mut works)?;
            if let Some(b) = self.balls.get_mut(key) {
                *b = moved;
            }
        }
        for (k, c) in self.characters.iter_mut() {
            let report = c.step(h)?;
            let i = k.index as usize;
            if self.separations.len() <= i {
                self.separations.resize(i + 1, 0.0);
            }
            self.separations[i] = self.separations[i].max(report.max_separation);
        }
        for (event, work) in self.events[first_event..].iter_mut().zip(&works) {
            if let Some(c) = self.characters.get(event.character.0) {
                event.energy_j = work.finish(c);
            }
        }
        self.scratch_works = works;
        self.scratch_keys = ball_keys;
        self.time += h;
        Ok(())
    }

    /// Moves one ball over a substep, resolving its first touch of a character body.
    fn fly(
        &mut self,
        key: BallKey,
        ball: Ball,
        h: f64,
        works: &mut Vec<ImpulseWork>,
    ) -> Result<Ball, SceneError> {
        let end = ball.position + ball.velocity * h + 0.5 * GRAVITY * h * h;
        let mut first: Option<FirstTouch> = None;
        for (ck, c) in self.characters.iter() {
            for (b, body) in c.model().bodies.iter().enumerate() {
                let frame = c.body_frame(b);
                for cap in &body.capsules {
                    let a = (frame * cap.a).coords;
                    let z = (frame * cap.b).coords;
                    let Some(t) = sweep_sphere_capsule(
                        &ball.position,
                        &end,
                        &a,
                        &z,
                        ball.radius + cap.radius,
                    ) else {
                        continue;
                    };
                    let offset = t.centre - t.axis_point;
                    let normal = if offset.norm() > 1e-12 {
                        offset.normalize()
                    } else {
                        -ball.velocity.try_normalize(1e-12).unwrap_or(Vector3::y())
                    };
                    let point = t.axis_point + normal * cap.radius;
                    let approach = (ball.velocity - c.point_velocity(b, &point)).dot(&normal);
                    if approach < 0.0 && first.is_none_or(|f| t.s < f.0) {
                        first = Some((t.s, CharacterKey(ck), b, point, normal));
                    }
                }
            }
        }
        let Some((s, ck, b, point, normal)) = first else {
            return Ok(Ball {
                position: end,
                velocity: ball.velocity + GRAVITY * h,
                ..ball
            });
        };
        let character = self
            .characters
            .get_mut(ck.0)
            .ok_or(SceneError::StaleCharacter)?;
        // Velocity at the touch (gravity acts linearly over the substep).
        let v_touch = ball.velocity + GRAVITY * (s * h);
        let relative = (v_touch - character.point_velocity(b, &point)).dot(&normal);
        let impulse_on_ball = -(1.0 + self.restitution) * ball.mass * relative * normal;
        let impulse = -impulse_on_ball;
        character.apply_body_impulse(b, point, impulse)?;
        works.push(ImpulseWork::begin(character, b, &point, impulse));
        let bone = character.model().bodies[b].name.clone();
        self.events.push(HitEvent {
            time: self.time + s * h,
            character: ck,
            bone,
            body: b,
            point,
            normal,
            impulse,
            ball: Some(key),
            energy_j: 0.0,
        });
        let centre = ball.position + (end - ball.position) * s;
        let v_after = v_touch + impulse_on_ball / ball.mass;
        let rest = (1.0 - s) * h;
        Ok(Ball {
            position: centre + v_after * rest + 0.5 * GRAVITY * rest * rest,
            velocity: v_after + GRAVITY * rest,
            ..ball
        })
    }
}
