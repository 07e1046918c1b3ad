//! Two timings compared on a shared machine: alternating rounds, the median of the rounds' ratios.
//!
//! A shared VM's speed changes by up to 2× within a second, so two whole runs one after the other can catch two
//! speeds (`scene_parallel_speedup` read 1.23–2.94 that way, above the core count). Each round times both sides,
//! a few milliseconds apart and in turns, and the figure is the median of the rounds' ratios
//! (`docs/performance.md`, "Ratios measured in alternating rounds").

/// Runs `rounds` rounds of `time(0)` and `time(1)` (each returns seconds), in turns: side 0 first in even rounds,
/// side 1 first in odd ones, so that neither always runs right after the other. Returns both sides' total seconds
/// and the median over the rounds of `time(0) / time(1)`.
pub fn alternating<E>(
    rounds: usize,
    mut time: impl FnMut(usize) -> Result<f64, E>,
) -> Result<([f64; 2], f64), E> {
    let (mut total, mut ratios) = ([0.0; 2], Vec::with_capacity(rounds));
    for _ in 0..rounds {
        let seconds = if ratios.len() % 2 == 0 {
            let first = time(0)?;
            [first, time(1)?]
        } else {
            let first = time(1)?;
            [time(0)?, first]
        };
        total[0] += seconds[0];
        total[1] += seconds[1];
        ratios.push(seconds[0] / seconds[1]);
    }
    ratios.sort_by(f64::total_cmp);
    Ok((total, ratios.get(rounds / 2).copied().unwrap_or(f64::NAN)))
}
