//! LU with partial pivoting of one fixed 6×6 block: the tree solver's pivot factorisation. Hand-written (rather
//! than nalgebra's generic `LU`) to keep the factor small (no usize permutation pairs) and the loops fixed-size.

use nalgebra::{Matrix6, Vector6};

/// `P A = L U` of a 6×6 block, `L` unit lower and `U` upper stored in one matrix, `P` as a row order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Lu6 {
    lu: Matrix6<f64>,
    /// Row `i` of `P A` is row `perm[i]` of `A`.
    perm: [u8; 6],
}

impl Default for Lu6 {
    fn default() -> Self {
        Self {
            lu: Matrix6::identity(),
            perm: [0, 1, 2, 3, 4, 5],
        }
    }
}

impl Lu6 {
    /// Factors `m`. `None` when a pivot is not above `tol` in magnitude (or is not finite).
    pub(super) fn factor(mut m: Matrix6<f64>, tol: f64) -> Option<Self> {
        let mut perm = [0, 1, 2, 3, 4, 5];
        for k in 0..6 {
            let mut p = k;
            for i in k + 1..6 {
                if m[(i, k)].abs() > m[(p, k)].abs() {
                    p = i;
                }
            }
            let d = m[(p, k)];
            if !(d.abs() > tol && d.is_finite()) {
                return None;
            }
            if p != k {
                m.swap_rows(k, p);
                perm.swap(k, p);
            }
            for i in k + 1..6 {
                let l = m[(i, k)] / d;
                m[(i, k)] = l;
                for j in k + 1..6 {
                    m[(i, j)] -= l * m[(k, j)];
                }
            }
        }
        Some(Self { lu: m, perm })
    }

    /// `A⁻¹ b`.
    pub(super) fn solve(&self, b: &Vector6<f64>) -> Vector6<f64> {
        let mut y = Vector6::from_fn(|i, _| b[self.perm[i] as usize]);
        for i in 1..6 {
            for j in 0..i {
                y[i] -= self.lu[(i, j)] * y[j];
            }
        }
        for i in (0..6).rev() {
            for j in i + 1..6 {
                y[i] -= self.lu[(i, j)] * y[j];
            }
            y[i] /= self.lu[(i, i)];
        }
        y
    }

    /// `A⁻¹ B`, column by column.
    pub(super) fn solve_mat(&self, b: &Matrix6<f64>) -> Matrix6<f64> {
        let mut out = Matrix6::zeros();
        for c in 0..6 {
            let col = self.solve(&b.fixed_columns::<1>(c).into_owned());
            out.set_column(c, &col);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_pivoting_system_and_rejects_singular_ones() {
        // Zero leading entry forces a row exchange.
        let a = Matrix6::from_fn(|r, c| if r == c { 0.0 } else { 1.0 / (1.0 + (r + 2 * c) as f64) } + (r == 5) as u8 as f64);
        let lu = Lu6::factor(a, 1e-14).expect("regular");
        let b = Vector6::new(1.0, -2.0, 0.5, 3.0, 0.0, 1.5);
        assert!((a * lu.solve(&b) - b).norm() < 1e-12);
        let bm = Matrix6::from_fn(|r, c| (r * c) as f64 - 2.0);
        assert!((a * lu.solve_mat(&bm) - bm).norm() < 1e-11);
        let mut s = a;
        let r0 = s.row(0).into_owned();
        s.set_row(3, &(r0 * 2.0));
        assert!(Lu6::factor(s, 1e-12).is_none());
        assert!(Lu6::factor(Matrix6::repeat(f64::NAN), 0.0).is_none());
    }
}
