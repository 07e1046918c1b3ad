//! Non-negative least squares (Lawson & Hanson 1974, ch. 23): `min ‖A·x − b‖²` subject to `x ≥ 0`, by the
//! active-set method. Used to spread a wrench over friction-pyramid edges, where every column is one edge.

use nalgebra::{DMatrix, DVector};

/// Solves `min ‖a·x − b‖², x ≥ 0`. `a` must have full column rank on every subset of columns the method visits
/// (append `√ε·I` rows to regularise). Stops after `3·ncols` outer iterations (the method terminates far earlier
/// in exact arithmetic; the cap only guards against cycling in round-off).
pub fn nnls(a: &DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
    let n = a.ncols();
    let mut x = DVector::zeros(n);
    let mut passive = vec![false; n];
    let scale = a.abs().max().max(1e-300) * b.amax().max(1e-300);
    let tol = 1e-12 * scale * (a.nrows() as f64);
    for _ in 0..3 * n.max(1) {
        let w = a.transpose() * (b - a * &x);
        let Some(j) = (0..n)
            .filter(|&j| !passive[j] && w[j] > tol)
            .max_by(|&i, &j| w[i].total_cmp(&w[j]))
        else {
            break;
        };
        passive[j] = true;
        // Inner loop: solve on the passive set; step back into the feasible region while some value goes ≤ 0.
        for _ in 0..n {
            let z = solve_on(a, b, &passive);
            let mut alpha = 1.0_f64;
            let mut blocked = false;
            for i in 0..n {
                if passive[i] && z[i] <= 0.0 {
                    blocked = true;
                    let denom = x[i] - z[i];
                    if denom > 0.0 {
                        alpha = alpha.min(x[i] / denom);
                    } else {
                        alpha = 0.0;
                    }
                }
            }
            if !blocked {
                x = z;
                break;
            }
            x += (z - &x) * alpha;
            for i in 0..n {
                if passive[i] && x[i] <= 1e-14 * scale.sqrt().max(1.0) {
                    passive[i] = false;
                    x[i] = 0.0;
                }
            }
        }
    }
    x
}

/// The unconstrained least-squares solution on the `passive` columns (zero elsewhere).
fn solve_on(a: &DMatrix<f64>, b: &DVector<f64>, passive: &[bool]) -> DVector<f64> {
    let cols: Vec<usize> = (0..a.ncols()).filter(|&j| passive[j]).collect();
    let mut z = DVector::zeros(a.ncols());
    if cols.is_empty() {
        return z;
    }
    let sub = a.select_columns(&cols);
    let normal = sub.transpose() * &sub;
    let rhs = sub.transpose() * b;
    let sol = match normal.clone().cholesky() {
        Some(c) => c.solve(&rhs),
        None => normal
            .lu()
            .solve(&rhs)
            .unwrap_or_else(|| DVector::zeros(cols.len())),
    };
    for (i, &j) in cols.iter().enumerate() {
        z[j] = sol[i];
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all column subsets: the NNLS optimum is the best feasible unconstrained solution on some
    /// subset.
    fn brute(a: &DMatrix<f64>, b: &DVector<f64>) -> f64 {
        let n = a.ncols();
        let mut best = b.norm_squared();
        for mask in 1..(1u32 << n) {
            let passive: Vec<bool> = (0..n).map(|j| mask & (1 << j) != 0).collect();
            let z = solve_on(a, b, &passive);
            if z.iter().all(|&v| v >= -1e-12) {
                best = best.min((a * z - b).norm_squared());
            }
        }
        best
    }

    #[test]
    fn matches_brute_force_on_random_problems() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        for _ in 0..200 {
            let (m, n) = (6, 7);
            let a = DMatrix::from_fn(m, n, |_, _| rnd());
            let b = DVector::from_fn(m, |_, _| rnd() * 3.0);
            let x = nnls(&a, &b);
            assert!(x.iter().all(|&v| v >= 0.0), "{x}");
            let got = (&a * &x - &b).norm_squared();
            let want = brute(&a, &b);
            assert!(got <= want + 1e-9 * (1.0 + want), "nnls {got} brute {want}");
        }
    }

    #[test]
    fn exact_feasible_solution_is_found() {
        let a = DMatrix::from_row_slice(3, 3, &[1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
        let want = DVector::from_vec(vec![0.5, 2.0, 1.0]);
        let x = nnls(&a, &(&a * &want));
        assert!((x - want).norm() < 1e-12);
    }
}
