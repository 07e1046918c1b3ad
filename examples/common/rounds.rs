//! Two timings compared on a shared machine: alternating rounds, the median of the rounds' ratios.
//!
//! A shared VM's speed changes by up to 2× within a second, so two whole runs one after the other can catch two
//! speeds (`scene_parallel_speedup` read 1.23–2.94 that way, above the core count). Each round times side 0 and
//! then side 1, a few milliseconds apart, and the figure is the median of the rounds' ratios
//! (`docs/performance.md`, "Ratios measured in alternating rounds").

/// Runs `rounds` rounds of `time(0)` then `time(1)` (each returns seconds); returns both sides' total seconds and
/// the median over the rounds of `time(0) / time(1)`.
pub fn alternating<E>(
    rounds: usize,
    mut time: impl FnMut(usize) -> Result<f64, E>,
) -> Result<([f64; 2], f64), E> {
    let (mut total, mut ratios) = ([0.0; 2], Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let seconds = [time(0)?, time(1)?];
        total[0] += seconds[0];
        total[1] += seconds[1];
        ratios.push(seconds[0] / seconds[1]);
    }
    ratios.sort_by(f64::total_cmp);
    Ok((total, ratios.get(rounds / 2).copied().unwrap_or(f64::NAN)))
}
