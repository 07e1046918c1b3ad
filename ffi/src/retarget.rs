//! Retargeting a clip onto a character and baking it (`flinch_bake_onto`), shared with the C++ bridge's
//! `bake_onto`: the same `flinch::retarget::bake_onto` as `flinch bake --onto`.

use std::ffi::c_char;
use std::path::Path;

use flinch_core::bake::{BakeMode, BakeSummary};
use flinch_core::retarget::{OntoSummary, bake_onto};

use crate::args;
use crate::bake::{FlinchBakeSummary, prepare, status};
use crate::error::{FfiError, FlinchStatus, guard};

/// How well the retargeted clip follows its source (see docs/retarget.md).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlinchRetargetFigures {
    /// Character leg length / clip leg length.
    pub leg_ratio: f64,
    /// Largest horizontal drift of a planted ankle during a stance (mm).
    pub foot_skate_mm: f64,
    /// Deepest ankle below its rest height above the floor (mm).
    pub foot_penetration_mm: f64,
    /// Pelvis path length error against the clip's scaled by the leg ratio (%).
    pub root_path_err_pct: f64,
    /// Mean angle between corresponding clip and character limb directions (degrees).
    pub limb_dir_err_deg: f64,
}

impl FlinchRetargetFigures {
    /// The C figures of a Rust retarget.
    pub fn new(s: &OntoSummary) -> FlinchRetargetFigures {
        let f = &s.retargeted.figures;
        FlinchRetargetFigures {
            leg_ratio: s.retargeted.leg_ratio,
            foot_skate_mm: f.foot_skate_mm,
            foot_penetration_mm: f.foot_penetration_mm,
            root_path_err_pct: f.root_path_err_pct,
            limb_dir_err_deg: f.limb_dir_err_deg,
        }
    }
}

/// Retargets `input` (the embedded walk when `None`) onto `character` (with the bone map override file
/// `map_file`), bakes it with the hits and configuration, and writes `output`: `flinch bake --onto`.
#[allow(clippy::too_many_arguments)]
pub fn run_bake_onto(
    function: &str,
    character: &str,
    input: Option<&str>,
    map_file: Option<&str>,
    output: &str,
    hits_json: Option<&str>,
    config_json: Option<&str>,
    rate_hz: f64,
) -> Result<OntoSummary, FfiError> {
    let (script, config, import) = prepare(function, output, hits_json, config_json, rate_hz)?;
    bake_onto(
        Path::new(character),
        input.map(Path::new),
        map_file.map(Path::new),
        Path::new(output),
        &script,
        &config,
        &import,
        BakeMode::Layered,
        |_| {},
    )
    .map_err(|e| FfiError::new(status(&e), format!("{function}: {e}")))
}

/// The bake part of a retarget summary, as `flinch_bake_file` reports it.
pub fn bake_summary(s: &OntoSummary) -> BakeSummary {
    BakeSummary {
        baked: s.baked.clone(),
        duration: s.duration,
        animation: s.animation.clone(),
        readback: s.readback.clone(),
    }
}

/// Retargets a clip file onto a character file and bakes it, like `flinch bake --onto CHARACTER INPUT`: the
/// clip (`input`: `.bvh`, `.gltf`, `.glb`; NULL: the embedded CMU walk) is carried onto `character`'s skeleton
/// through the semantic humanoid bone map (`map_file`: NULL, or a `.json`/`.toml` override file with
/// `[source]`/`[target]` role = "bone" tables and `plant`), with rest-pose alignment, leg-ratio scaling and
/// planted feet; the character is then simulated with the hits of `hits_json` (NULL: none; bone names of the
/// clip or of the character) and `output` is written (a `.glb`/`.gltf` character written as glTF keeps its
/// meshes, skins and materials, with one new animation).
///
/// `config_json` and `rate_hz` as for `flinch_bake_file` (the character weighs what the clip's performer
/// weighed unless `config_json` sets `model.total_mass`). On success writes the bake summary to `*out` and the
/// retarget figures to `*figures`, each unless NULL.
///
/// Errors: as `flinch_bake_file`; a character that is no humanoid (the Fox) without a map file, or a map file
/// naming unknown roles or bones, is `PARSE` with a message naming the missing roles. Nothing is written on
/// failure.
///
/// # Safety
/// `character` and `output` are NULL (reported) or NUL-terminated strings; `input`, `map_file`, `hits_json`,
/// `config_json` are NULL or NUL-terminated; `out` and `figures` are NULL or valid for one write.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn flinch_bake_onto(
    character: *const c_char,
    input: *const c_char,
    map_file: *const c_char,
    output: *const c_char,
    hits_json: *const c_char,
    config_json: *const c_char,
    rate_hz: f64,
    out: *mut FlinchBakeSummary,
    figures: *mut FlinchRetargetFigures,
) -> FlinchStatus {
    const F: &str = "flinch_bake_onto";
    guard(F, || {
        // SAFETY: forwarded contract (each is NULL or NUL-terminated).
        let (character, input, map_file, output, hits, config) = unsafe {
            (
                args::string(F, "character", character)?,
                args::optional_string(F, "input", input)?,
                args::optional_string(F, "map_file", map_file)?,
                args::string(F, "output", output)?,
                args::optional_string(F, "hits_json", hits_json)?,
                args::optional_string(F, "config_json", config_json)?,
            )
        };
        let s = run_bake_onto(F, character, input, map_file, output, hits, config, rate_hz)?;
        // SAFETY: `out` and `figures` are NULL or valid for one write per the caller's contract.
        if let Some(out) = unsafe { out.as_mut() } {
            *out = FlinchBakeSummary::new(&bake_summary(&s));
        }
        // SAFETY: as above.
        if let Some(figures) = unsafe { figures.as_mut() } {
            *figures = FlinchRetargetFigures::new(&s);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests;
