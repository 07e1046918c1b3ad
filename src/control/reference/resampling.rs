//! The clip at the simulation rate: Catmull–Rom interpolation of the filtered channels between clip frames, and
//! the finite-difference velocities and accelerations of the resampled root positions and rotations (the
//! differences the discrete inverse dynamics needs; see the parent module's documentation).

use std::ops::Range;

use nalgebra::{UnitQuaternion, Vector3};

use super::super::parallel::{Table, pieces, ranges, run, thread_count};
use crate::math::rotation::log_rotation;

/// Catmull–Rom interpolation of every channel of the frame-major `series` (rows of `channels`) at fractional
/// frame `u` into `out` (one group of channels of the clip).
pub(super) fn catmull_rom(series: &[f64], channels: usize, u: f64, out: &mut [f64]) {
    let frames = series.len() / channels;
    let i = (u.floor() as usize).min(frames - 1);
    let s = u - i as f64;
    let at = |j: isize| j.clamp(0, frames as isize - 1) as usize;
    let row = |j: usize| &series[j * channels..(j + 1) * channels];
    let (x0, x1, x2, x3) = (
        row(at(i as isize - 1)),
        row(i),
        row(at(i as isize + 1)),
        row(at(i as isize + 2)),
    );
    let (s2, s3) = (s * s, s * s * s);
    let w0 = -0.5 * s3 + s2 - 0.5 * s;
    let w1 = 1.5 * s3 - 2.5 * s2 + 1.0;
    let w2 = -1.5 * s3 + 2.0 * s2 + 0.5 * s;
    let w3 = 0.5 * s3 - 0.5 * s2;
    for (c, o) in out.iter_mut().enumerate() {
        *o = w0 * x0[c] + w1 * x1[c] + w2 * x2[c] + w3 * x3[c];
    }
}

/// Finite-difference velocities and accelerations of the sampled root positions and rotations (see the module
/// docs); the first velocity is extrapolated linearly, the last acceleration repeats the one before. The rotation
/// logarithms are split over up to `threads` threads (each sample is independent).
#[allow(clippy::type_complexity)]
pub(super) fn differentiate(
    root_pos: &[Vector3<f64>],
    rot: &[UnitQuaternion<f64>],
    nb: usize,
    h: f64,
    threads: Option<usize>,
) -> (
    Vec<Vector3<f64>>,
    Vec<Vector3<f64>>,
    Vec<Vector3<f64>>,
    Vec<Vector3<f64>>,
) {
    let n = root_pos.len();
    let threads = thread_count(n, threads);
    let parts = ranges(n, pieces(threads));
    let mut root_vel = vec![Vector3::zeros(); n];
    for k in 1..n {
        root_vel[k] = (root_pos[k] - root_pos[k - 1]) / h;
    }
    // Sample 0 has no difference: it is extrapolated below.
    let mut vel = per_sample(threads, &parts, nb, |k, b| {
        if k == 0 {
            Vector3::zeros()
        } else {
            let (a, c) = (rot[(k - 1) * nb + b], rot[k * nb + b]);
            log_rotation(&(a.inverse() * c)) / h
        }
    });
    if n >= 3 {
        root_vel[0] = 2.0 * root_vel[1] - root_vel[2];
        for b in 0..nb {
            vel[b] = 2.0 * vel[nb + b] - vel[2 * nb + b];
        }
    } else if n == 2 {
        root_vel[0] = root_vel[1];
        vel.copy_within(nb..2 * nb, 0);
    }
    let mut root_acc = vec![Vector3::zeros(); n];
    for k in 0..n.saturating_sub(1) {
        root_acc[k] = (root_vel[k + 1] - root_vel[k]) / h;
    }
    // The last sample has no difference: it repeats the one before, below.
    let mut acc = per_sample(threads, &parts, nb, |k, b| {
        if k + 1 < n {
            (vel[(k + 1) * nb + b] - vel[k * nb + b]) / h
        } else {
            Vector3::zeros()
        }
    });
    if n >= 2 {
        root_acc[n - 1] = root_acc[n - 2];
        acc.copy_within((n - 2) * nb..(n - 1) * nb, (n - 1) * nb);
    }
    (root_vel, root_acc, vel, acc)
}

/// A table of `nb` values per sample over the samples `parts` (consecutive, from 0), `value(k, b)` for sample `k`
/// and body `b`, computed on up to `threads` threads and written once.
fn per_sample(
    threads: usize,
    parts: &[Range<usize>],
    nb: usize,
    value: impl Fn(usize, usize) -> Vector3<f64> + Sync,
) -> Vec<Vector3<f64>> {
    let mut table = Table::new(parts.iter().map(|r| r.len() * nb).sum());
    let rows = table.pieces(parts, nb);
    run(
        threads,
        parts.iter().cloned().zip(rows).collect(),
        |(r, mut out)| {
            for k in r {
                for b in 0..nb {
                    out.push(value(k, b));
                }
            }
        },
    );
    table.finish()
}
