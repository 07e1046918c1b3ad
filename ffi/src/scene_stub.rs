//! TEMPORARY stand-in for `flinch::scene` (the lead's module, same contract) until it lands on main.

use flinch_core::control::{Character, CharacterError};
use flinch_core::math::rotation_distance;
use nalgebra::Vector3;

use crate::handles::Table;

/// Key of a character in a scene.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CharacterKey(u64);
impl CharacterKey {
    /// Raw value.
    pub fn to_raw(self) -> u64 {
        self.0
    }
    /// From a raw value.
    pub fn from_raw(r: u64) -> Self {
        CharacterKey(r)
    }
}
/// Key of a ball.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BallKey(u64);
impl BallKey {
    /// Raw value.
    pub fn to_raw(self) -> u64 {
        self.0
    }
    /// From a raw value.
    pub fn from_raw(r: u64) -> Self {
        BallKey(r)
    }
}
/// A ball.
#[derive(Debug, Clone)]
pub struct Ball {
    /// m
    pub radius: f64,
    /// kg
    pub mass: f64,
    /// m
    pub position: Vector3<f64>,
    /// m/s
    pub velocity: Vector3<f64>,
}
/// A hit.
#[derive(Debug, Clone)]
pub struct HitEvent {
    /// s
    pub time: f64,
    /// who
    pub character: CharacterKey,
    /// bone
    pub bone: String,
    /// m
    pub point: Vector3<f64>,
    /// unit
    pub normal: Vector3<f64>,
    /// N s
    pub impulse: Vector3<f64>,
    /// ball
    pub ball: Option<BallKey>,
}
/// Errors.
#[derive(Debug)]
pub enum SceneError {
    /// stale
    StaleCharacter,
    /// stale
    StaleBall,
    /// char
    Character(CharacterError),
    /// arg
    Argument(String),
}
impl std::fmt::Display for SceneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SceneError::StaleCharacter => write!(f, "stale character key"),
            SceneError::StaleBall => write!(f, "stale ball key"),
            SceneError::Character(e) => write!(f, "{e}"),
            SceneError::Argument(s) => write!(f, "{s}"),
        }
    }
}
/// Scene.
#[derive(Default)]
pub struct Scene {
    characters: Table<Character>,
    balls: Table<Ball>,
    time: f64,
    events: Vec<HitEvent>,
}
impl Scene {
    /// New.
    pub fn new() -> Self {
        Scene::default()
    }
    /// Add.
    pub fn add_character(&mut self, c: Character) -> CharacterKey {
        CharacterKey(self.characters.insert(c))
    }
    /// Remove.
    pub fn remove_character(&mut self, k: CharacterKey) -> Result<Character, SceneError> {
        self.characters
            .remove(k.0)
            .ok_or(SceneError::StaleCharacter)
    }
    /// Get.
    pub fn character(&self, k: CharacterKey) -> Result<&Character, SceneError> {
        self.characters.get(k.0).ok_or(SceneError::StaleCharacter)
    }
    /// Get.
    pub fn character_mut(&mut self, k: CharacterKey) -> Result<&mut Character, SceneError> {
        self.characters
            .get_mut(k.0)
            .ok_or(SceneError::StaleCharacter)
    }
    /// Spawn.
    pub fn spawn_ball(&mut self, ball: Ball) -> Result<BallKey, SceneError> {
        Ok(BallKey(self.balls.insert(ball)))
    }
    /// Ball.
    pub fn ball(&self, k: BallKey) -> Result<&Ball, SceneError> {
        self.balls.get(k.0).ok_or(SceneError::StaleBall)
    }
    /// Remove ball.
    pub fn remove_ball(&mut self, k: BallKey) -> Result<Ball, SceneError> {
        self.balls.remove(k.0).ok_or(SceneError::StaleBall)
    }
    /// Step.
    pub fn step(&mut self, dt: f64) -> Result<(), SceneError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(SceneError::Argument(format!(
                "time step must be positive, got {dt}"
            )));
        }
        self.events.clear();
        for c in self.characters.values_mut() {
            let n = ((dt / c.step_size()) - 1e-9).ceil().max(1.0) as usize;
            for _ in 0..n {
                c.step(dt / n as f64).map_err(SceneError::Character)?;
            }
        }
        for b in self.balls.values_mut() {
            b.velocity += dt * flinch_core::control::GRAVITY;
            b.position += dt * b.velocity;
        }
        self.time += dt;
        Ok(())
    }
    /// Time.
    pub fn time(&self) -> f64 {
        self.time
    }
    /// Events.
    pub fn events(&self) -> &[HitEvent] {
        &self.events
    }
}
/// Deviation.
pub fn joint_deviation(c: &Character, b: usize) -> f64 {
    rotation_distance(&c.joint_rotation(b), &c.reference_rotation(b))
}
