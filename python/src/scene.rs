//! `Scene`: characters and balls on one clock; ball touches become impulses and `HitEvent`s.

use std::sync::{Mutex, MutexGuard};

use numpy::PyArrayDyn;
use pyo3::prelude::*;

use crate::character::{Character, deviations, impulse, moved, pose_arrays};
use crate::convert::{PoseArrays, Triple, array, positive, vector};
use crate::errors::scene as scene_error;
use flinch_core::scene::{self, Ball, BallKey, CharacterKey};

/// A hit: a ball's touch or an impulse, as recorded by the scene.
#[pyclass(module = "flinch._flinch", frozen, get_all)]
#[derive(Debug, Clone)]
pub struct HitEvent {
    /// Time of the hit (s).
    pub time: f64,
    /// Key of the character that was hit.
    pub character: u64,
    /// Skeleton joint of the body that was hit.
    pub bone: String,
    /// Index of the body that was hit.
    pub body: usize,
    /// Contact point (m, world).
    pub point: (f64, f64, f64),
    /// Contact normal (world, unit).
    pub normal: (f64, f64, f64),
    /// Impulse on the character (N·s, world).
    pub impulse: (f64, f64, f64),
    /// Key of the ball, or None for a scripted impulse.
    pub ball: Option<u64>,
    /// Energy the hit injected (J).
    pub energy_j: f64,
}

impl HitEvent {
    /// The Python event of a Rust one.
    pub fn new(e: &scene::HitEvent) -> HitEvent {
        let t = |v: nalgebra::Vector3<f64>| (v.x, v.y, v.z);
        HitEvent {
            time: e.time,
            character: e.character.to_raw(),
            bone: e.bone.clone(),
            body: e.body,
            point: t(e.point),
            normal: t(e.normal),
            impulse: t(e.impulse),
            ball: e.ball.map(BallKey::to_raw),
            energy_j: e.energy_j,
        }
    }
}

#[pymethods]
impl HitEvent {
    fn __repr__(&self) -> String {
        let (x, y, z) = self.impulse;
        format!(
            "<flinch.HitEvent t={:.3} s bone={} impulse=({x:.3}, {y:.3}, {z:.3}) N·s {}>",
            self.time,
            self.bone,
            if self.ball.is_some() {
                "ball"
            } else {
                "impulse"
            }
        )
    }
}

/// Characters and balls stepped together.
#[pyclass(module = "flinch._flinch")]
pub struct Scene {
    inner: Mutex<scene::Scene>,
}

impl Scene {
    fn lock(&self) -> MutexGuard<'_, scene::Scene> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn character_name(key: u64) -> String {
    format!("character {key:#x}")
}

#[pymethods]
impl Scene {
    /// An empty scene; `restitution` in [0, 1] for ball hits, `friction` ≥ 0 between balls and bodies.
    #[new]
    #[pyo3(signature = (*, restitution=0.0, friction=None))]
    fn new(restitution: f64, friction: Option<f64>) -> PyResult<Scene> {
        let mut s = scene::Scene::new();
        s.set_restitution(restitution)
            .map_err(|e| scene_error(e, "restitution"))?;
        if let Some(mu) = friction {
            s.set_friction(mu).map_err(|e| scene_error(e, "friction"))?;
        }
        Ok(Scene {
            inner: Mutex::new(s),
        })
    }

    /// Simulation time (s).
    #[getter]
    fn time(&self) -> f64 {
        self.lock().time()
    }

    /// Moves `character` into the scene (the Python object becomes unusable) and returns its key.
    fn add_character(&self, character: &Character) -> PyResult<u64> {
        let c = character.lock().take().ok_or_else(moved)?;
        Ok(self.lock().add_character(c).to_raw())
    }

    /// Takes a character out of the scene; its key becomes stale.
    fn remove_character(&self, key: u64) -> PyResult<Character> {
        let c = self
            .lock()
            .remove_character(CharacterKey::from_raw(key))
            .map_err(|e| scene_error(e, &character_name(key)))?;
        Ok(Character::wrap(c))
    }

    /// Advances by `dt` seconds: each character in substeps no longer than its step size, balls moved, touches
    /// turned into impulses and events. GIL released.
    fn step(&self, py: Python<'_>, dt: f64) -> PyResult<()> {
        positive("dt", dt)?;
        let mut guard = self.lock();
        let s: &mut scene::Scene = &mut guard;
        py.detach(|| s.step(dt)).map_err(|e| scene_error(e, "step"))
    }

    /// Applies `impulse` (N·s, world) to `bone` of character `key` at `point` (m, world; default the body's centre
    /// of mass) during the next step.
    #[pyo3(signature = (key, bone, impulse, point=None))]
    fn apply_impulse(
        &self,
        key: u64,
        bone: &str,
        impulse: [f64; 3],
        point: Option<[f64; 3]>,
    ) -> PyResult<()> {
        let mut s = self.lock();
        let c = s
            .character_mut(CharacterKey::from_raw(key))
            .map_err(|e| scene_error(e, &character_name(key)))?;
        self::impulse(c, bone, impulse, point)
    }

    /// Spawns a ball (m, m/s, kg) and returns its key; its first touch of a body becomes an impulse and an event.
    #[pyo3(signature = (position, velocity, *, radius=0.11, mass=0.45))]
    fn spawn_ball(
        &self,
        position: [f64; 3],
        velocity: [f64; 3],
        radius: f64,
        mass: f64,
    ) -> PyResult<u64> {
        let ball = Ball {
            radius: positive("radius", radius)?,
            mass: positive("mass", mass)?,
            position: vector("position", position)?,
            velocity: vector("velocity", velocity)?,
        };
        let key = self
            .lock()
            .spawn_ball(ball)
            .map_err(|e| scene_error(e, "ball"))?;
        Ok(key.to_raw())
    }

    /// A ball aimed at `bone` of character `key`: launched `flight` s before `arrival` so that its centre passes
    /// through the bone's reference centre of mass at `arrival` with `velocity`. Returns (launch time, position,
    /// velocity) to pass to `spawn_ball` at that time.
    #[pyo3(signature = (key, bone, arrival, velocity, *, radius=0.11, mass=0.45, flight=0.2))]
    #[allow(clippy::too_many_arguments)]
    fn aim_ball(
        &self,
        key: u64,
        bone: &str,
        arrival: f64,
        velocity: [f64; 3],
        radius: f64,
        mass: f64,
        flight: f64,
    ) -> PyResult<(f64, Triple, Triple)> {
        let s = self.lock();
        let c = s
            .character(CharacterKey::from_raw(key))
            .map_err(|e| scene_error(e, &character_name(key)))?;
        let v = vector("velocity", velocity)?;
        let (t, b) = scene::aimed_ball(c, bone, arrival, v, radius, mass, flight)
            .map_err(|e| scene_error(e, &character_name(key)))?;
        let p = b.position;
        let v = b.velocity;
        Ok((t, (p.x, p.y, p.z), (v.x, v.y, v.z)))
    }

    /// Position (m) and velocity (m/s) of ball `key`.
    fn ball_state(&self, key: u64) -> PyResult<(Triple, Triple)> {
        let s = self.lock();
        let b = s
            .ball(BallKey::from_raw(key))
            .map_err(|e| scene_error(e, &format!("ball {key:#x}")))?;
        let (p, v) = (b.position, b.velocity);
        Ok(((p.x, p.y, p.z), (v.x, v.y, v.z)))
    }

    /// Removes ball `key`.
    fn remove_ball(&self, key: u64) -> PyResult<()> {
        self.lock()
            .remove_ball(BallKey::from_raw(key))
            .map(drop)
            .map_err(|e| scene_error(e, &format!("ball {key:#x}")))
    }

    /// Hits of the last step, in time order.
    #[getter]
    fn events(&self) -> Vec<HitEvent> {
        self.lock().events().iter().map(HitEvent::new).collect()
    }

    /// Pose of character `key`: local rotations (joints, 4; x, y, z, w) and translations (joints, 3).
    fn pose<'py>(&self, py: Python<'py>, key: u64) -> PyResult<PoseArrays<'py>> {
        let s = self.lock();
        let c = s
            .character(CharacterKey::from_raw(key))
            .map_err(|e| scene_error(e, &character_name(key)))?;
        Ok(pose_arrays(py, c))
    }

    /// Per skeleton joint of character `key`: deviation from its reference (radians).
    fn joint_deviations<'py>(
        &self,
        py: Python<'py>,
        key: u64,
    ) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        let s = self.lock();
        let c = s
            .character(CharacterKey::from_raw(key))
            .map_err(|e| scene_error(e, &character_name(key)))?;
        let d = deviations(c);
        let n = d.len();
        Ok(array(py, d, &[n]))
    }

    /// Keys of the characters in the scene.
    #[getter]
    fn characters(&self) -> Vec<u64> {
        self.lock().characters().map(|(k, _)| k.to_raw()).collect()
    }
}
