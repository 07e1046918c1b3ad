//! `Scene`: characters and balls on one clock; ball touches become impulses and `HitEvent`s.

use std::sync::{Mutex, MutexGuard};

use numpy::PyArrayDyn;
use pyo3::prelude::*;

use crate::character::{Character, deviations, impulse, moved, pose_arrays};
use crate::convert::{PoseArrays, Triple, array, positive, vector};
use crate::errors::{Kind, error, scene as scene_error};
use crate::level::{ShapeArgs, cast_arguments, collider, hit_dict, load_error, pose};
use flinch_core::level::{ColliderKey, Level, load_level_file};
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
    /// Key of the ball, or None for a scripted impulse or a collider's push.
    pub ball: Option<u64>,
    /// Key of the kinematic collider that pushed (a swung bat), or None.
    pub collider: Option<u64>,
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
            collider: e.collider.map(|c| c.to_raw()),
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
            } else if self.collider.is_some() {
                "collider"
            } else {
                "impulse"
            }
        )
    }
}

/// Characters, balls and the level's colliders stepped together.
#[pyclass(module = "flinch._flinch")]
pub struct Scene {
    inner: Mutex<scene::Scene>,
}

impl Scene {
    fn lock(&self) -> MutexGuard<'_, scene::Scene> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A copy of the level's static colliders: the ground a clip is adapted to (`Character(..., level=scene)`).
    pub fn static_ground(&self) -> PyResult<Level> {
        self.lock()
            .level()
            .static_ground()
            .map_err(|e| error(Kind::Argument, format!("level: {e}")))
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

    /// Adds a collider to the scene's level and returns its key. `shape` is 'plane' (`normal`), 'box'
    /// (`half_extents`), 'sphere' (`radius`), 'capsule' (`half_height`, `radius`; along local Y), 'convex_hull'
    /// (`points`), 'mesh' (`vertices`, `triangles`) or 'height_field' (`heights` (rows, cols), `size_x`,
    /// `size_z`); the pose is `position` (m) and `rotation` (x, y, z, w). `friction` None: each character's own.
    /// A kinematic collider is moved by `move_collider`.
    #[pyo3(signature = (
        shape, *, position=[0.0, 0.0, 0.0], rotation=[0.0, 0.0, 0.0, 1.0], friction=None, restitution=0.0,
        layers=u32::MAX, mask=u32::MAX, kinematic=false, normal=None, half_extents=None, radius=None,
        half_height=None, points=None, vertices=None, triangles=None, heights=None, size_x=None, size_z=None,
        name=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn add_collider(
        &self,
        shape: &str,
        position: [f64; 3],
        rotation: [f64; 4],
        friction: Option<f64>,
        restitution: f64,
        layers: u32,
        mask: u32,
        kinematic: bool,
        normal: Option<[f64; 3]>,
        half_extents: Option<[f64; 3]>,
        radius: Option<f64>,
        half_height: Option<f64>,
        points: Option<&Bound<'_, PyAny>>,
        vertices: Option<&Bound<'_, PyAny>>,
        triangles: Option<&Bound<'_, PyAny>>,
        heights: Option<&Bound<'_, PyAny>>,
        size_x: Option<f64>,
        size_z: Option<f64>,
        name: Option<String>,
    ) -> PyResult<u64> {
        let args = ShapeArgs {
            normal,
            half_extents,
            radius,
            half_height,
            points,
            vertices,
            triangles,
            heights,
            size_x,
            size_z,
        };
        let desc = collider(
            shape,
            &args,
            position,
            rotation,
            friction,
            restitution,
            layers,
            mask,
            kinematic,
            name,
        )?;
        self.lock()
            .add_collider(desc)
            .map(ColliderKey::to_raw)
            .map_err(|e| scene_error(e, "collider"))
    }

    /// Removes collider `key` from the level (a removed or foreign key: StaleHandleError).
    fn remove_collider(&self, key: u64) -> PyResult<()> {
        self.lock()
            .remove_collider(ColliderKey::from_raw(key))
            .map_err(|e| scene_error(e, "collider"))
    }

    /// Moves kinematic collider `key` to `position`, `rotation` (x, y, z, w), reached at the end of the next step;
    /// the contacts see `velocity` (m/s) and `angular_velocity` (rad/s) when given, else the motion's own.
    #[pyo3(signature = (key, position, rotation=[0.0, 0.0, 0.0, 1.0], velocity=None, angular_velocity=None))]
    fn move_collider(
        &self,
        key: u64,
        position: [f64; 3],
        rotation: [f64; 4],
        velocity: Option<[f64; 3]>,
        angular_velocity: Option<[f64; 3]>,
    ) -> PyResult<()> {
        let target = pose(position, rotation)?;
        let velocity = match (velocity, angular_velocity) {
            (None, None) => None,
            (l, a) => Some((
                l.map_or(Ok(nalgebra::Vector3::zeros()), |v| vector("velocity", v))?,
                a.map_or(Ok(nalgebra::Vector3::zeros()), |v| {
                    vector("angular_velocity", v)
                })?,
            )),
        };
        self.lock()
            .move_collider(ColliderKey::from_raw(key), target, velocity)
            .map_err(|e| scene_error(e, "collider"))
    }

    /// Loads a level file (glTF/GLB: every mesh a static collider) posed by `position`, `rotation` and returns its
    /// colliders' keys in file order; on an error nothing is added. GIL released while reading.
    #[pyo3(signature = (path, position=[0.0, 0.0, 0.0], rotation=[0.0, 0.0, 0.0, 1.0]))]
    fn load_level(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        position: [f64; 3],
        rotation: [f64; 4],
    ) -> PyResult<Vec<u64>> {
        let at = pose(position, rotation)?;
        let file = py
            .detach(|| load_level_file(&path, None))
            .map_err(load_error)?;
        let keys = self
            .lock()
            .add_level(&file, &at)
            .map_err(|e| scene_error(e, "level"))?;
        Ok(keys.into_iter().map(ColliderKey::to_raw).collect())
    }

    /// The first character body or collider (whose layers meet `mask`) a ray from `origin` along `direction` meets
    /// within `max_distance` (m): a dict (kind 'character' or 'collider', character, body, bone, collider, point,
    /// normal, distance) or None.
    #[pyo3(signature = (origin, direction, max_distance=1e3, mask=u32::MAX))]
    fn cast_ray<'py>(
        &self,
        py: Python<'py>,
        origin: [f64; 3],
        direction: [f64; 3],
        max_distance: f64,
        mask: u32,
    ) -> PyResult<Option<Bound<'py, pyo3::types::PyDict>>> {
        let (o, d) = cast_arguments(origin, direction, max_distance, false)?;
        let s = self.lock();
        s.cast_ray(&o, &d, max_distance, mask)
            .map(|h| hit_dict(py, &h))
            .transpose()
    }

    /// The first character body or collider a sphere of `radius` (m) moving from `origin` along `direction`
    /// touches within `max_distance` (m, finite) of travel: a dict like `cast_ray`'s (distance: the centre's
    /// travel) or None.
    #[pyo3(signature = (origin, radius, direction, max_distance=1e3, mask=u32::MAX))]
    fn cast_sphere<'py>(
        &self,
        py: Python<'py>,
        origin: [f64; 3],
        radius: f64,
        direction: [f64; 3],
        max_distance: f64,
        mask: u32,
    ) -> PyResult<Option<Bound<'py, pyo3::types::PyDict>>> {
        let radius = positive("radius", radius)?;
        let (o, d) = cast_arguments(origin, direction, max_distance, true)?;
        let s = self.lock();
        s.cast_sphere(&o, radius, &d, max_distance, mask)
            .map(|h| hit_dict(py, &h))
            .transpose()
    }

    /// Sets character `key`'s collision layers and mask against the level (default all bits: touches everything).
    fn set_level_layers(&self, key: u64, layers: u32, mask: u32) -> PyResult<()> {
        self.lock()
            .character_mut(CharacterKey::from_raw(key))
            .map_err(|e| scene_error(e, &character_name(key)))?
            .set_level_layers(layers, mask);
        Ok(())
    }

    /// Number of colliders in the scene's level.
    #[getter]
    fn collider_count(&self) -> usize {
        self.lock().level().len()
    }
}
