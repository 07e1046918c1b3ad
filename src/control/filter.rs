//! Zero-phase low-pass filtering of sampled signals (a 2nd-order Butterworth run forwards and backwards, the
//! biomechanics standard for marker data; Winter, *Biomechanics and Motor Control of Human Movement*, §3.4).

use std::f64::consts::{PI, SQRT_2};

/// A 2nd-order Butterworth low-pass section (bilinear transform with pre-warping).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Butterworth2 {
    b: [f64; 3],
    a: [f64; 2],
    /// Reflected samples at each end: six cut-off periods, so the start-up transient decays below 1e-10.
    pad: usize,
}

impl Butterworth2 {
    /// A low-pass at `cutoff_hz` for signals sampled at `rate_hz`; `None` when the cutoff is not below the
    /// Nyquist frequency (nothing to remove).
    pub fn new(cutoff_hz: f64, rate_hz: f64) -> Option<Butterworth2> {
        if !(cutoff_hz > 0.0 && cutoff_hz < 0.5 * rate_hz) {
            return None;
        }
        let k = (PI * cutoff_hz / rate_hz).tan();
        let norm = 1.0 / (1.0 + SQRT_2 * k + k * k);
        let b0 = k * k * norm;
        Some(Butterworth2 {
            b: [b0, 2.0 * b0, b0],
            a: [
                2.0 * (k * k - 1.0) * norm,
                (1.0 - SQRT_2 * k + k * k) * norm,
            ],
            pad: (6.0 * rate_hz / cutoff_hz).ceil() as usize,
        })
    }

    /// Runs the section over `x` in place, starting from the steady state of `x[0]` (unit DC gain).
    fn run(&self, x: &mut [f64]) {
        let Some(&x0) = x.first() else { return };
        let (mut x1, mut x2, mut y1, mut y2) = (x0, x0, x0, x0);
        for v in x.iter_mut() {
            let y =
                self.b[0] * *v + self.b[1] * x1 + self.b[2] * x2 - self.a[0] * y1 - self.a[1] * y2;
            x2 = x1;
            x1 = *v;
            y2 = y1;
            y1 = y;
            *v = y;
        }
    }

    /// Zero-phase filtering of `signal` in place: odd reflection at both ends (so the ends keep their value and
    /// slope), forward pass, backward pass. `scratch` is reused between calls.
    pub fn filtfilt(&self, signal: &mut [f64], scratch: &mut Vec<f64>) {
        let n = signal.len();
        if n < 3 {
            return;
        }
        let pad = (n - 1).min(self.pad);
        scratch.clear();
        let (first, last) = (signal[0], signal[n - 1]);
        scratch.extend((1..=pad).rev().map(|i| 2.0 * first - signal[i]));
        scratch.extend_from_slice(signal);
        scratch.extend((1..=pad).map(|i| 2.0 * last - signal[n - 1 - i]));
        self.run(scratch);
        scratch.reverse();
        self.run(scratch);
        scratch.reverse();
        signal.copy_from_slice(&scratch[pad..pad + n]);
    }

    /// Zero-phase filtering in place of `channels` interleaved signals (`data[f·channels + c]` is sample `f` of
    /// channel `c`): per channel exactly the operations of [`Butterworth2::filtfilt`], in the same order (so the
    /// same bits), but in one sweep over the samples for all channels, which reads memory contiguously and
    /// vectorizes. The reflected ends are generated on the fly; only the trailing one is kept (in `scratch`),
    /// since the backward pass reads it; the backward pass's output over the leading one is never used.
    pub fn filtfilt_interleaved(&self, data: &mut [f64], channels: usize, scratch: &mut Vec<f64>) {
        if channels == 0 {
            return;
        }
        let n = data.len() / channels;
        if n < 3 {
            return;
        }
        let pad = (n - 1).min(self.pad);
        let ch = channels;
        // scratch: the trailing reflection (pad rows), then the section states x1, x2, y1, y2 of every channel.
        scratch.clear();
        scratch.resize((pad + 4) * ch, 0.0);
        let (post, state) = scratch.split_at_mut(pad * ch);
        let (x1, rest) = state.split_at_mut(ch);
        let (x2, rest) = rest.split_at_mut(ch);
        let (y1, y2) = rest.split_at_mut(ch);
        let [b0, b1, b2] = self.b;
        let [a0, a1] = self.a;
        let step =
            |v: &mut [f64], x1: &mut [f64], x2: &mut [f64], y1: &mut [f64], y2: &mut [f64]| {
                // Zipped rather than indexed: no bounds checks, so the channels vectorize.
                let states = x1.iter_mut().zip(x2.iter_mut()).zip(y1.iter_mut().zip(y2));
                for (v, ((x1, x2), (y1, y2))) in v.iter_mut().zip(states) {
                    let y = b0 * *v + b1 * *x1 + b2 * *x2 - a0 * *y1 - a1 * *y2;
                    *x2 = *x1;
                    *x1 = *v;
                    *y2 = *y1;
                    *y1 = y;
                    *v = y;
                }
            };
        let set_state =
            |init: &[f64], x1: &mut [f64], x2: &mut [f64], y1: &mut [f64], y2: &mut [f64]| {
                for s in [x1, x2, y1, y2] {
                    s.copy_from_slice(init);
                }
            };
        // The trailing reflection, from the signal before the forward pass overwrites it.
        for i in 1..=pad {
            for c in 0..ch {
                post[(i - 1) * ch + c] = 2.0 * data[(n - 1) * ch + c] - data[(n - 1 - i) * ch + c];
            }
        }
        // Forward: the leading reflection (outputs unused), the signal, the trailing reflection.
        let mut row = vec![0.0; ch];
        for (i, r) in (1..=pad).rev().enumerate() {
            for c in 0..ch {
                row[c] = 2.0 * data[c] - data[r * ch + c];
            }
            if i == 0 {
                set_state(&row, x1, x2, y1, y2);
            }
            step(&mut row, x1, x2, y1, y2);
        }
        if pad == 0 {
            row.copy_from_slice(&data[..ch]);
            set_state(&row, x1, x2, y1, y2);
        }
        for v in data.chunks_exact_mut(ch) {
            step(v, x1, x2, y1, y2);
        }
        for v in post.chunks_exact_mut(ch) {
            step(v, x1, x2, y1, y2);
        }
        // Backward, from the end of the forward output.
        let last = if pad > 0 {
            &post[(pad - 1) * ch..]
        } else {
            &data[(n - 1) * ch..]
        };
        row.copy_from_slice(last);
        set_state(&row, x1, x2, y1, y2);
        for v in post.chunks_exact_mut(ch).rev() {
            step(v, x1, x2, y1, y2);
        }
        for v in data.chunks_exact_mut(ch).rev() {
            step(v, x1, x2, y1, y2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_slow_signals_and_removes_fast_ones_without_lag() {
        let rate = 120.0;
        let f = Butterworth2::new(10.0, rate).unwrap();
        let n = 600;
        let slow = |i: usize| (2.0 * PI * 1.0 * i as f64 / rate).sin();
        let mut x: Vec<f64> = (0..n)
            .map(|i| slow(i) + 0.1 * (2.0 * PI * 40.0 * i as f64 / rate).sin())
            .collect();
        let mut scratch = Vec::new();
        f.filtfilt(&mut x, &mut scratch);
        // 1 Hz passes with no phase lag (zero-phase), 40 Hz is attenuated by ≥ 40 dB (two passes of 4.0 octaves).
        let err = (100..500)
            .map(|i| (x[i] - slow(i)).abs())
            .fold(0.0, f64::max);
        assert!(err < 2e-3, "in-band error {err}");
        assert!(Butterworth2::new(60.0, rate).is_none());
    }

    #[test]
    fn interleaved_channels_give_the_same_bits_as_one_at_a_time() {
        let f = Butterworth2::new(10.0, 120.0).unwrap();
        let (ch, n) = (5, 300);
        let signal = |c: usize, i: usize| {
            ((c + 1) as f64 * 0.37 * i as f64).sin() + 0.01 * (i * i % 7) as f64
        };
        let mut data: Vec<f64> = (0..n)
            .flat_map(|i| (0..ch).map(move |c| signal(c, i)))
            .collect();
        f.filtfilt_interleaved(&mut data, ch, &mut Vec::new());
        for c in 0..ch {
            let mut x: Vec<f64> = (0..n).map(|i| signal(c, i)).collect();
            f.filtfilt(&mut x, &mut Vec::new());
            for (i, v) in x.iter().enumerate() {
                assert_eq!(
                    v.to_bits(),
                    data[i * ch + c].to_bits(),
                    "channel {c} sample {i}"
                );
            }
        }
    }

    #[test]
    fn keeps_a_ramp_exactly_including_the_ends() {
        let f = Butterworth2::new(5.0, 120.0).unwrap();
        let mut x: Vec<f64> = (0..200).map(|i| 0.3 * i as f64 - 4.0).collect();
        f.filtfilt(&mut x, &mut Vec::new());
        for (i, v) in x.iter().enumerate() {
            assert!((v - (0.3 * i as f64 - 4.0)).abs() < 1e-9, "sample {i}: {v}");
        }
    }
}
