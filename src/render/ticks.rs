//! "Nice" axis ticks: steps of 1, 2 or 5 times a power of ten, and labels with just enough decimals.

/// Ticks covering `[lo, hi]` with about `target` intervals: multiples of a 1-2-5 step inside the interval
/// (to within a rounding tolerance). Returns the step and the tick values; empty for a degenerate or non-finite
/// interval.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> (f64, Vec<f64>) {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return (0.0, Vec::new());
    }
    let step = nice_step((hi - lo) / target.max(1) as f64);
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    // Computing each tick as k·step (not by accumulation) keeps 0.1 + 0.2 style drift out of the labels.
    let ticks = (first..=last).map(|k| k as f64 * step).collect();
    (step, ticks)
}

/// The smallest of 1, 2, 5 (times a power of ten) not below `raw`.
pub(crate) fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let m = if f <= 1.0 + 1e-9 {
        1.0
    } else if f <= 2.0 + 1e-9 {
        2.0
    } else if f <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Rounds `[lo, hi]` outwards to multiples of the nice step for about `target` intervals.
pub(crate) fn nice_bounds(lo: f64, hi: f64, target: usize) -> (f64, f64) {
    let step = nice_step((hi - lo) / target.max(1) as f64);
    (
        (lo / step + 1e-9).floor() * step,
        (hi / step - 1e-9).ceil() * step,
    )
}

/// `v` printed with the decimals the tick `step` needs (0.25 → 2, 0.5 → 1, 20 → 0), never as "-0".
pub(crate) fn label(v: f64, step: f64) -> String {
    let decimals = if step > 0.0 {
        (-(step.log10() + 1e-9).floor()).max(0.0) as usize
    } else {
        0
    };
    // Steps are 1, 2 or 5 × 10^k: one more decimal is needed only for 2.5-style steps, which we never make.
    let s = format!("{v:.decimals$}");
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_one_two_five() {
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(1.3), 2.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(7.0), 10.0);
        assert!((nice_step(0.031) - 0.05).abs() < 1e-15);
        let (step, t) = nice_ticks(0.0, 1.0, 5);
        assert!((step - 0.2).abs() < 1e-15);
        assert_eq!(t.len(), 6);
        assert_eq!(nice_ticks(-3.0, 17.0, 4).1, vec![0.0, 5.0, 10.0, 15.0]);
        assert!(nice_ticks(1.0, 1.0, 5).1.is_empty());
        assert!(nice_ticks(f64::NAN, 1.0, 5).1.is_empty());
    }

    #[test]
    fn labels_have_just_enough_decimals() {
        assert_eq!(label(0.30000000000000004, 0.1), "0.3");
        assert_eq!(label(20.0, 5.0), "20");
        assert_eq!(label(-0.0, 0.5), "0.0");
        assert_eq!(label(1.25, 0.05), "1.25");
        assert_eq!(nice_bounds(0.13, 9.2, 5), (0.0, 10.0));
    }
}
