//! `flinch.load` and `Clip`: a skeleton and its motion from a BVH, glTF/GLB or URDF file.

use std::path::PathBuf;
use std::sync::Arc;

use numpy::PyArrayDyn;
use pyo3::prelude::*;

use crate::convert::{array, flat_matrices, flat_quaternions, flat_vectors, import_options};
use crate::errors::{Kind, error, import_kind};
use flinch_core::io::{Imported, load_file};

/// A loaded clip: skeleton, motion and what the importer inferred. Immutable; build characters from it.
#[pyclass(module = "flinch._flinch", frozen)]
pub struct Clip {
    pub imported: Arc<Imported>,
    pub path: PathBuf,
}

/// Loads a clip (`.bvh`, `.gltf`, `.glb`, `.urdf`; format by extension).
#[pyfunction]
#[pyo3(signature = (path, *, unit=None, up=None, rate=None, drop_tpose=false, animation=None))]
pub fn load(
    py: Python<'_>,
    path: PathBuf,
    unit: Option<&str>,
    up: Option<&str>,
    rate: Option<f64>,
    drop_tpose: bool,
    animation: Option<String>,
) -> PyResult<Clip> {
    let options = import_options(unit, up, drop_tpose, animation, rate)?;
    let imported = py
        .detach(|| load_file(&path, &options))
        .map_err(|e| error(import_kind(&e), e.to_string()))?;
    Ok(Clip {
        imported: Arc::new(imported),
        path,
    })
}

#[pymethods]
impl Clip {
    /// A new clip made `seconds` long: a detected leading T-pose frame dropped, then its best loop repeated without
    /// a seam, each repetition moved on by the distance the loop travels (a walk as long as a course needs).
    fn looped(&self, seconds: f64) -> PyResult<Clip> {
        let imported = self
            .imported
            .looped(seconds, &flinch_core::io::Limits::DEFAULT)
            .map_err(|e| error(Kind::Argument, format!("{}: {e}", self.path.display())))?;
        Ok(Clip {
            imported: Arc::new(imported),
            path: self.path.clone(),
        })
    }

    /// The file it was loaded from.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// Skeleton joint names, in joint order (parents before children).
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        let joints = &self.imported.skeleton.joints;
        joints.iter().map(|j| j.name.clone()).collect()
    }

    /// Parent index of each joint (-1 for a root).
    #[getter]
    fn parents(&self) -> Vec<i64> {
        let joints = &self.imported.skeleton.joints;
        joints
            .iter()
            .map(|j| j.parent.map_or(-1, |p| p as i64))
            .collect()
    }

    /// Number of frames.
    #[getter]
    fn frame_count(&self) -> usize {
        self.imported.clip.frames.len()
    }

    /// Seconds between frames.
    #[getter]
    fn frame_time(&self) -> f64 {
        self.imported.clip.frame_time
    }

    /// Length of the clip in seconds.
    #[getter]
    fn duration(&self) -> f64 {
        self.imported.clip.duration()
    }

    /// File format (`bvh`, `gltf`, `urdf`, ...).
    #[getter]
    fn format(&self) -> String {
        self.imported.report.format.clone()
    }

    /// Importer warnings.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.imported.report.warnings.clone()
    }

    /// Local joint rotations relative to rest, shape (frames, joints, 4), quaternions (x, y, z, w).
    fn rotations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f64>> {
        let frames = &self.imported.clip.frames;
        let joints = self.imported.skeleton.joints.len();
        let data = frames
            .iter()
            .flat_map(|f| flat_quaternions(&f.rotations))
            .collect();
        array(py, data, &[frames.len(), joints, 4])
    }

    /// Rest orientation of each joint in its parent's frame, shape (joints, 4), quaternions (x, y, z, w): a joint's
    /// local rotation is `rest_rotations()[j] * rotations()[f, j]` (identity for BVH skeletons).
    fn rest_rotations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f64>> {
        let joints = &self.imported.skeleton.joints;
        let q: Vec<_> = joints.iter().map(|j| j.rest_rotation).collect();
        array(py, flat_quaternions(&q), &[joints.len(), 4])
    }

    /// Rest offset of each joint in its parent's frame (m), shape (joints, 3): the local translation of the rest
    /// pose (a frame's translations add its position channels to it).
    fn rest_translations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f64>> {
        let joints = &self.imported.skeleton.joints;
        let t: Vec<_> = joints.iter().map(|j| j.offset).collect();
        array(py, flat_vectors(&t), &[joints.len(), 3])
    }

    /// World transform of every joint at every frame by the core's forward kinematics, shape
    /// (frames, joints, 4, 4), row-major matrices acting on column vectors (metres, Y up).
    fn world_transforms<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f64>> {
        let skeleton = &self.imported.skeleton;
        let frames = &self.imported.clip.frames;
        let data = py.detach(|| {
            let mut world = Vec::with_capacity(skeleton.len());
            let mut data = Vec::with_capacity(frames.len() * skeleton.len() * 16);
            for f in frames {
                f.world_transforms_into(skeleton, &mut world);
                data.extend(flat_matrices(&world));
            }
            data
        });
        array(py, data, &[frames.len(), skeleton.len(), 4, 4])
    }

    /// Local joint translations in the parent's frame (m), shape (frames, joints, 3).
    fn translations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f64>> {
        let frames = &self.imported.clip.frames;
        let joints = self.imported.skeleton.joints.len();
        let data = frames
            .iter()
            .flat_map(|f| flat_vectors(&f.translations))
            .collect();
        array(py, data, &[frames.len(), joints, 3])
    }

    fn __repr__(&self) -> String {
        format!(
            "<flinch.Clip {} : {} joints, {} frames, {:.3} s>",
            self.path.display(),
            self.imported.skeleton.joints.len(),
            self.imported.clip.frames.len(),
            self.imported.clip.duration()
        )
    }
}
