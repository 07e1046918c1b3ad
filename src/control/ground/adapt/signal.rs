//! Signals over the samples: runs of flags, flicker merged, erosion and blur.

/// Runs of equal flags: `(start, end, flag)`, `end` exclusive.
pub(super) fn runs_of(flags: &[bool]) -> Vec<(usize, usize, bool)> {
    let mut out: Vec<(usize, usize, bool)> = Vec::new();
    for (k, &f) in flags.iter().enumerate() {
        match out.last_mut() {
            Some(run) if run.2 == f => run.1 = k + 1,
            _ => out.push((k, k + 1, f)),
        }
    }
    out
}

/// Flips inner runs shorter than `min` samples to their neighbours' flag (shortest first, so flicker inside a
/// stance or a swing disappears and real stances and swings stay).
pub(super) fn merge_short_runs(flags: &mut [bool], min: usize) {
    loop {
        let runs = runs_of(flags);
        let inner = runs.len().saturating_sub(1);
        let Some(&(a, b, f)) = runs
            .iter()
            .enumerate()
            .filter(|&(n, r)| n > 0 && n < inner && r.1 - r.0 < min)
            .map(|(_, r)| r)
            .min_by_key(|r| r.1 - r.0)
        else {
            return;
        };
        flags[a..b].fill(!f);
    }
}

/// Minimum over ±`w` samples.
pub(super) fn erode(x: &[f64], w: usize) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            x[k.saturating_sub(w)..(k + w + 1).min(x.len())]
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min)
        })
        .collect()
}

/// Mean over ±`w` samples (fewer at the ends). Of an eroded signal it stays at or under the signal.
pub(super) fn box_blur(x: &[f64], w: usize) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            let window = &x[k.saturating_sub(w)..(k + w + 1).min(x.len())];
            window.iter().sum::<f64>() / window.len() as f64
        })
        .collect()
}

/// The root's raise from the lower foot's: eroded over ±`w` samples, then blurred by a triangle over the same
/// ±`w` (two box blurs of half the width), so it never rises above the lower foot and its acceleration has no
/// jumps (one box over ±`w` made the end of a step's descent a jump in the root's deceleration, which the
/// inverse dynamics put on the trailing toe alone: 2.1 kN planned, 4 kN met, the toe sliding 20 mm).
pub(super) fn root_raise(lower: &[f64], w: usize) -> Vec<f64> {
    box_blur(&box_blur(&erode(lower, w), w / 2), w / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_raise_never_exceeds_the_lower_foot() {
        // A step up at sample 50 and down at 120.
        let lower: Vec<f64> = (0..200)
            .map(|k| if (50..120).contains(&k) { 0.15 } else { 0.0 })
            .collect();
        let root = box_blur(&erode(&lower, 10), 10);
        for (r, l) in root.iter().zip(&lower) {
            assert!(*r <= l + 1e-12, "{r} above {l}");
        }
        assert!((root[85] - 0.15).abs() < 1e-12);
        // The triangle's raise: still under the lower foot, and its largest second difference (acceleration)
        // under the single box's.
        let smooth = root_raise(&lower, 10);
        for (r, l) in smooth.iter().zip(&lower) {
            assert!(*r <= l + 1e-12, "{r} above {l}");
        }
        assert!((smooth[85] - 0.15).abs() < 1e-12);
        let peak = |x: &[f64]| {
            x.windows(3)
                .map(|w| (w[0] - 2.0 * w[1] + w[2]).abs())
                .fold(0.0, f64::max)
        };
        assert!(
            peak(&smooth) < 0.6 * peak(&root),
            "{} {}",
            peak(&smooth),
            peak(&root)
        );
    }

    #[test]
    fn flicker_merges_and_real_runs_stay() {
        let mut flags = vec![true; 30];
        flags[10] = false; // flicker inside a stance
        flags[20..30].fill(false); // a real swing
        merge_short_runs(&mut flags, 3);
        assert!(flags[..20].iter().all(|&f| f));
        assert!(flags[20..].iter().all(|&f| !f));
    }
}
