//! `Character`: a clip's physically simulated character, stepped from Python or in Rust, hit, and read back as
//! NumPy arrays.

use std::sync::{Arc, Mutex, MutexGuard};

use numpy::PyArrayDyn;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::bake::metrics_dict;
use crate::clip::Clip;
use crate::convert::{
    PoseArrays, Triple, array, flat_matrices, flat_quaternions, flat_vectors, positive, vector,
};
use crate::errors::{Kind, character, error};
use crate::scene::Scene;
use flinch_core::control::{self, CharacterConfig, EvalOptions, Hit};

/// A simulated character. `None` once moved into a `Scene`.
#[pyclass(module = "flinch._flinch")]
pub struct Character {
    pub inner: Mutex<Option<control::Character>>,
}

/// The character configuration of `config` (None: defaults; a dict: its JSON; a str starting with `{`: JSON
/// text; any other str or path: a .json/.toml file) simulated at `rate` Hz, preprocessing on `threads` threads.
pub fn character_config(
    config: Option<&Bound<'_, PyAny>>,
    rate: f64,
    threads: Option<usize>,
) -> PyResult<CharacterConfig> {
    positive("rate", rate)?;
    let config_error = |e: flinch_core::model::ConfigError| error(Kind::Config, e.to_string());
    let mut c = match config {
        None => CharacterConfig::default(),
        Some(obj) => match json_or_path(obj, "config")? {
            Source::Json(text) => CharacterConfig::from_json(&text).map_err(config_error)?,
            Source::Path(path) => CharacterConfig::from_file(&path).map_err(config_error)?,
        },
    };
    c.preprocess.rate_hz = rate;
    if threads.is_some() {
        c.preprocess.threads = threads;
    }
    Ok(c)
}

/// Where a configuration or hits script comes from.
pub enum Source {
    /// JSON text.
    Json(String),
    /// A file (.json or .toml).
    Path(std::path::PathBuf),
}

/// A dict or list (serialized with `json.dumps`), JSON text, or a path.
pub fn json_or_path(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Source> {
    let py = obj.py();
    if obj.is_instance_of::<PyDict>() || obj.is_instance_of::<PyList>() {
        let text: String = py
            .import("json")?
            .call_method1("dumps", (obj,))
            .map_err(|e| {
                error(
                    Kind::Config,
                    format!("`{what}`: not JSON-serializable: {e}"),
                )
            })?
            .extract()?;
        return Ok(Source::Json(text));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_cow()?;
        if s.trim_start().starts_with('{') {
            return Ok(Source::Json(s.to_string()));
        }
    }
    match obj.extract::<std::path::PathBuf>() {
        Ok(p) => Ok(Source::Path(p)),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "`{what}` must be a dict, JSON text or a path, got {}",
            obj.get_type().name()?
        ))),
    }
}

/// Scripted impulses from a list of dicts `{"bone", "time", "impulse", "point"?}`.
fn hits_from(list: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Hit>> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let mut hits = Vec::new();
    for (i, item) in list.try_iter()?.enumerate() {
        let item = item?;
        let d = item.cast::<PyDict>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "hits[{i}] must be a dict with bone, time, impulse (and optionally point)"
            ))
        })?;
        let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
            d.get_item(key)?
                .ok_or_else(|| error(Kind::Argument, format!("hits[{i}]: missing `{key}`")))
        };
        let point = match d.get_item("point")? {
            Some(p) if !p.is_none() => Some(vector(&format!("hits[{i}].point"), p.extract()?)?),
            _ => None,
        };
        let time: f64 = get("time")?.extract()?;
        if !time.is_finite() {
            return Err(error(
                Kind::Argument,
                format!("hits[{i}].time must be finite"),
            ));
        }
        hits.push(Hit {
            bone: get("bone")?.extract()?,
            time,
            impulse: vector(&format!("hits[{i}].impulse"), get("impulse")?.extract()?)?,
            point,
        });
    }
    Ok(hits)
}

impl Character {
    /// Wraps a Rust character.
    pub fn wrap(c: control::Character) -> Character {
        Character {
            inner: Mutex::new(Some(c)),
        }
    }

    /// The lock on the character (a poisoned lock is still usable: the character is plain data).
    pub fn lock(&self) -> MutexGuard<'_, Option<control::Character>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn with<T>(&self, body: impl FnOnce(&mut control::Character) -> PyResult<T>) -> PyResult<T> {
        match self.lock().as_mut() {
            Some(c) => body(c),
            None => Err(moved()),
        }
    }
}

/// The error of a character moved into a scene.
pub fn moved() -> PyErr {
    error(
        Kind::Stale,
        "this Character was moved into a Scene: use the Scene's methods with its key",
    )
}

/// The pose of a character: local rotations (J, 4) and translations (J, 3).
pub fn pose_arrays<'py>(py: Python<'py>, c: &control::Character) -> PoseArrays<'py> {
    let pose = c.pose();
    let n = pose.rotations.len();
    (
        array(py, flat_quaternions(&pose.rotations), &[n, 4]),
        array(py, flat_vectors(&pose.translations), &[n, 3]),
    )
}

/// Per skeleton joint: the deviation of the body it drives from the reference (radians), 0 for merged bones.
pub fn deviations(c: &control::Character) -> Vec<f64> {
    let model = c.model();
    (0..c.skeleton().joints.len())
        .map(|j| {
            let b = model.body_of_joint[j];
            if model.bodies[b].skeleton_joint == j {
                c.joint_deviation(b)
            } else {
                0.0
            }
        })
        .collect()
}

/// Impulse on a bone at `point` (world, m) or the body's centre of mass.
pub fn impulse(
    c: &mut control::Character,
    bone: &str,
    impulse: [f64; 3],
    point: Option<[f64; 3]>,
) -> PyResult<()> {
    let impulse = vector("impulse", impulse)?;
    let body = c.body_of_bone(bone).map_err(character)?;
    let point = match point {
        Some(p) => vector("point", p)?,
        None => c.world().body(body).position,
    };
    c.apply_impulse(bone, point, impulse).map_err(character)
}

#[pymethods]
impl Character {
    /// Builds the character of a clip, simulated at `rate` Hz. With `level` (a `Scene` holding a level, posed
    /// first) the flat-ground clip is adapted to walk over that level's static colliders as they are now: feet
    /// raised onto the steps and slopes under them, root and legs adapted (docs/world.md); add the character to
    /// that scene. GIL released while preparing.
    #[new]
    #[pyo3(signature = (clip, *, rate=120.0, config=None, threads=None, level=None))]
    fn new(
        py: Python<'_>,
        clip: &Clip,
        rate: f64,
        config: Option<&Bound<'_, PyAny>>,
        threads: Option<usize>,
        level: Option<PyRef<'_, Scene>>,
    ) -> PyResult<Character> {
        let config = character_config(config, rate, threads)?;
        let imported = (*clip.imported).clone();
        let name = clip.path.display().to_string();
        let ground = level.map(|scene| scene.static_ground()).transpose()?;
        let c = py
            .detach(|| match ground {
                Some(ground) => control::Character::from_imported_on_terrain(
                    imported,
                    &config,
                    Arc::new(ground),
                ),
                None => control::Character::from_imported(imported, &config),
            })
            .map_err(|e| error(crate::errors::character_kind(&e), format!("{name}: {e}")))?;
        Ok(Character::wrap(c))
    }

    /// The reference pose of the root body at clip time `time` (s, clamped to the clip): its centre of mass
    /// (world, m) and orientation quaternion (x, y, z, w). Where the clip walks: place a level along its path.
    fn root_target(&self, time: f64) -> PyResult<(Triple, [f64; 4])> {
        if !time.is_finite() {
            return Err(error(
                Kind::Argument,
                format!("`time` must be finite, got {time}"),
            ));
        }
        self.with(|c| {
            let (p, q) = c.root_target(time);
            Ok(((p.x, p.y, p.z), [q.i, q.j, q.k, q.w]))
        })
    }

    /// The floor height (m, world y) a free-root character stands on (fitted to its clip's stance feet); None
    /// for a kinematic root.
    #[getter]
    fn floor(&self) -> PyResult<Option<f64>> {
        self.with(|c| Ok(c.ground().map(|g| g.floor)))
    }

    /// Simulation time (s).
    #[getter]
    fn time(&self) -> PyResult<f64> {
        self.with(|c| Ok(c.time()))
    }

    /// The preprocessed step size (s).
    #[getter]
    fn step_size(&self) -> PyResult<f64> {
        self.with(|c| Ok(c.step_size()))
    }

    /// Length of the reference motion (s).
    #[getter]
    fn duration(&self) -> PyResult<f64> {
        self.with(|c| Ok(c.reference().duration()))
    }

    /// Whether the reference motion is over.
    #[getter]
    fn finished(&self) -> PyResult<bool> {
        self.with(|c| Ok(c.finished()))
    }

    /// Skeleton joint names (the rows of `pose()`, `world_transforms()`, `joint_deviations()`).
    #[getter]
    fn joint_names(&self) -> PyResult<Vec<String>> {
        self.with(|c| Ok(c.skeleton().joints.iter().map(|j| j.name.clone()).collect()))
    }

    /// The skeleton joint of each simulated body (the rows of `torques()`).
    #[getter]
    fn body_names(&self) -> PyResult<Vec<String>> {
        self.with(|c| {
            let joints = &c.skeleton().joints;
            let bodies = &c.model().bodies;
            Ok(bodies
                .iter()
                .map(|b| joints[b.skeleton_joint].name.clone())
                .collect())
        })
    }

    /// The root policy: `"kinematic"` (the clip's root, the default), `"free"` or `"assisted"` (docs/root.md).
    /// Setting it switches at runtime; a clip without feet cannot go free.
    #[getter]
    fn root_policy(&self) -> PyResult<&'static str> {
        self.with(|c| Ok(policy_name(c.root_policy())))
    }

    #[setter]
    fn set_root_policy(&self, policy: &str) -> PyResult<()> {
        let p = match policy {
            "kinematic" => control::RootPolicy::Kinematic,
            "free" => control::RootPolicy::Free,
            "assisted" => control::RootPolicy::Assisted,
            "balanced" => control::RootPolicy::Balanced,
            other => {
                return Err(error(
                    Kind::Argument,
                    format!(
                        "root policy must be kinematic, free, assisted or balanced, got {other:?}"
                    ),
                ));
            }
        };
        self.with(|c| c.set_root_policy(p).map_err(character))
    }

    /// The assist weight in [0, 1] of an assisted root (a game drops it at a knockout).
    #[getter]
    fn assist_weight(&self) -> PyResult<f64> {
        self.with(|c| Ok(c.assist_weight()))
    }

    #[setter]
    fn set_assist_weight(&self, weight: f64) -> PyResult<()> {
        self.with(|c| c.set_assist_weight(weight).map_err(character))
    }

    /// The balance state of a free root (`"Tracking"`, `"Staggering"`, `"Falling"`, `"Ragdoll"`, `"Resting"`,
    /// `"GettingUp"`; always `"Tracking"` for a kinematic root).
    #[getter]
    fn root_state(&self) -> PyResult<&'static str> {
        self.with(|c| Ok(c.root_state().name()))
    }

    /// Every balance state transition so far: `(time, from, to)` tuples, oldest first.
    #[getter]
    fn root_events(&self) -> PyResult<Vec<(f64, &'static str, &'static str)>> {
        self.with(|c| {
            Ok(c.root_events()
                .iter()
                .map(|e| (e.time, e.from.name(), e.to.name()))
                .collect())
        })
    }

    /// The protective falls' phases so far (`docs/root.md`, "Protective falls"): `(time, phase, body)` tuples,
    /// oldest first; `phase` is `"Reach"`, `"Impact"` or `"Limp"`, `body` the model body that touched at an
    /// `Impact` (else `None`).
    #[getter]
    fn fall_events(&self) -> PyResult<Vec<(f64, &'static str, Option<usize>)>> {
        self.with(|c| {
            Ok(c.fall_events()
                .iter()
                .map(|e| (e.time, e.phase.name(), e.body))
                .collect())
        })
    }

    /// Advances by `h` seconds (default: the step size).
    #[pyo3(signature = (h=None))]
    fn step(&self, h: Option<f64>) -> PyResult<()> {
        self.with(|c| {
            let h = h.unwrap_or_else(|| c.step_size());
            c.step(h).map(drop).map_err(character)
        })
    }

    /// Steps in Rust (GIL released) until the reference ends or `duration` seconds passed; returns the steps.
    #[pyo3(signature = (duration=None))]
    fn run(&self, py: Python<'_>, duration: Option<f64>) -> PyResult<usize> {
        let mut guard = self.lock();
        let c = guard.as_mut().ok_or_else(moved)?;
        if let Some(d) = duration {
            positive("duration", d)?;
        }
        py.detach(|| {
            let end = duration.map_or(f64::INFINITY, |d| c.time() + d);
            let h = c.step_size();
            let mut steps = 0;
            while !c.finished() && c.time() < end - 1e-9 {
                c.step(h)?;
                steps += 1;
            }
            Ok(steps)
        })
        .map_err(character)
    }

    /// Applies `impulse` (N·s, world) to `bone`'s body at `point` (m, world; default its centre of mass); it acts
    /// during the next step.
    #[pyo3(signature = (bone, impulse, point=None))]
    fn apply_impulse(
        &self,
        bone: &str,
        impulse: [f64; 3],
        point: Option<[f64; 3]>,
    ) -> PyResult<()> {
        self.with(|c| self::impulse(c, bone, impulse, point))
    }

    /// The simulated pose: local rotations relative to rest (joints, 4; x, y, z, w) and translations (joints, 3).
    fn pose<'py>(&self, py: Python<'py>) -> PyResult<PoseArrays<'py>> {
        self.with(|c| Ok(pose_arrays(py, c)))
    }

    /// World transform of every skeleton joint, shape (joints, 4, 4).
    fn world_transforms<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        self.with(|c| {
            let t = c.world_transforms();
            Ok(array(py, flat_matrices(&t), &[t.len(), 4, 4]))
        })
    }

    /// Per skeleton joint: deviation from the reference (radians; 0 for bones merged into a parent's body).
    fn joint_deviations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        self.with(|c| {
            let d = deviations(c);
            let n = d.len();
            Ok(array(py, d, &[n]))
        })
    }

    /// Continuous inverse-dynamics joint torques of the reference (N·m, joint frame), shape (steps, bodies, 3):
    /// computed on each call (a third of the clip's preparation), so keep the array.
    fn torques<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        self.with(|c| {
            let r = c.reference();
            Ok(array(
                py,
                flat_vectors(&r.continuous_inverse_dynamics(None).torque),
                &[r.steps, r.bodies(), 3],
            ))
        })
    }

    /// Feedforward torques the drives apply (N·m, joint frame), shape (steps, bodies, 3).
    fn feedforward<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
        self.with(|c| {
            let r = c.reference();
            Ok(array(
                py,
                flat_vectors(&r.feedforward),
                &[r.steps, r.bodies(), 3],
            ))
        })
    }

    /// Runs from now to the end (or `duration` s) with `hits` (dicts: bone, time, impulse, point?) and returns the
    /// metrics (as `flinch eval` prints them). GIL released.
    #[pyo3(signature = (hits=None, duration=None))]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        hits: Option<&Bound<'py, PyAny>>,
        duration: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options = EvalOptions {
            hits: hits_from(hits)?,
            duration: duration.map(|d| positive("duration", d)).transpose()?,
            ..EvalOptions::default()
        };
        let mut guard = self.lock();
        let c = guard.as_mut().ok_or_else(moved)?;
        let evaluation = py
            .detach(|| control::evaluate(c, &options))
            .map_err(character)?;
        metrics_dict(py, &evaluation)
    }

    fn __repr__(&self) -> String {
        match self.lock().as_ref() {
            Some(c) => format!(
                "<flinch.Character {} bodies, t = {:.3} s of {:.3} s>",
                c.model().bodies.len(),
                c.time(),
                c.reference().duration()
            ),
            None => "<flinch.Character (moved into a Scene)>".to_string(),
        }
    }
}

/// A root policy's name in the configuration's spelling.
fn policy_name(p: control::RootPolicy) -> &'static str {
    p.name()
}
