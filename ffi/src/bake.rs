//! Baking a clip file with scripted hits into an animation file (`flinch_bake_file`), shared with the C++
//! bridge's `bake_file`: the same `flinch::bake::bake_file` as the `flinch bake` command.

use std::ffi::c_char;
use std::path::Path;

use flinch_core::bake::{BakeError, BakeMode, BakeSummary, HitScript, OutputFormat, bake_file};
use flinch_core::control::{CharacterConfig, CharacterError};
use flinch_core::io::ImportOptions;
use flinch_core::model::ConfigError;
use flinch_core::scene::SceneError;

use crate::args;
use crate::error::{FfiError, FlinchStatus, guard};

/// Simulation rate of a bake when the caller passes `rate_hz <= 0` (Hz).
pub const FLINCH_BAKE_DEFAULT_RATE_HZ: f64 = 120.0;

/// Capacity of `FlinchBakeSummary.peak_joint` in bytes, the terminating NUL included.
pub const FLINCH_JOINT_NAME_CAPACITY: usize = 64;

/// What `flinch_bake_file` did: the baked clip, the simulation and the hit figures (as `flinch bake` prints them).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlinchBakeSummary {
    /// Frames of the baked clip (the imported input clip's frames).
    pub frames: usize,
    /// Simulation steps run.
    pub steps: usize,
    /// Seconds of motion simulated.
    pub duration_s: f64,
    /// Hit events: ball contacts and scripted impulses.
    pub events: usize,
    /// 1 when the bake had hits (the `peak_*`, `return_s` and `energy_j` fields are meaningful), else 0.
    pub has_hit: i32,
    /// Largest joint deviation from the reference after the first hit (degrees); 0 without hits.
    pub peak_deg: f64,
    /// When the peak happened (s); negative without hits.
    pub peak_time_s: f64,
    /// Skeleton joint of the peak, NUL-terminated UTF-8 (truncated to fit); empty without hits.
    pub peak_joint: [c_char; FLINCH_JOINT_NAME_CAPACITY],
    /// Time from the first hit until every joint stays within 2° of the reference (s); negative without hits or
    /// when it never does before the clip ends.
    pub return_s: f64,
    /// Work done by the hit forces (J); 0 without hits.
    pub energy_j: f64,
    /// RMS joint-angle tracking error before the first hit (degrees).
    pub track_rms_deg: f64,
    /// Largest joint anchor separation over the run (mm).
    pub max_joint_gap_mm: f64,
}

impl FlinchBakeSummary {
    /// The C summary of a Rust one.
    pub fn new(s: &BakeSummary) -> FlinchBakeSummary {
        let ev = &s.baked.evaluation;
        let mut peak_joint = [0 as c_char; FLINCH_JOINT_NAME_CAPACITY];
        if let Some(h) = &ev.hit {
            let mut end = h.peak_joint.len().min(FLINCH_JOINT_NAME_CAPACITY - 1);
            while !h.peak_joint.is_char_boundary(end) {
                end -= 1;
            }
            for (d, b) in peak_joint.iter_mut().zip(&h.peak_joint.as_bytes()[..end]) {
                *d = *b as c_char;
            }
        }
        FlinchBakeSummary {
            frames: s.baked.clip.frames.len(),
            steps: s.baked.steps,
            duration_s: s.duration,
            events: s.baked.events.len(),
            has_hit: i32::from(ev.hit.is_some()),
            peak_deg: ev.hit.as_ref().map_or(0.0, |h| h.peak_deg),
            peak_time_s: ev.hit.as_ref().map_or(-1.0, |h| h.peak_time),
            peak_joint,
            return_s: ev.hit.as_ref().and_then(|h| h.return_s).unwrap_or(-1.0),
            energy_j: ev.hit.as_ref().map_or(0.0, |h| h.energy_j),
            track_rms_deg: ev.track_rms_deg,
            max_joint_gap_mm: ev.max_joint_gap_mm,
        }
    }
}

/// The status of a failed bake.
pub fn status(e: &BakeError) -> FlinchStatus {
    match e.cause() {
        BakeError::Read(_) | BakeError::Write(_) => FlinchStatus::Io,
        BakeError::Input(_) => FlinchStatus::Parse,
        BakeError::Script(_)
        | BakeError::Scene(SceneError::Argument(_))
        | BakeError::Scene(SceneError::Character(CharacterError::Argument(_))) => {
            FlinchStatus::InvalidArgument
        }
        BakeError::Scene(SceneError::Character(CharacterError::UnknownBone(_))) => {
            FlinchStatus::UnknownBone
        }
        _ => FlinchStatus::Simulation,
    }
}

/// A JSON argument's error, without the `<json>` placeholder the parser puts for a file name.
fn json_error(function: &str, what: &str, e: ConfigError) -> FfiError {
    let message = match e {
        ConfigError::Parse { message, .. } => message,
        e => e.to_string(),
    };
    FfiError::new(
        FlinchStatus::Config,
        format!("{function}: {what}: {message}"),
    )
}

/// What a bake call needs besides its files: the hits, the character configuration at `rate_hz` (≤ 0: 120 Hz)
/// and the import options, all checked (`output`'s extension too) before any work.
pub fn prepare(
    function: &str,
    output: &str,
    hits_json: Option<&str>,
    config_json: Option<&str>,
    rate_hz: f64,
) -> Result<(HitScript, CharacterConfig, ImportOptions), FfiError> {
    let rate = match rate_hz {
        r if r.is_nan() || r.is_infinite() => {
            return Err(FfiError::argument(
                function,
                format!("`rate_hz` must be finite, got {r}"),
            ));
        }
        r if r <= 0.0 => FLINCH_BAKE_DEFAULT_RATE_HZ,
        r => r,
    };
    if OutputFormat::from_path(Path::new(output)).is_none() {
        return Err(FfiError::argument(
            function,
            format!("{output}: unknown output format (use .bvh, .gltf or .glb)"),
        ));
    }
    let script = match hits_json {
        Some(text) => {
            HitScript::from_json(text).map_err(|e| json_error(function, "hits_json", e))?
        }
        None => HitScript::default(),
    };
    let mut config = match config_json {
        Some(text) => {
            CharacterConfig::from_json(text).map_err(|e| json_error(function, "config_json", e))?
        }
        None => CharacterConfig::default(),
    };
    config.preprocess.rate_hz = rate;
    let import = ImportOptions {
        sample_rate: Some(rate),
        ..ImportOptions::default()
    };
    Ok((script, config, import))
}

/// Bakes `input` (the embedded walk when `None`) into `output` with the hits of `hits_json` (none when `None`),
/// the character configuration `config_json` (defaults when `None`) at `rate_hz` (≤ 0: 120 Hz): what the
/// `flinch bake` command does with the same files and `--rate`.
pub fn run_bake(
    function: &str,
    input: Option<&str>,
    output: &str,
    hits_json: Option<&str>,
    config_json: Option<&str>,
    rate_hz: f64,
) -> Result<BakeSummary, FfiError> {
    let (script, config, import) = prepare(function, output, hits_json, config_json, rate_hz)?;
    bake_file(
        input.map(Path::new),
        Path::new(output),
        &script,
        &config,
        &import,
        BakeMode::Layered,
        |_| {},
    )
    .map_err(|e| FfiError::new(status(&e), format!("{function}: {e}")))
}

/// Bakes a clip file with scripted hits into an animation file, like the `flinch bake` command: imports `input`
/// (`.bvh`, `.gltf`, `.glb`; NULL: the embedded CMU walk), builds its character, simulates the whole clip with the
/// hits of `hits_json` (the text of a hits file, see samples/hits.json; NULL: no hits) and writes the reacted
/// motion (the input clip with the simulated deviation layered on) to `output` (format by extension: `.bvh` keeps
/// a BVH input's layout, unit and up axis; `.gltf`/`.glb` keep a glTF input's meshes and skins).
///
/// `config_json` (NULL: defaults) is a character configuration as for `flinch_character_create`; `rate_hz` is
/// the simulation rate (≤ 0: 120 Hz; it overrides the configuration's `preprocess.rate_hz`). Takes about as long
/// as the clip's physics (seconds for a long clip). On success writes the summary to `*out` unless `out` is NULL.
///
/// Errors: `IO` (input unreadable, output folder missing or not writable), `PARSE` (input not understood),
/// `CONFIG` (bad `hits_json` or `config_json`: the message gives `hits[i]` or the line), `UNKNOWN_BONE` (a hit
/// names no skeleton joint), `INVALID_ARGUMENT` (bad UTF-8, unknown output extension, impossible hit), `SIMULATION`.
/// The output is written atomically (a temporary file renamed): on failure `output` is neither created nor changed
/// and `*out` is not written.
///
/// # Safety
/// `input`, `hits_json`, `config_json` are NULL or NUL-terminated strings; `output` is NULL (reported) or a
/// NUL-terminated string; `out` is NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flinch_bake_file(
    input: *const c_char,
    output: *const c_char,
    hits_json: *const c_char,
    config_json: *const c_char,
    rate_hz: f64,
    out: *mut FlinchBakeSummary,
) -> FlinchStatus {
    const F: &str = "flinch_bake_file";
    guard(F, || {
        // SAFETY: forwarded contract (each is NULL or NUL-terminated).
        let (input, output, hits, config) = unsafe {
            (
                args::optional_string(F, "input", input)?,
                args::string(F, "output", output)?,
                args::optional_string(F, "hits_json", hits_json)?,
                args::optional_string(F, "config_json", config_json)?,
            )
        };
        let summary = run_bake(F, input, output, hits, config, rate_hz)?;
        // SAFETY: `out` is NULL or valid for one write per the caller's contract.
        if let Some(out) = unsafe { out.as_mut() } {
            *out = FlinchBakeSummary::new(&summary);
        }
        Ok(())
    })
}
