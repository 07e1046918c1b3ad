//! The root lift: per sample, how far the clip's root must move up (or down) so that its lowest slow sole point
//! rests on the fitted floor. A clip's feet float above and dip into a flat floor by millimetres (its floor is
//! not flat, its markers slide); without the lift, a walk had a sole point within the 3 mm stance height in only
//! 35–45 % of its samples, and in the others the inverse dynamics left the whole weight to the root assist
//! (docs/root.md, "Who carries the weight"). The lift changes no joint angle: only where the root is.

use super::GroundConfig;
use super::feet::Tracks;
use crate::control::filter::Butterworth2;

/// A lowest point farther than this from the floor is not standing on it (a jump's flight, a stumble): its
/// sample's lift is interpolated from the standing samples around it.
const STANDING_BAND_M: f64 = 0.03;

/// Cut-off (Hz) of the zero-phase low-pass that smooths the lift (`control::filter`, as the clip's own channels):
/// the ground reaction's inverse dynamics takes its acceleration as a change of gravity (`GroundReference::build`),
/// and a sharper lift (3 or 5 Hz) tracked worse on the SFU walk (0.80°; docs/root.md).
const SMOOTHING_HZ: f64 = 2.0;

/// The lift (m, along +y) of every sample of `tracks`.
pub(super) fn root_lift(tracks: &Tracks<'_>, floor: f64, config: &GroundConfig) -> Vec<f64> {
    let mut raw: Vec<Option<f64>> = (0..tracks.steps)
        .map(|k| {
            let (i, p) = tracks.lowest(k)?;
            let gap = p.y - floor;
            (tracks.slow(k, i, config) && gap.abs() < STANDING_BAND_M).then_some(-gap)
        })
        .collect();
    fill_gaps(&mut raw);
    let mut lift: Vec<f64> = raw.into_iter().map(|l| l.unwrap_or(0.0)).collect();
    let Some(filter) = Butterworth2::new(SMOOTHING_HZ, 1.0 / tracks.h) else {
        return lift;
    };
    filter.filtfilt(&mut lift, &mut Vec::new());
    if config.lift_over_landings {
        lift_over_landings(tracks, floor, config, &filter, &mut lift);
    }
    lift
}

/// Passes of the landing correction: each adds the smoothed shortfall, so the first ones do most of the work.
const LANDING_PASSES: usize = 6;

/// Raises `lift` where a landing sole point (descending, faster than the stance speed) of the lifted clip would
/// be below the floor. A landing foot dips up to 12 mm into a flat floor for a few samples (the jump) while the
/// stance lift, smoothed, does not see it; the simulated foot cannot follow, and its toe and ankle took 6–8° of
/// error at each landing. Each pass adds the shortfall, smoothed by the lift's own filter (its acceleration
/// enters the inverse dynamics as the rest of the lift's does). Landings only: clearing every moving point
/// (toe-off too) tracked better still but lifted the stance feet off the floor around it, and the floor's share
/// of the weight fell from 0.81–0.85 to 0.71–0.76 (docs/root.md, "Landings").
fn lift_over_landings(
    tracks: &Tracks<'_>,
    floor: f64,
    config: &GroundConfig,
    filter: &Butterworth2,
    lift: &mut [f64],
) {
    let steps = tracks.steps;
    let landing = |k: usize, i: usize| {
        k + 1 < steps && tracks.at(k + 1, i).y < tracks.at(k, i).y && !tracks.slow(k, i, config)
    };
    let bound: Vec<f64> = (0..steps)
        .map(|k| {
            (0..tracks.np)
                .filter(|&i| landing(k, i))
                .map(|i| floor - tracks.at(k, i).y)
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    let (mut short, mut scratch) = (vec![0.0; steps], Vec::new());
    for _ in 0..LANDING_PASSES {
        for k in 0..steps {
            short[k] = (bound[k] - lift[k]).max(0.0);
        }
        filter.filtfilt(&mut short, &mut scratch);
        for k in 0..steps {
            lift[k] += short[k].max(0.0);
        }
    }
}

/// Linear interpolation over the `None` runs between known values; a run at either end holds the nearest one.
fn fill_gaps(values: &mut [Option<f64>]) {
    let known: Vec<usize> = (0..values.len()).filter(|&k| values[k].is_some()).collect();
    let (Some(&first), Some(&last)) = (known.first(), known.last()) else {
        return;
    };
    let (a, b) = (values[first], values[last]);
    for v in &mut values[..first] {
        *v = a;
    }
    for v in &mut values[last + 1..] {
        *v = b;
    }
    for pair in known.windows(2) {
        let (k0, k1) = (pair[0], pair[1]);
        let (y0, y1) = (values[k0].unwrap_or(0.0), values[k1].unwrap_or(0.0));
        for (d, v) in values[k0 + 1..k1].iter_mut().enumerate() {
            let s = (d + 1) as f64 / (k1 - k0) as f64;
            *v = Some(y0 + (y1 - y0) * s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    #[test]
    fn gaps_are_interpolated_and_ends_held() {
        let mut v = vec![None, Some(1.0), None, None, Some(4.0), None];
        fill_gaps(&mut v);
        let got: Vec<f64> = v.into_iter().map(Option::unwrap).collect();
        assert_eq!(got, vec![1.0, 1.0, 2.0, 3.0, 4.0, 4.0]);
    }

    #[test]
    fn a_landing_foot_that_dips_into_the_floor_lifts_the_root_over_it() {
        // Point 0 stands on the floor (a standing foot) while point 1 swings down at 1 m/s forward, 8 mm into the
        // floor at sample 60, and up again.
        let (steps, h) = (120, 1.0 / 120.0);
        let mut tracks = Vec::new();
        for k in 0..steps {
            let t = (k as f64 - 60.0) * h;
            tracks.push(Vector3::new(0.0, 0.0, 0.0));
            tracks.push(Vector3::new(t, -0.008 + 4.0 * t * t, 0.3));
        }
        let mut config = GroundConfig::default();
        let points = Tracks {
            points: &tracks,
            np: 2,
            steps,
            h,
        };
        let with = root_lift(&points, 0.0, &config);
        config.lift_over_landings = false;
        let without = root_lift(&points, 0.0, &config);
        assert!(without[60].abs() < 1e-9, "{}", without[60]);
        // The descending samples before the dip are lifted by more than a third of it (the 2 Hz smoothing spreads the
        // correction over ±0.2 s; docs/root.md, "Landings"); the standing foot far from it barely.
        assert!(with[58] > 0.003, "{}", with[58]);
        assert!(with[5].abs() < 1e-3, "{}", with[5]);
        // The bound binds only descending points: the lift never pulls the root down.
        assert!(with.iter().zip(&without).all(|(a, b)| a >= b));
    }

    #[test]
    fn a_foot_standing_above_the_floor_lifts_the_root_down_onto_it() {
        // One sole point standing still 8 mm above a floor at 0, then lifted 20 cm (a flight), then standing
        // 4 mm below it.
        let steps = 120;
        let tracks: Vec<Vector3<f64>> = (0..steps)
            .map(|k| match k {
                0..40 => Vector3::new(0.0, 0.008, 0.0),
                40..80 => Vector3::new(0.0, 0.2, 0.0),
                _ => Vector3::new(0.0, -0.004, 0.0),
            })
            .collect();
        let points = Tracks {
            points: &tracks,
            np: 1,
            steps,
            h: 1.0 / 120.0,
        };
        let lift = root_lift(&points, 0.0, &GroundConfig::default());
        // Within 0.1 mm of the standing gaps (the low-pass rings a little at the ends of the bridge).
        assert!((lift[5] + 0.008).abs() < 1e-4, "{}", lift[5]);
        assert!((lift[115] - 0.004).abs() < 1e-4, "{}", lift[115]);
        // The flight is bridged between the two stances, not pulled to the floor.
        assert!(
            (lift[60] - (-0.008 + 0.012 * 20.5 / 41.0)).abs() < 1e-3,
            "{}",
            lift[60]
        );
    }
}
