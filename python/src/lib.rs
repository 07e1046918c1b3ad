//! # flinch-python
//!
//! The extension module `flinch._flinch` behind the Python package `flinch` (python/flinch/): clips, characters,
//! scenes, bakes and metrics, with poses and torques as NumPy arrays. A thin skin over the Rust API; the
//! Python-facing documentation is in python/flinch/_flinch.pyi and docs/python.md.
//!
//! Rules: no panic reaches Python (PyO3 turns one into `PanicException`, but every error path returns a
//! `flinch.errors` exception first); long calls (bake, run, evaluate) release the GIL.

use pyo3::prelude::*;

mod bake;
mod character;
mod clip;
mod convert;
mod errors;
mod level;
mod scene;

/// The extension module: see the `flinch` package for the documented API.
#[pymodule]
fn _flinch(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<clip::Clip>()?;
    m.add_class::<character::Character>()?;
    m.add_class::<scene::Scene>()?;
    m.add_class::<scene::HitEvent>()?;
    m.add_class::<bake::BakeResult>()?;
    m.add_function(wrap_pyfunction!(clip::load, m)?)?;
    m.add_function(wrap_pyfunction!(bake::bake_file, m)?)?;
    m.add_function(wrap_pyfunction!(cpu_report, m)?)?;
    Ok(())
}

/// `cpu <model> kernel <avx2|sse2> avx512f <yes|no> fma <yes|no>`: the CPU and the kernel variant flinch's
/// step runs (`flinch::cpu_report` of the Rust crate), for the head of a benchmark's output.
#[pyfunction]
fn cpu_report() -> String {
    flinch_core::cpu_report()
}
