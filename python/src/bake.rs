//! `bake_file` (the `flinch bake` of one clip: the same `flinch::bake::bake_file`, so the same bytes; with `onto`
//! the `flinch bake --onto` retarget, `flinch::retarget::bake_onto`), its `BakeResult` (with the baked clip in
//! memory), and the metrics dict shared with `Character.evaluate`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use numpy::PyArrayDyn;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::character::{Source, character_config, json_or_path};
use crate::clip::Clip;
use crate::convert::{array, import_options};
use crate::errors::{Kind, bake as bake_error, error, import_kind};
use crate::scene::HitEvent;
use flinch_core::bake::{self, BakeMode, Baked, HitScript, OutputOptions, Readback};
use flinch_core::control::Evaluation;
use flinch_core::io::{ImportError, ImportOptions, Imported, load_embedded_walk, load_file};
use flinch_core::retarget::bake_onto_with;

/// The metrics of a run as a dict (the figures `flinch eval` and `flinch bake` print).
pub fn metrics_dict<'py>(py: Python<'py>, e: &Evaluation) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("step_s", e.h)?;
    d.set_item("steps", e.steps)?;
    d.set_item("track_rms_deg", e.track_rms_deg)?;
    d.set_item("track_max_deg", e.track_max_deg)?;
    d.set_item("raw_rms_deg", e.raw_rms_deg)?;
    d.set_item("raw_max_deg", e.raw_max_deg)?;
    d.set_item("max_joint_gap_mm", e.max_joint_gap_mm)?;
    let joints = PyDict::new(py);
    for j in &e.joints {
        joints.set_item(&j.name, (j.rms_deg, j.max_deg))?;
    }
    d.set_item("joints", joints)?;
    match &e.hit {
        Some(h) => {
            let hit = PyDict::new(py);
            hit.set_item("peak_deg", h.peak_deg)?;
            hit.set_item("peak_joint", &h.peak_joint)?;
            hit.set_item("peak_time", h.peak_time)?;
            hit.set_item("return_s", h.return_s)?;
            hit.set_item("energy_j", h.energy_j)?;
            d.set_item("hit", hit)?;
        }
        None => d.set_item("hit", py.None())?,
    }
    Ok(d)
}

/// What a bake did.
#[pyclass(module = "flinch._flinch", frozen)]
pub struct BakeResult {
    output: PathBuf,
    frames: usize,
    steps: usize,
    duration: f64,
    events: Vec<HitEvent>,
    evaluation: Evaluation,
    clip: Arc<Imported>,
    animation: String,
    readback: Readback,
}

#[pymethods]
impl BakeResult {
    /// The file written.
    #[getter]
    fn output(&self) -> PathBuf {
        self.output.clone()
    }

    /// The baked clip in memory (the written file's skeleton and motion, before the file format's rounding):
    /// what `flinch.export_usd` writes.
    #[getter]
    fn clip(&self) -> Clip {
        Clip {
            imported: Arc::clone(&self.clip),
            path: self.output.clone(),
        }
    }

    /// Frames of the baked clip (the input clip's).
    #[getter]
    fn frames(&self) -> usize {
        self.frames
    }

    /// Simulation steps run.
    #[getter]
    fn steps(&self) -> usize {
        self.steps
    }

    /// Seconds of motion simulated.
    #[getter]
    fn duration(&self) -> f64 {
        self.duration
    }

    /// Ball touches and scripted impulses, in time order.
    #[getter]
    fn events(&self) -> Vec<HitEvent> {
        self.events.clone()
    }

    /// Tracking and hit figures (see `Character.evaluate`).
    #[getter]
    fn metrics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        metrics_dict(py, &self.evaluation)
    }

    /// The reacted animation's name in the file (glTF; `<clip>_reacted` unless `name` chose one).
    #[getter]
    fn animation(&self) -> String {
        self.animation.clone()
    }

    /// The written file read back with flinch's importer and measured (what `flinch bake` prints as "read
    /// back"): `frames`, `duration_s`, `foot_height_p95_mm`, `foot_height_median_mm`, `skate_mm`, `limb_dir_deg`,
    /// `added_skate_mm` and `added_foot_height_p95_mm` (what the bake added to the source clip's own),
    /// `stances` (a list of dicts: `side`, `start_s`, `end_s`, `skate_mm`, `height_p95_mm`, `source_skate_mm`) and
    /// `failures` (the
    /// limits of `flinch bake --check` it passes over, as sentences; empty when within them).
    #[getter]
    fn readback<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = &self.readback;
        let d = PyDict::new(py);
        d.set_item("frames", r.frames)?;
        d.set_item("duration_s", r.duration_s)?;
        d.set_item("foot_height_p95_mm", r.foot_height_p95_mm)?;
        d.set_item("foot_height_median_mm", r.foot_height_median_mm)?;
        d.set_item("skate_mm", r.skate_mm)?;
        d.set_item("limb_dir_deg", r.limb_dir_deg)?;
        d.set_item("added_skate_mm", r.added_skate_mm)?;
        d.set_item("added_foot_height_p95_mm", r.added_foot_height_p95_mm)?;
        let stances = r
            .stances
            .iter()
            .map(|s| {
                let x = PyDict::new(py);
                x.set_item("side", s.side)?;
                x.set_item("start_s", s.start_s)?;
                x.set_item("end_s", s.end_s)?;
                x.set_item("skate_mm", s.skate_mm)?;
                x.set_item("height_p95_mm", s.height_p95_mm)?;
                x.set_item("source_skate_mm", s.source_skate_mm)?;
                Ok(x)
            })
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("stances", stances)?;
        d.set_item(
            "failures",
            r.failures(&flinch_core::bake::ReadbackLimits::default()),
        )?;
        Ok(d)
    }

    /// Per step: time (s) and the largest joint deviation from the reference (degrees), shape (steps, 2).
    #[getter]
    fn deviation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f64>> {
        let d = &self.evaluation.deviation;
        let data = d.iter().flat_map(|&(t, x)| [t, x]).collect();
        array(py, data, &[d.len(), 2])
    }

    fn __repr__(&self) -> String {
        format!(
            "<flinch.BakeResult {}: {} frames, {} steps, {} events>",
            self.output.display(),
            self.frames,
            self.steps,
            self.events.len()
        )
    }
}

/// Bakes one clip file into `output` (see `flinch.bake`); with `onto`, retargets it onto that character file first
/// (`flinch bake --onto`, `map` its bone-map file). GIL released during the bake.
#[pyfunction]
#[pyo3(signature = (input, output, *, hits=None, rate=120.0, config=None, simulated=false, threads=None,
    unit=None, up=None, drop_tpose=false, animation=None, onto=None, map=None, name=None,
    keep_unreacted=false))]
#[allow(clippy::too_many_arguments)]
pub fn bake_file(
    py: Python<'_>,
    input: Option<PathBuf>,
    output: PathBuf,
    hits: Option<&Bound<'_, PyAny>>,
    rate: f64,
    config: Option<&Bound<'_, PyAny>>,
    simulated: bool,
    threads: Option<usize>,
    unit: Option<&str>,
    up: Option<&str>,
    drop_tpose: bool,
    animation: Option<String>,
    onto: Option<PathBuf>,
    map: Option<PathBuf>,
    name: Option<String>,
    keep_unreacted: bool,
) -> PyResult<BakeResult> {
    let options = OutputOptions {
        name,
        keep_unreacted,
    };
    if map.is_some() && onto.is_none() {
        return Err(error(
            Kind::Argument,
            "`map` needs `onto` (the character to retarget onto)",
        ));
    }
    let config = character_config(config, rate, threads)?;
    let script_error = |e: flinch_core::model::ConfigError| error(Kind::Config, e.to_string());
    let script = match hits {
        None => HitScript::default(),
        Some(h) => match json_or_path(h, "hits")? {
            Source::Json(text) => HitScript::from_json(&text).map_err(script_error)?,
            Source::Path(path) => HitScript::from_file(&path).map_err(script_error)?,
        },
    };
    let import = import_options(unit, up, drop_tpose, animation, Some(rate))?;
    let mode = if simulated {
        BakeMode::Simulated
    } else {
        BakeMode::Layered
    };
    let (baked, duration, skeleton, animation, readback) = py.detach(|| -> PyResult<_> {
        let (baked, duration, animation, readback) = match &onto {
            Some(character) => {
                let s = bake_onto_with(
                    character,
                    input.as_deref(),
                    map.as_deref(),
                    &output,
                    &script,
                    &config,
                    &import,
                    mode,
                    &options,
                    |_| {},
                )
                .map_err(bake_error)?;
                (s.baked, s.duration, s.animation, s.readback)
            }
            None => {
                let s = bake::bake_file_with(
                    input.as_deref(),
                    &output,
                    &script,
                    &config,
                    &import,
                    mode,
                    &options,
                    |_| {},
                )
                .map_err(bake_error)?;
                (s.baked, s.duration, s.animation, s.readback)
            }
        };
        let skeleton = baked_skeleton(input.as_deref(), onto.as_deref(), &import, &baked)?;
        Ok((baked, duration, skeleton, animation, readback))
    })?;
    Ok(BakeResult {
        output,
        frames: baked.clip.frames.len(),
        steps: baked.steps,
        duration,
        events: baked.events.iter().map(HitEvent::new).collect(),
        clip: Arc::new(Imported {
            skeleton: skeleton.skeleton,
            clip: baked.clip,
            report: skeleton.report,
        }),
        evaluation: baked.evaluation,
        animation,
        readback,
    })
}

/// The skeleton the bake wrote its clip on: the character's with `onto` (loaded as `bake_onto` loads it), else the
/// input's, imported again with the bake's options (the bake does not hand its skeleton back; importing is
/// deterministic, and the joint count is checked against the baked clip).
fn baked_skeleton(
    input: Option<&Path>,
    onto: Option<&Path>,
    import: &ImportOptions,
    baked: &Baked,
) -> PyResult<Imported> {
    let loaded = match (onto, input) {
        (Some(character), _) => load_file(character, &ImportOptions::default()),
        (None, Some(path)) => load_file(path, import),
        (None, None) => load_embedded_walk(import),
    };
    let mut imported = loaded.map_err(|e: ImportError| error(import_kind(&e), e.to_string()))?;
    imported.drop_leading_tpose();
    let joints = baked.clip.frames.first().map_or(0, |f| f.rotations.len());
    if joints != imported.skeleton.len() {
        return Err(error(
            Kind::Simulation,
            format!(
                "the baked clip has {joints} joints but its skeleton {}",
                imported.skeleton.len()
            ),
        ));
    }
    Ok(imported)
}
