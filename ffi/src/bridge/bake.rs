//! The bake part of the C++ bridge: `flinch::bake_file` and `flinch::bake_onto`, whose errors become
//! `rust::Error` exceptions.

use super::ffi::BakeSummary;
use super::given;
use crate::bake::run_bake;
use crate::retarget::{bake_summary, run_bake_onto};

pub(super) fn bake_file(
    input: &str,
    output: &str,
    hits_json: &str,
    config_json: &str,
    rate_hz: f64,
) -> Result<BakeSummary, String> {
    let s = run_bake(
        "bake_file",
        given(input),
        output,
        given(hits_json),
        given(config_json),
        rate_hz,
    )
    .map_err(|e| e.message)?;
    Ok(summary(&s))
}

pub(super) fn bake_onto(
    character: &str,
    input: &str,
    map_file: &str,
    output: &str,
    hits_json: &str,
    config_json: &str,
    rate_hz: f64,
) -> Result<BakeSummary, String> {
    let s = run_bake_onto(
        "bake_onto",
        character,
        given(input),
        given(map_file),
        output,
        given(hits_json),
        given(config_json),
        rate_hz,
    )
    .map_err(|e| e.message)?;
    Ok(summary(&bake_summary(&s)))
}

/// The bridge's summary of a bake.
fn summary(s: &flinch_core::bake::BakeSummary) -> BakeSummary {
    let ev = &s.baked.evaluation;
    let hit = ev.hit.as_ref();
    BakeSummary {
        frames: s.baked.clip.frames.len(),
        steps: s.baked.steps,
        duration_s: s.duration,
        events: s.baked.events.len(),
        has_hit: hit.is_some(),
        peak_deg: hit.map_or(0.0, |h| h.peak_deg),
        peak_time_s: hit.map_or(-1.0, |h| h.peak_time),
        peak_joint: hit.map_or(String::new(), |h| h.peak_joint.clone()),
        return_s: hit.and_then(|h| h.return_s).unwrap_or(-1.0),
        energy_j: hit.map_or(0.0, |h| h.energy_j),
        track_rms_deg: ev.track_rms_deg,
        max_joint_gap_mm: ev.max_joint_gap_mm,
    }
}
