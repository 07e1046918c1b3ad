//! Shared by `tests/lcp.rs` and `benches/lcp.rs`: a seeded RNG, random LCPs, and boxes resting on the ground
//! plane y = 0 with their real mass, inertia and contact Jacobians (twists angular-first, Cline's convention).
#![allow(dead_code)]

use flinch::contact::lcp::RowBound;
use flinch::contact::lcp::pyramid::{normal_lcp, pyramid_lcp};
use nalgebra::{DMatrix, DVector, Matrix3, Rotation3, Vector3};

/// xorshift64*: small, seeded, dependency-free.
pub struct Rng(pub u64);

impl Rng {
    pub fn u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    pub fn matrix(&mut self, r: usize, c: usize) -> DMatrix<f64> {
        DMatrix::from_fn(r, c, |_, _| self.range(-1.0, 1.0))
    }
    pub fn vector(&mut self, n: usize) -> DVector<f64> {
        DVector::from_fn(n, |_, _| self.range(-1.0, 1.0))
    }
}

/// M = AᵀA with A rank×n (rank-deficient when rank < n), plus a skew-symmetric S (zᵀMz = ‖Az‖² ≥ 0: positive
/// semidefinite, hence copositive-plus) when `skew`.
pub fn psd_matrix(rng: &mut Rng, n: usize, rank: usize, skew: bool) -> DMatrix<f64> {
    let a = rng.matrix(rank, n);
    let mut m = a.transpose() * a;
    if skew {
        let b = rng.matrix(n, n);
        m += &b - b.transpose();
    }
    m
}

/// q = w* − M z* for a random complementary pair (z*, w*) ≥ 0: the LCP is feasible, so Lemke must solve it.
pub fn planted_q(rng: &mut Rng, m: &DMatrix<f64>) -> DVector<f64> {
    let n = m.nrows();
    let mut z = DVector::zeros(n);
    let mut w = DVector::zeros(n);
    for i in 0..n {
        if rng.unit() < 0.5 {
            z[i] = rng.range(0.0, 2.0);
        } else {
            w[i] = rng.range(0.0, 2.0);
        }
    }
    w - m * z
}

/// Contacts of resting boxes, ready to assemble.
pub struct Contacts {
    /// Inverse mass W (6·boxes square, block diagonal, angular rows first).
    pub w: DMatrix<f64>,
    pub jn: DMatrix<f64>,
    /// Four directions per contact: +t1, −t1, +t2, −t2.
    pub jd: DMatrix<f64>,
    pub mu: Vec<f64>,
    /// Free velocity v* (after gravity over one step).
    pub v: DVector<f64>,
}

impl Contacts {
    /// Frictionless LCP.
    pub fn normal(&self) -> (DMatrix<f64>, DVector<f64>) {
        normal_lcp(&self.w, &self.jn, &(&self.jn * &self.v)).unwrap()
    }
    /// Four-direction friction-pyramid LCP (λ_n, λ_d, γ).
    pub fn pyramid(&self) -> (DMatrix<f64>, DVector<f64>) {
        pyramid_lcp(
            &self.w,
            &self.jn,
            &self.jd,
            &self.mu,
            &(&self.jn * &self.v),
            &(&self.jd * &self.v),
        )
        .unwrap()
    }
    /// The boxed form games use, for PGS: rows (normal, t1, t2) per contact, tangents boxed by ±μ λ_n.
    pub fn boxed(&self) -> Boxed {
        let nc = self.jn.nrows();
        let k = self.w.nrows();
        let mut j = DMatrix::zeros(3 * nc, k);
        let mut tag = Vec::with_capacity(3 * nc);
        for c in 0..nc {
            j.row_mut(3 * c).copy_from(&self.jn.row(c));
            j.row_mut(3 * c + 1).copy_from(&self.jd.row(4 * c));
            j.row_mut(3 * c + 2).copy_from(&self.jd.row(4 * c + 2));
            let friction = RowBound::Friction {
                normal: 3 * c,
                mu: self.mu[c],
            };
            tag.extend([RowBound::NonNegative, friction, friction]);
        }
        Boxed {
            m: &j * &self.w * j.transpose(),
            q: &j * &self.v,
            bounds: tag,
        }
    }
}

/// A boxed-friction LCP for PGS.
pub struct Boxed {
    pub m: DMatrix<f64>,
    pub q: DVector<f64>,
    pub bounds: Vec<RowBound>,
}

/// Contact points on the bottom face (half extents hx, hz): 4 corners, 8 (corners + edge midpoints) or a
/// k×k grid for larger counts (16 = 4×4).
fn face_points(count: usize, hx: f64, hz: f64) -> Vec<(f64, f64)> {
    match count {
        4 => vec![(-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz)],
        8 => vec![
            (-hx, -hz),
            (0.0, -hz),
            (hx, -hz),
            (hx, 0.0),
            (hx, hz),
            (0.0, hz),
            (-hx, hz),
            (-hx, 0.0),
        ],
        _ => {
            let k = (count as f64).sqrt().round().max(2.0) as usize;
            let mut p = Vec::new();
            for a in 0..k {
                for b in 0..k {
                    let s = |i: usize, h: f64| -h + 2.0 * h * i as f64 / (k - 1) as f64;
                    p.push((s(a, hx), s(b, hz)));
                }
            }
            p
        }
    }
}

/// `boxes` random boxes (mass 0.5–5 kg, half extents 0.1–0.5 m, random yaw) resting face-down on y = 0 with
/// `per_box` contact points each, μ in 0.3–0.9, a random velocity (sliding up to 1 m/s, spinning up to 1 rad/s)
/// plus one step of gravity at h = 1/120 s.
pub fn resting_boxes(rng: &mut Rng, boxes: usize, per_box: usize) -> Contacts {
    let k = 6 * boxes;
    let nc = boxes * per_box;
    let mut w = DMatrix::zeros(k, k);
    let mut jn = DMatrix::zeros(nc, k);
    let mut jd = DMatrix::zeros(4 * nc, k);
    let mut mu = Vec::with_capacity(nc);
    let mut v = DVector::zeros(k);
    let n = Vector3::y();
    for b in 0..boxes {
        let mass = rng.range(0.5, 5.0);
        let (hx, hy, hz) = (
            rng.range(0.1, 0.5),
            rng.range(0.1, 0.5),
            rng.range(0.1, 0.5),
        );
        let body = Matrix3::from_diagonal(&Vector3::new(
            mass / 3.0 * (hy * hy + hz * hz),
            mass / 3.0 * (hx * hx + hz * hz),
            mass / 3.0 * (hx * hx + hy * hy),
        ));
        let rot =
            Rotation3::from_axis_angle(&Vector3::y_axis(), rng.range(0.0, std::f64::consts::TAU));
        let inertia = rot.matrix() * body * rot.matrix().transpose();
        let o = 6 * b;
        w.view_mut((o, o), (3, 3))
            .copy_from(&inertia.try_inverse().unwrap());
        w.view_mut((o + 3, o + 3), (3, 3)).fill_with_identity();
        w.view_mut((o + 3, o + 3), (3, 3)).scale_mut(1.0 / mass);
        let t1 = rot * Vector3::x();
        let t2 = rot * Vector3::z();
        let mu_b = rng.range(0.3, 0.9);
        for (c, (px, pz)) in face_points(per_box, hx, hz).into_iter().enumerate() {
            let row = b * per_box + c;
            // r = CoM → contact point; the CoM is hy above the ground.
            let r = rot * Vector3::new(px, -hy, pz);
            let put = |m: &mut DMatrix<f64>, i: usize, d: &Vector3<f64>| {
                let a = r.cross(d);
                for x in 0..3 {
                    m[(i, o + x)] = a[x];
                    m[(i, o + 3 + x)] = d[x];
                }
            };
            put(&mut jn, row, &n);
            put(&mut jd, 4 * row, &t1);
            put(&mut jd, 4 * row + 1, &(-t1));
            put(&mut jd, 4 * row + 2, &t2);
            put(&mut jd, 4 * row + 3, &(-t2));
            mu.push(mu_b);
        }
        let h = 1.0 / 120.0;
        for x in 0..3 {
            v[o + x] = rng.range(-1.0, 1.0);
        }
        v[o + 3] = rng.range(-1.0, 1.0);
        v[o + 4] = -9.81 * h - rng.range(0.0, 0.5);
        v[o + 5] = rng.range(-1.0, 1.0);
    }
    Contacts { w, jn, jd, mu, v }
}
