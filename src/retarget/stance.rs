//! Planting on the target: each stance the source shows (detected by [`crate::skeleton::stance`]) holds its
//! effector at the stance's mean position, above the floor.

use nalgebra::Vector3;

pub use crate::skeleton::stance::{StanceThresholds, detect, quantile, runs};

/// Goal positions of an effector: during each stance run, the run's mean position (so the effector is planted),
/// at height `min_y` when `on_floor` (a foot: its ankle at its rest height above the floor, whatever height the
/// source's ankle had in that stance) or raised to `min_y` (a hand); the correction fades out over `blend` frames
/// on each side of a run; every frame is kept at or above `min_y`.
///
/// Feet are put on the floor rather than at their mean height because a mocap floor is not the target's: the
/// CMU walk's planted ankles differ by 3 cm from stance to stance, which a 3 m robot made into 6 cm of floating
/// (measured on the file read back: planted feet 0 / 32 / 58 mm above the floor over three stances).
pub fn plant_goals(
    track: &[Vector3<f64>],
    stance: &[bool],
    min_y: f64,
    on_floor: bool,
    blend: usize,
) -> Vec<Vector3<f64>> {
    let n = track.len();
    let mut offset: Vec<Option<Vector3<f64>>> = vec![None; n];
    let runs = runs(stance, true);
    for &(a, b) in &runs {
        let mean = track[a..=b].iter().sum::<Vector3<f64>>() / (b + 1 - a) as f64;
        let y = if on_floor { min_y } else { mean.y.max(min_y) };
        let goal = Vector3::new(mean.x, y, mean.z);
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
    fn goals_hold_the_mean_and_respect_the_floor() {
        let track: Vec<Vector3<f64>> = (0..10)
            .map(|i| Vector3::new(0.01 * i as f64, -0.02, 0.0))
            .collect();
        let stance = vec![true; 10];
        let g = plant_goals(&track, &stance, 0.0, false, 3);
        for p in &g {
            assert!((p.x - 0.045).abs() < 1e-12 && p.y == 0.0);
        }
        assert_eq!(quantile(&[3.0, 1.0, 2.0], 0.0), 1.0);
        // A foot goes on the floor: down from above, up from below.
        let high: Vec<Vector3<f64>> = track.iter().map(|p| p + Vector3::y() * 0.05).collect();
        for t in [&track, &high] {
            for p in &plant_goals(t, &stance, 0.0, true, 3) {
                assert!((p.x - 0.045).abs() < 1e-12 && p.y == 0.0, "{p:?}");
            }
        }
    }
}
