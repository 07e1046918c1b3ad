//! Arguments in (vectors, import options, JSON) and NumPy arrays out.

use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArrayDyn};
use pyo3::prelude::*;

use crate::errors::{Kind, error};
use flinch_core::io::{ImportOptions, LengthUnit, UpAxis};

/// A vector argument: 3 finite numbers (a tuple, list or NumPy array), else `InvalidArgumentError` naming it.
pub fn vector(what: &str, v: [f64; 3]) -> PyResult<Vector3<f64>> {
    if v.iter().all(|c| c.is_finite()) {
        Ok(Vector3::from(v))
    } else {
        Err(error(
            Kind::Argument,
            format!("`{what}` must be 3 finite numbers, got {v:?}"),
        ))
    }
}

/// A positive finite number argument.
pub fn positive(what: &str, x: f64) -> PyResult<f64> {
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(error(
            Kind::Argument,
            format!("`{what}` must be a positive finite number, got {x}"),
        ))
    }
}

/// Import options from the keyword arguments of `load` and `bake` (the CLI's `--unit`, `--up`, `--drop-tpose`,
/// `--anim`); `sample_rate` resamples glTF animation.
pub fn import_options(
    unit: Option<&str>,
    up: Option<&str>,
    drop_tpose: bool,
    animation: Option<String>,
    sample_rate: Option<f64>,
) -> PyResult<ImportOptions> {
    let unit = match unit {
        None => None,
        Some(u) => Some(LengthUnit::parse(u).ok_or_else(|| {
            error(
                Kind::Argument,
                format!("unit '{u}': expected m, dm, cm, mm, in, cmu-asf or a positive factor"),
            )
        })?),
    };
    let up_axis = match up.map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("y") => Some(UpAxis::Y),
        Some("z") => Some(UpAxis::Z),
        Some(other) => {
            return Err(error(
                Kind::Argument,
                format!("up '{other}': expected 'y' or 'z'"),
            ));
        }
    };
    if let Some(r) = sample_rate {
        positive("rate", r)?;
    }
    Ok(ImportOptions {
        unit,
        up_axis,
        drop_leading_tpose: drop_tpose,
        animation,
        sample_rate,
        ..ImportOptions::default()
    })
}

/// An owned NumPy array of `shape` over `data` (moved, not copied, into the array).
pub fn array<'py>(py: Python<'py>, data: Vec<f64>, shape: &[usize]) -> Bound<'py, PyArrayDyn<f64>> {
    // The shape always matches the data: every caller builds `data` from the same counts.
    match ArrayD::from_shape_vec(IxDyn(shape), data) {
        Ok(a) => a.into_pyarray(py),
        Err(_) => ArrayD::<f64>::zeros(IxDyn(&[0])).into_pyarray(py),
    }
}

/// Vectors as a flat `[x, y, z, ...]` list.
pub fn flat_vectors(v: &[Vector3<f64>]) -> Vec<f64> {
    v.iter().flat_map(|x| [x.x, x.y, x.z]).collect()
}

/// Quaternions as a flat `[x, y, z, w, ...]` list (the glTF / SciPy order).
pub fn flat_quaternions(q: &[UnitQuaternion<f64>]) -> Vec<f64> {
    q.iter().flat_map(|q| [q.i, q.j, q.k, q.w]).collect()
}

/// Rigid transforms as flat row-major 4×4 matrices.
pub fn flat_matrices(t: &[Isometry3<f64>]) -> Vec<f64> {
    let mut out = Vec::with_capacity(t.len() * 16);
    for t in t {
        let m = t.to_homogeneous();
        for r in 0..4 {
            for c in 0..4 {
                out.push(m[(r, c)]);
            }
        }
    }
    out
}

/// A 3-vector returned to Python as a tuple.
pub type Triple = (f64, f64, f64);

/// A pose returned to Python: rotations (joints, 4) and translations (joints, 3).
pub type PoseArrays<'py> = (Bound<'py, PyArrayDyn<f64>>, Bound<'py, PyArrayDyn<f64>>);
