//! Stance detection on a clip: an effector (an ankle, a hand) is in stance while it is near the floor and slow;
//! short runs and short gaps are cleaned up. The retarget plants the stances it finds on the source; a bake's
//! read-back measures the feet of the written file over the stances of the clip it started from.

use nalgebra::Vector3;

/// Thresholds of the stance detector, relative to the source's leg length so that they hold at any scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StanceThresholds {
    /// Height above the effector's planted height, in leg lengths (default 0.06: 5 cm on a CMU subject).
    pub height: f64,
    /// Horizontal speed, in leg lengths per second (default 0.6: 0.5 m/s).
    pub speed: f64,
    /// Shortest stance and shortest gap between two stances kept (s, default 0.05).
    pub min_duration_s: f64,
}

impl Default for StanceThresholds {
    fn default() -> Self {
        StanceThresholds {
            height: 0.06,
            speed: 0.6,
            min_duration_s: 0.05,
        }
    }
}

/// The `q`-quantile (0 … 1) of `values` (NaNs ignored; 0 for an empty set).
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let i = ((v.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
    v[i]
}

/// Stance flags of one effector track (world positions per frame, `dt` apart): height within
/// `height` of `planted_y` and horizontal speed under `speed` (both in metres, metres per second).
pub fn detect(
    track: &[Vector3<f64>],
    dt: f64,
    planted_y: f64,
    height: f64,
    speed: f64,
    min_duration_s: f64,
) -> Vec<bool> {
    let n = track.len();
    let mut stance: Vec<bool> = (0..n)
        .map(|f| {
            // Central difference over ±2 frames: mocap jitter at 120 Hz would otherwise dominate.
            let a = f.saturating_sub(2);
            let b = (f + 2).min(n - 1);
            let v = if b > a {
                let d = track[b] - track[a];
                Vector3::new(d.x, 0.0, d.z).norm() / ((b - a) as f64 * dt)
            } else {
                0.0
            };
            track[f].y - planted_y <= height && v <= speed
        })
        .collect();
    let min_frames = ((min_duration_s / dt).round() as usize).max(2);
    // Fill short gaps first (a flicker inside a stance), then drop short stances.
    for (value, keep) in [(false, true), (true, false)] {
        for (a, b) in runs(&stance, value) {
            let interior = a > 0 && b + 1 < n;
            if b + 1 - a < min_frames && (interior || !keep) {
                stance[a..=b].iter_mut().for_each(|s| *s = keep);
            }
        }
    }
    stance
}

/// Runs `(first, last)` of frames whose flag equals `value`.
pub fn runs(flags: &[bool], value: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &f) in flags.iter().enumerate() {
        match (f == value, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i - 1));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, flags.len() - 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_low_stretch_is_a_stance_and_flicker_is_filled() {
        let dt = 0.01;
        // Foot at rest on the floor for 30 frames, one noisy frame high, then swinging fast.
        let mut track: Vec<Vector3<f64>> = (0..30).map(|_| Vector3::new(0.0, 0.1, 0.0)).collect();
        track[15].y = 0.3;
        track.extend((0..30).map(|i| Vector3::new(0.02 * i as f64, 0.3, 0.0)));
        let s = detect(&track, dt, 0.1, 0.05, 0.5, 0.05);
        assert!(s[..30].iter().all(|&x| x), "{s:?}");
        assert!(s[32..].iter().all(|&x| !x));
        assert_eq!(runs(&s, true), vec![(0, 29)]);
    }
}
