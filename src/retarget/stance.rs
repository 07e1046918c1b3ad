//! Stance detection on the source clip: an effector (ankle, or a hand the map file marks) is in stance while it
//! is near the floor and slow; short runs and short gaps are cleaned up.

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

/// Goal positions of an effector: during each stance run, the run's mean position (so the effector is planted),
/// raised to `min_y`; the correction fades out over `blend` frames on each side of a run; every frame is kept at
/// or above `min_y`.
pub fn plant_goals(
    track: &[Vector3<f64>],
    stance: &[bool],
    min_y: f64,
    blend: usize,
) -> Vec<Vector3<f64>> {
    let n = track.len();
    let mut offset: Vec<Option<Vector3<f64>>> = vec![None; n];
    let runs = runs(stance, true);
    for &(a, b) in &runs {
        let mean = track[a..=b].iter().sum::<Vector3<f64>>() / (b + 1 - a) as f64;
        let goal = Vector3::new(mean.x, mean.y.max(min_y), mean.z);
        for f in a..=b {
            offset[f] = Some(goal - track[f]);
        }
    }
    let blend = blend.max(1);
    let mut out = Vec::with_capacity(n);
    for f in 0..n {
        let c = offset[f].unwrap_or_else(|| {
            // The nearest run within `blend` frames, weighted down linearly with the distance.
            let mut best: Option<(usize, Vector3<f64>)> = None;
            for &(a, b) in &runs {
                let (dist, edge) = if f < a { (a - f, a) } else { (f - b, b) };
                if dist <= blend && best.is_none_or(|(d, _)| dist < d) {
                    best = Some((dist, offset[edge].unwrap_or_else(Vector3::zeros)));
                }
            }
            best.map_or(Vector3::zeros(), |(d, c)| {
                c * (1.0 - d as f64 / (blend + 1) as f64)
            })
        });
        let p = track[f] + c;
        out.push(Vector3::new(p.x, p.y.max(min_y), p.z));
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

    #[test]
    fn goals_hold_the_mean_and_respect_the_floor() {
        let track: Vec<Vector3<f64>> = (0..10)
            .map(|i| Vector3::new(0.01 * i as f64, -0.02, 0.0))
            .collect();
        let stance = vec![true; 10];
        let g = plant_goals(&track, &stance, 0.0, 3);
        for p in &g {
            assert!((p.x - 0.045).abs() < 1e-12 && p.y == 0.0);
        }
        assert_eq!(quantile(&[3.0, 1.0, 2.0], 0.0), 1.0);
    }
}
