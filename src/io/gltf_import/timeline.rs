//! The resampling grid: which instants of an animation become clip frames.

use super::GltfImportError;
use super::sampler::Track;

/// Default resampling rate (frames per second) when the keys are not on one uniform grid.
pub const DEFAULT_SAMPLE_RATE: f64 = 30.0;

/// Most frames an imported clip may have (a corrupt key time must not allocate without bound).
pub const MAX_FRAMES: usize = crate::io::Limits::DEFAULT.max_frames;

/// Sample instants and the clip frame time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Timeline {
    /// Times (seconds, in the animation's own time base) at which frames are sampled.
    pub times: Vec<f64>,
    /// Seconds between frames.
    pub frame_time: f64,
    /// True when the frames are the animation's own key times (uniform keys, no rate given).
    pub on_keys: bool,
}

/// Key times of all tracks, merged, sorted and deduplicated (times closer than 1 µs are one key).
fn merged_keys(tracks: &[&Track]) -> Vec<f64> {
    let mut all: Vec<f64> = tracks
        .iter()
        .flat_map(|t| t.times.iter().copied())
        .collect();
    all.sort_by(f64::total_cmp);
    all.dedup_by(|b, a| (*b - *a).abs() < 1e-6);
    all
}

/// The grid for `tracks`.
///
/// - `rate = Some(r)`: frames at `start + k / r` for `k = 0 ..= round((end − start)·r)`.
/// - `rate = None`: when the merged key times are uniformly spaced (every gap within 0.1 % of the mean),
///   the frames are the key times themselves and the frame time is the mean gap; otherwise 30 fps as above.
/// - No tracks: one frame (the rest pose) at 1 / rate (30 fps by default).
pub(crate) fn timeline(
    tracks: &[&Track],
    rate: Option<f64>,
    label: &str,
    max_frames: usize,
) -> Result<Timeline, GltfImportError> {
    if let Some(r) = rate {
        if !(r.is_finite() && r > 0.0) {
            return Err(GltfImportError::Option {
                option: "sample_rate",
                what: format!("{r} fps, expected a positive number"),
            });
        }
    }
    let keys = merged_keys(tracks);
    let (Some(&start), Some(&end)) = (keys.first(), keys.last()) else {
        let r = rate.unwrap_or(DEFAULT_SAMPLE_RATE);
        return Ok(Timeline {
            times: vec![0.0],
            frame_time: 1.0 / r,
            on_keys: false,
        });
    };
    let span = end - start;
    if rate.is_none() && keys.len() >= 2 {
        let mean = span / (keys.len() - 1) as f64;
        let uniform = keys.windows(2).all(|w| match w {
            [a, b] => ((b - a) - mean).abs() <= 1e-3 * mean,
            _ => true,
        });
        if uniform && mean > 0.0 {
            if keys.len() > max_frames {
                return Err(too_long(label, span, 1.0 / mean, max_frames));
            }
            return Ok(Timeline {
                times: keys,
                frame_time: mean,
                on_keys: true,
            });
        }
    }
    let r = rate.unwrap_or(DEFAULT_SAMPLE_RATE);
    let frames = (span * r).round();
    if !(frames.is_finite() && frames < max_frames as f64) {
        return Err(too_long(label, span, r, max_frames));
    }
    let n = frames as usize + 1;
    Ok(Timeline {
        times: (0..n).map(|k| start + k as f64 / r).collect(),
        frame_time: 1.0 / r,
        on_keys: false,
    })
}

fn too_long(label: &str, span: f64, rate: f64, max_frames: usize) -> GltfImportError {
    GltfImportError::Animation {
        animation: label.to_string(),
        channel: 0,
        what: crate::io::Limits::exceeded(
            format!("keys span {span} s: at {rate} fps that"),
            "max_frames",
            max_frames,
        ),
    }
}

#[cfg(test)]
mod tests;
