//! A scene: several characters and ball projectiles stepped together at a game's frame rate.
//!
//! Characters are independent worlds (each its own implicit solve); the scene gives them one clock, fixed
//! substeps no longer than any character's preprocessed step, and balls that fly ballistically and hit them.
//! A ball's first touch of a body in a substep (found by a swept sphere–capsule test, so fast balls cannot
//! tunnel) becomes a contact of the character's next step: the ball is a free body of the contact LCP, and the
//! impulse comes out of the character's implicit effective mass (joints and stiff drives included) and the
//! ball's own, with Coulomb friction μ (default 0.5) and Newton restitution e (default 0). See `docs/scene.md`.
//!
//! Within a substep the characters are stepped in parallel (rayon; each character on one thread) and their
//! results gathered in slot order, so a scene's state is bit-identical for any thread count (`docs/engine.md`).

mod aim;
mod between;
mod capsules;
mod character_step;
mod islands;
mod knockdown;
mod level;
mod query;
pub(crate) mod slab;
mod state;
mod sweep;
mod thread_scratch;
pub mod world_runs;

pub use aim::aimed_ball;
pub use between::CharacterContactEvent;
pub use knockdown::{
    KnockdownFigures, KnockdownHit, ProtectiveFallFigures, run_knockdown, run_knockdown_in,
};
pub use query::{RayTarget, SceneRayHit};
pub use state::{SceneFault, SceneState};

use nalgebra::Vector3;

use std::sync::Arc;

use crate::control::{Character, CharacterError, GRAVITY, PreparedClip};
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
    /// The kinematic collider, if the hit came from one (a swung bat, a door).
    pub collider: Option<crate::level::ColliderKey>,
    /// Work done on the character by the impulse over the step that carried it (J).
    pub energy_j: f64,
}

/// The total impulse (N·s, world) that `events` gave `body` of `character`: a ball on a limb makes a first,
/// large contact and a few small ones while it rolls off, and their sum is the momentum it transferred.
pub fn impulse_on_body(events: &[HitEvent], character: CharacterKey, body: usize) -> Vector3<f64> {
    events
        .iter()
        .filter(|e| e.character == character && e.body == body)
        .map(|e| e.impulse)
        .sum()
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
    /// The level refused a collider or a key.
    #[error(transparent)]
    Level(crate::level::LevelError),
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
    friction: Option<f64>,
    events: Vec<HitEvent>,
    faults: Vec<SceneFault>,
    scratch_touches: Vec<Touch>,
    scratch_keys: Vec<RawKey>,
    scratch_between: Vec<between::BodyTouch>,
    scratch_shapes: Vec<between::CharacterShapes>,
    contact_events: Vec<CharacterContactEvent>,
    /// Characters pass through each other (see [`Scene::set_character_contacts`]).
    no_character_contacts: bool,
    /// The step scratch each worker thread lends the characters it steps.
    thread_scratch: thread_scratch::ThreadScratch,
    /// The game's world: static and kinematic colliders.
    level: crate::level::Level,
    /// Kinematic moves set for the next frame.
    moves: Vec<level::KinematicMove>,
    /// The current frame's moves (reused buffer).
    frame_moves: Vec<level::FrameMove>,
}

/// A ball's earliest touch of a character body in a substep.
#[derive(Debug, Clone, Copy)]
struct Touch {
    ball: BallKey,
    /// The ball before the substep.
    state: Ball,
    /// Chord fraction of the substep at the touch.
    s: f64,
    character: CharacterKey,
    body: usize,
    /// Contact point on the body's surface (world).
    point: Vector3<f64>,
    /// Unit normal from the body toward the ball.
    normal: Vector3<f64>,
}

/// Coulomb friction between balls and bodies unless set.
pub const DEFAULT_BALL_FRICTION: f64 = 0.5;

/// The most substeps one [`Scene::step`] takes (a frame of 83 s at 120 Hz): a larger `dt` is a caller's bug,
/// refused instead of hanging the game.
pub const MAX_SUBSTEPS: usize = 10_000;

/// Bodies of different characters closer than this (m) at the start of a substep get a contact (the LCP keeps
/// it inactive while they separate): 1 cm covers the approach of limbs at a few m/s over a 120 Hz step.
const CONTACT_MARGIN: f64 = 0.05;

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

    /// Coulomb friction coefficient between balls and bodies, finite ≥ 0 (default
    /// [`DEFAULT_BALL_FRICTION`]).
    pub fn set_friction(&mut self, mu: f64) -> Result<(), SceneError> {
        if !(mu.is_finite() && mu >= 0.0) {
            return Err(SceneError::Argument(format!(
                "friction must be finite and ≥ 0, got {mu}"
            )));
        }
        self.friction = Some(mu);
        Ok(())
    }

    /// Whether bodies of different characters collide (default true). Off, characters pass through each other and
    /// every substep steps them in parallel: for crowds placed on top of each other (copies of one clip at one
    /// spot), where contacts would only pile up.
    pub fn set_character_contacts(&mut self, enabled: bool) {
        self.no_character_contacts = !enabled;
    }

    /// Whether the characters a thread steps share that thread's step scratch (default true; see
    /// [`crate::dynamics::World::exchange_scratch`]). Characters of one skeleton then step in buffers that stay in
    /// the core's cache: a 200-character crowd steps ≈ 15 % faster per core. The results are bit for bit the same
    /// either way; off, each character steps in its own buffers (for measurements and as the tests' reference).
    pub fn set_shared_scratch(&mut self, enabled: bool) {
        self.thread_scratch.set_enabled(enabled);
    }

    /// Adds a character (it keeps its own clock, which the scene advances with its own).
    pub fn add_character(&mut self, character: Character) -> CharacterKey {
        CharacterKey(self.characters.insert(character))
    }

    /// Adds a character of a prepared clip (see [`Character::from_prepared`]): a crowd playing one clip shares
    /// its tables and pays only each character's world.
    pub fn add_prepared(&mut self, prepared: &Arc<PreparedClip>) -> CharacterKey {
        self.add_character(Character::from_prepared(Arc::clone(prepared)))
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

    /// The balance state events of every free-root character (`Character::root_events`) with its key: each
    /// character's transitions in order, characters in key order.
    pub fn root_events(&self) -> impl Iterator<Item = (CharacterKey, &crate::control::RootEvent)> {
        self.characters()
            .flat_map(|(k, c)| c.root_events().iter().map(move |e| (k, e)))
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
        self.faults.clear();
        self.contact_events.clear();
        self.separations.iter_mut().for_each(|s| *s = 0.0);
        self.anchor_streamed_targets(self.time + dt);
        let (n, h) = self.substeps(dt);
        if n > MAX_SUBSTEPS {
            return Err(SceneError::Argument(format!(
                "a frame of {dt} s needs {n} substeps of {h} s; at most {MAX_SUBSTEPS} are taken per call"
            )));
        }
        let mut moves = std::mem::take(&mut self.frame_moves);
        self.begin_moves(dt, &mut moves);
        for i in 0..n {
            self.place_moves(&moves, i as f64 / n as f64);
            let result = self.substep(h);
            if result.is_err() {
                self.frame_moves = moves;
                return result;
            }
        }
        self.place_moves(&moves, 1.0);
        self.frame_moves = moves;
        Ok(())
    }

    /// Streamed targets set for "the next step" are reached at the end of this frame (`t_end`), through its
    /// substeps.
    fn anchor_streamed_targets(&mut self, t_end: f64) {
        for (_, c) in self.characters.iter_mut() {
            c.anchor_pending_target(t_end);
        }
    }

    /// Sets the target pose of a streamed character for the end of the next [`Scene::step`] (see
    /// [`Character::set_target_pose`]).
    pub fn set_target_pose(
        &mut self,
        key: CharacterKey,
        pose: &crate::skeleton::Pose,
        velocities: Option<&crate::control::PoseVelocities>,
    ) -> Result<(), SceneError> {
        Ok(self.character_mut(key)?.set_target_pose(pose, velocities)?)
    }

    fn substep(&mut self, h: f64) -> Result<(), SceneError> {
        self.thread_scratch.reserve();
        // Scratch buffers kept across substeps.
        let mut touches = std::mem::take(&mut self.scratch_touches);
        let mut ball_keys = std::mem::take(&mut self.scratch_keys);
        touches.clear();
        ball_keys.clear();
        ball_keys.extend(self.balls.iter().map(|(k, _)| k));
        for &key in &ball_keys {
            let Some(ball) = self.balls.get(key).copied() else {
                continue;
            };
            match self.fly(BallKey(key), ball, h) {
                Flight::Free(moved) => {
                    if let Some(b) = self.balls.get_mut(key) {
                        *b = moved;
                    }
                }
                Flight::Touch(t) => touches.push(t),
            }
        }
        let friction = self.friction.unwrap_or(DEFAULT_BALL_FRICTION);
        let mut between = std::mem::take(&mut self.scratch_between);
        between.clear();
        if self.characters.len() > 1 && !self.no_character_contacts {
            let mut shapes = std::mem::take(&mut self.scratch_shapes);
            self.touches_between(CONTACT_MARGIN, &mut shapes, &mut between);
            self.scratch_shapes = shapes;
        }
        // Islands of characters touching each other step in parallel, each island's members in slot order; a lone
        // character is an island of one. Results are gathered in a fixed order, so the state is bit-identical for
        // any thread count.
        let result = self.step_islands(&touches, &between, friction, h);
        self.scratch_between = between;
        if result.is_err() {
            self.scratch_touches = touches;
            self.scratch_keys = ball_keys;
            return result;
        }
        self.scratch_touches = touches;
        self.scratch_keys = ball_keys;
        self.time += h;
        Ok(())
    }

    /// Moves one ball over a substep, or finds its first touch of a character body (which the character's step
    /// then resolves as a contact).
    fn fly(&self, key: BallKey, ball: Ball, h: f64) -> Flight {
        let end = ball.position + ball.velocity * h + 0.5 * GRAVITY * h * h;
        let mut first: Option<Touch> = None;
        for (ck, c) in self.characters.iter() {
            for cap in capsules::world_capsules(c) {
                let Some(t) = sweep_sphere_capsule(
                    &ball.position,
                    &end,
                    &cap.a,
                    &cap.b,
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
                let approach = (ball.velocity - c.point_velocity(cap.body, &point)).dot(&normal);
                if approach < 0.0 && first.is_none_or(|f| t.s < f.s) {
                    first = Some(Touch {
                        ball: key,
                        state: ball,
                        s: t.s,
                        character: CharacterKey(ck),
                        body: cap.body,
                        point,
                        normal,
                    });
                }
            }
        }
        // The level: a ball meets a collider before any body it would touch later bounces off it.
        let travel = end - ball.position;
        if let Some(hit) = self.level.cast_sphere(
            &ball.position,
            ball.radius,
            &travel,
            travel.norm(),
            u32::MAX,
        ) && first.is_none_or(|t| hit.distance < t.s * travel.norm())
        {
            return Flight::Free(bounce(&ball, &hit, travel.norm(), h, &self.level));
        }
        match first {
            Some(t) => Flight::Touch(t),
            None => Flight::Free(ballistic(&ball, h)),
        }
    }
}

/// Where a ball's substep ends.
enum Flight {
    /// No touch: the ball at the end of the substep.
    Free(Ball),
    /// A touch, resolved by the character's step.
    Touch(Touch),
}

/// A ball that met a level collider `hit.distance` into a chord of `length` over `h`: at the touch, its normal
/// velocity reversed by the collider's restitution (a kinematic collider's own velocity taken into account).
fn bounce(
    ball: &Ball,
    hit: &crate::level::LevelRayHit,
    length: f64,
    h: f64,
    level: &crate::level::Level,
) -> Ball {
    let s = if length > 0.0 {
        hit.distance / length
    } else {
        0.0
    };
    let t = s * h;
    let v = ball.velocity + GRAVITY * t;
    let (e, surface) = level
        .surface_at(hit.collider, &hit.point)
        .unwrap_or((0.0, Vector3::zeros()));
    let n = hit.normal;
    let approach = (v - surface).dot(&n);
    let velocity = if approach < 0.0 {
        v - n * ((1.0 + e) * approach)
    } else {
        v
    };
    Ball {
        position: ball.position + (ball.velocity * t + 0.5 * GRAVITY * t * t) + n * 1e-6,
        velocity,
        ..*ball
    }
}

/// A ball after `h` seconds of free flight.
fn ballistic(ball: &Ball, h: f64) -> Ball {
    Ball {
        position: ball.position + ball.velocity * h + 0.5 * GRAVITY * h * h,
        velocity: ball.velocity + GRAVITY * h,
        ..*ball
    }
}
