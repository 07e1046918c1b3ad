//! The clip at the simulation rate: Catmull–Rom interpolation of the filtered channels between clip frames, and
//! the finite-difference velocities and accelerations of the resampled root positions (see the parent module's
//! documentation).

use nalgebra::Vector3;

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

/// Finite-difference velocities and accelerations of the sampled root positions (see the module docs): the first
/// velocity is extrapolated linearly, the last acceleration repeats the one before. The joints' are computed
/// where read, by the same differences ([`super::ReferenceMotion::velocity`]).
pub(super) fn differentiate(
    root_pos: &[Vector3<f64>],
    h: f64,
) -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    let n = root_pos.len();
    let mut root_vel = vec![Vector3::zeros(); n];
    for k in 1..n {
        root_vel[k] = (root_pos[k] - root_pos[k - 1]) / h;
    }
    if n >= 3 {
        root_vel[0] = 2.0 * root_vel[1] - root_vel[2];
    } else if n == 2 {
        root_vel[0] = root_vel[1];
    }
    let mut root_acc = vec![Vector3::zeros(); n];
    for k in 0..n.saturating_sub(1) {
        root_acc[k] = (root_vel[k + 1] - root_vel[k]) / h;
    }
    if n >= 2 {
        root_acc[n - 1] = root_acc[n - 2];
    }
    (root_vel, root_acc)
}
