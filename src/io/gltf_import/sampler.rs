//! Keyframe tracks and their interpolation: STEP, LINEAR (slerp for rotations) and CUBICSPLINE (cubic Hermite
//! with the tangents scaled by the key interval, glTF 2.0 Appendix C).

use nalgebra::{Quaternion, UnitQuaternion, Vector3, Vector4};

use crate::skeleton::slerp_short;

/// A glTF sampler interpolation mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    /// Hold the value of the last key at or before t.
    Step,
    /// Linear for vectors, slerp along the short arc for rotations.
    Linear,
    /// Cubic Hermite spline; each key stores (in-tangent, value, out-tangent).
    CubicSpline,
}

impl From<::gltf::animation::Interpolation> for Interpolation {
    fn from(i: ::gltf::animation::Interpolation) -> Self {
        match i {
            ::gltf::animation::Interpolation::Step => Interpolation::Step,
            ::gltf::animation::Interpolation::Linear => Interpolation::Linear,
            ::gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
        }
    }
}

/// One animated property: key times and values (3- or 4-vectors; quaternions as `[x, y, z, w]`).
///
/// For [`Interpolation::CubicSpline`] `values` holds three entries per key: in-tangent, value, out-tangent.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// Key times in seconds, non-decreasing.
    pub times: Vec<f64>,
    /// Key values (see the type docs for the cubic layout). Vectors use the first three components.
    pub values: Vec<Vector4<f64>>,
    /// How to interpolate between keys.
    pub interpolation: Interpolation,
}

/// The Hermite basis at s ∈ [0, 1] for (p0, m0, p1, m1).
fn hermite_basis(s: f64) -> [f64; 4] {
    let s2 = s * s;
    let s3 = s2 * s;
    [
        2.0 * s3 - 3.0 * s2 + 1.0,
        s3 - 2.0 * s2 + s,
        -2.0 * s3 + 3.0 * s2,
        s3 - s2,
    ]
}

impl Track {
    /// Builds a track, checking that the times are finite and non-decreasing and the value count matches
    /// (`keys` values, or `3 × keys` for CUBICSPLINE). Returns what is wrong otherwise.
    pub fn new(
        times: Vec<f64>,
        values: Vec<Vector4<f64>>,
        interpolation: Interpolation,
    ) -> Result<Track, String> {
        if times.is_empty() {
            return Err("sampler input has no keys".into());
        }
        for (k, w) in times.windows(2).enumerate() {
            if let [a, b] = w {
                if b < a {
                    return Err(format!("key times decrease at key {}: {a} then {b}", k + 1));
                }
            }
        }
        if let Some(k) = times.iter().position(|t| !t.is_finite()) {
            return Err(format!("key time {k} is not finite"));
        }
        let per_key = if interpolation == Interpolation::CubicSpline {
            3
        } else {
            1
        };
        let expected = times.len() * per_key;
        if values.len() != expected {
            return Err(format!(
                "sampler output has {} values, expected {expected} ({} keys{})",
                values.len(),
                times.len(),
                if per_key == 3 {
                    " × 3 for CUBICSPLINE"
                } else {
                    ""
                }
            ));
        }
        if let Some(k) = values.iter().position(|v| !v.iter().all(|x| x.is_finite())) {
            return Err(format!("sampler output value {k} is not finite"));
        }
        Ok(Track {
            times,
            values,
            interpolation,
        })
    }

    /// First key time.
    pub fn start(&self) -> f64 {
        self.times.first().copied().unwrap_or(0.0)
    }

    /// Last key time.
    pub fn end(&self) -> f64 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// The value of key `k` (the middle entry of a cubic key).
    fn key(&self, k: usize) -> Vector4<f64> {
        let i = if self.interpolation == Interpolation::CubicSpline {
            3 * k + 1
        } else {
            k
        };
        self.values.get(i).copied().unwrap_or_else(Vector4::zeros)
    }

    /// The key interval containing `t`: `(k, s)` with `times[k] ≤ t < times[k+1]` and `s ∈ [0, 1)`, or a
    /// clamped single key `(k, 0)` outside the key range.
    fn locate(&self, t: f64) -> (usize, f64, f64) {
        let n = self.times.len();
        if n < 2 || t <= self.start() {
            return (0, 0.0, 0.0);
        }
        if t >= self.end() {
            return (n - 1, 0.0, 0.0);
        }
        let k = self
            .times
            .partition_point(|&x| x <= t)
            .saturating_sub(1)
            .min(n - 2);
        let (t0, t1) = (self.times[k], self.times[k + 1]);
        let dt = t1 - t0;
        let s = if dt > 0.0 {
            ((t - t0) / dt).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (k, s, dt)
    }

    /// Raw interpolated 4-vector (Hermite or lerp on components); rotations are fixed up by the callers.
    fn sample_raw(&self, t: f64) -> (Vector4<f64>, usize, f64) {
        let (k, s, dt) = self.locate(t);
        if s == 0.0 {
            return (self.key(k), k, s);
        }
        let v = match self.interpolation {
            Interpolation::Step => self.key(k),
            Interpolation::Linear => self.key(k).lerp(&self.key(k + 1), s),
            Interpolation::CubicSpline => {
                let [h00, h10, h01, h11] = hermite_basis(s);
                let get = |i: usize| self.values.get(i).copied().unwrap_or_else(Vector4::zeros);
                let p0 = get(3 * k + 1);
                let out_tangent = get(3 * k + 2);
                let in_tangent = get(3 * (k + 1));
                let p1 = get(3 * (k + 1) + 1);
                // glTF tangents are per second; the Hermite basis on s ∈ [0, 1] needs them per interval.
                p0 * h00 + out_tangent * (h10 * dt) + p1 * h01 + in_tangent * (h11 * dt)
            }
        };
        (v, k, s)
    }

    /// The vector value at time `t` (clamped to the key range).
    pub fn sample_vec3(&self, t: f64) -> Vector3<f64> {
        self.sample_raw(t).0.xyz()
    }

    /// The rotation at time `t` (clamped to the key range). LINEAR uses slerp along the short arc; CUBICSPLINE
    /// normalises the Hermite result, as the glTF specification prescribes.
    pub fn sample_rotation(&self, t: f64) -> UnitQuaternion<f64> {
        let to_unit = |v: Vector4<f64>| UnitQuaternion::from_quaternion(Quaternion::from(v));
        let (k, s, _) = self.locate(t);
        if self.interpolation == Interpolation::Linear && s > 0.0 {
            return slerp_short(&to_unit(self.key(k)), &to_unit(self.key(k + 1)), s);
        }
        let (v, _, _) = self.sample_raw(t);
        if v.norm() > 1e-12 {
            to_unit(v)
        } else {
            // A cubic segment can pass through zero only with contrived tangents; hold the key.
            to_unit(self.key(k))
        }
    }
}

#[cfg(test)]
mod tests;
