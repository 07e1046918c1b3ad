//! Ball-joint fronts eliminated in the joint's null space (articulated-body style) instead of by the body pivot.
//!
//! A ball joint's rows are `[Ā, I]` on the body and `[B̄, −I]` on its parent (`Anchors::evaluate`), so the
//! joint fixes the body's linear velocity: `v = b − Ā ω − B̄ ω_p + v_p`. The front's unknowns are the body's
//! `x = (ω, v)` and the joint's `λ`; with the body pivot `[[P, Q], [R, S]]` (3×3 blocks, angular first), the
//! coupling `c = A[c][p]` and `p = A[p][c]` (angular corners: a drive's), the body's linear rows give
//! `λ = R ω + S v − y_v`, and its angular rows, with `v` and `λ` put in, a 3×3 system for `ω` alone:
//!
//! `D ω = y_ω − Āᵀ y_v − E b + (E B̄ − c) ω_p − E v_p`,  `D = P − Āᵀ R − E Ā`,  `E = Q − Āᵀ S`.
//!
//! So `ω = ω₀ + W_ω ω_p + W_v v_p` and `λ = λ₀ + L_ω ω_p + L_v v_p` with `W_ω = D⁻¹(E B̄ − c)`,
//! `W_v = −D⁻¹E`, `L_ω = F W_ω − S B̄`, `L_v = F W_v + S`, `F = R − S Ā`, and the parent's rows receive
//! `[p ω − B̄ᵀ λ; λ]`. This is the same saddle-point system eliminated in another order (the joint rows pivot
//! on their identity block, which needs no pivoting); every block is 3×3 and only one 3×3 pivot is inverted,
//! where the general front inverts the 6×6 body pivot and the 3×3 joint pivot (docs/tree_solver.md).
//!
//! `Ā` and `B̄` are cross-product matrices (`[a]×`, `[b]×`; the front is only taken when they are exactly), so
//! every product with them is a cross product. Pool layout of one front: the axes `a`, `b`, then the column-major
//! 3×3 blocks `E, D⁻¹, F, S, W_ω, W_v, L_ω, L_v`, then `p` when the front has a coupling.

use nalgebra::{Matrix3, Matrix6, SMatrix, Vector3};

use super::exact::{Singular, block};
use super::inverse6::invert_small;
use crate::math::small::{cross_mul, mul, mul_cross};

const AXIS_A: usize = 0;
const AXIS_B: usize = 3;
const E: usize = 6;
const D_INV: usize = 15;
const F: usize = 24;
const S: usize = 33;
const W_W: usize = 42;
const W_V: usize = 51;
const L_W: usize = 60;
const L_V: usize = 69;
const P_C: usize = 78;

/// The axes `(a, b)` of a ball joint's rows on the body and on its parent (`[[a]×, I]`, `[[b]×, −I]`).
pub(super) type Axes = (Vector3<f64>, Vector3<f64>);

/// Pool length of a ball front, with or without a coupling.
pub(super) const fn len(coupled: bool) -> usize {
    if coupled { P_C + 9 } else { P_C }
}

/// The axis `s` of a ball joint's rows on one body, `[[s]×, σI]` in the first three rows of `j` (`σ` is `1` on
/// the child, `−1` on the parent), when `j` is exactly that (`Anchors::evaluate` writes `[s_c]×ᵀ` and `[s_p]×`);
/// `None` for any other rows.
pub(super) fn axis(j: &Matrix6<f64>, sigma: f64) -> Option<Vector3<f64>> {
    // Every test as an entry (or a difference, or a sum) that must be ±0: `x − σ` is 0 exactly when `x == σ` and
    // `x + y` exactly when `x == −y` (finite values; a NaN or an infinity leaves a non-zero). Their bits without
    // the sign are OR-ed, branch-free, as `exact::angular_only` does: this runs for every front of every step.
    let e = |r: usize, c: usize| j[(r, c)];
    let must_vanish = [
        e(0, 3) - sigma,
        e(1, 4) - sigma,
        e(2, 5) - sigma,
        e(0, 4),
        e(0, 5),
        e(1, 3),
        e(1, 5),
        e(2, 3),
        e(2, 4),
        e(0, 0),
        e(1, 1),
        e(2, 2),
        e(0, 1) + e(1, 0),
        e(0, 2) + e(2, 0),
        e(1, 2) + e(2, 1),
    ];
    let bits = must_vanish
        .iter()
        .fold(0u64, |acc, x| acc | (x.to_bits() << 1));
    (bits == 0).then(|| Vector3::new(e(2, 1), e(0, 2), e(1, 0)))
}

#[inline(always)]
fn load(pool: &[f64], off: usize) -> Matrix3<f64> {
    Matrix3::from_column_slice(&pool[off..off + 9])
}

#[inline(always)]
fn load_axis(pool: &[f64], off: usize) -> Vector3<f64> {
    Vector3::new(pool[off], pool[off + 1], pool[off + 2])
}

#[inline(always)]
fn store(pool: &mut [f64], off: usize, m: &Matrix3<f64>) {
    // Element by element: a slice copy of 72 bytes compiled to a call to `memcpy`, ten per front.
    let dst = &mut pool[off..off + 9];
    for (d, s) in dst.iter_mut().zip(m.iter()) {
        *d = *s;
    }
}

/// Adds the 3×3 `m` to the block of `parent` at `(r0, c0)`.
#[inline(always)]
fn add_block(parent: &mut Matrix6<f64>, r0: usize, c0: usize, m: &Matrix3<f64>) {
    for j in 0..3 {
        for i in 0..3 {
            parent[(r0 + i, c0 + j)] += m[(i, j)];
        }
    }
}

/// Factors a ball front: `acc` is the body pivot after its children's updates, `a` and `b` the axes of the
/// joint rows' angular blocks `Ā = [a]×` on the body and `B̄ = [b]×` on the parent (their linear blocks are `I`
/// and `−I`), `coupling` the angular corners `(c, p)` of a coupling, if any. Writes the factors to `pool` and adds the update to the parent's pivot
/// `parent`. The products with `Ā` and `B̄` are cross products (`Āᵀ = −[a]×`).
// Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(super) fn factor(
    pool: &mut [f64],
    acc: &Matrix6<f64>,
    parent: &mut Matrix6<f64>,
    a: &Vector3<f64>,
    b: &Vector3<f64>,
    coupling: Option<(&Matrix3<f64>, &Matrix3<f64>)>,
    tol: f64,
) -> Result<(), Singular> {
    let p: Matrix3<f64> = block::<6, 6, 3, 3>(acc, 0, 0);
    let q: Matrix3<f64> = block::<6, 6, 3, 3>(acc, 0, 3);
    let r: Matrix3<f64> = block::<6, 6, 3, 3>(acc, 3, 0);
    let s: Matrix3<f64> = block::<6, 6, 3, 3>(acc, 3, 3);
    let e = q + cross_mul(a, &s);
    let d = p + cross_mul(a, &r) - mul_cross(&e, a);
    // D is the body's pivot seen from its free (angular) coordinates: singular only for a body without
    // rotational inertia, which the general front reports as a singular body pivot too.
    let d_inv = invert_small::<3>(&d, tol).ok_or(Singular::Body)?;
    let f = r - mul_cross(&s, a);
    let mut g = mul_cross(&e, b);
    let pc = coupling.map(|(cp, pc)| {
        g -= cp;
        pc
    });
    let w_w = mul(&d_inv, &g);
    let w_v = -mul(&d_inv, &e);
    let l_w = mul(&f, &w_w) - mul_cross(&s, b);
    let l_v = mul(&f, &w_v) + s;
    let mut top_w = cross_mul(b, &l_w);
    let mut top_v = cross_mul(b, &l_v);
    if let Some(pc) = pc {
        top_w += mul(pc, &w_w);
        top_v += mul(pc, &w_v);
        store(pool, P_C, pc);
    }
    add_block(parent, 0, 0, &top_w);
    add_block(parent, 0, 3, &top_v);
    add_block(parent, 3, 0, &l_w);
    add_block(parent, 3, 3, &l_v);
    pool[AXIS_A..AXIS_A + 3].copy_from_slice(a.as_slice());
    pool[AXIS_B..AXIS_B + 3].copy_from_slice(b.as_slice());
    store(pool, E, &e);
    store(pool, D_INV, &d_inv);
    store(pool, F, &f);
    store(pool, S, &s);
    store(pool, W_W, &w_w);
    store(pool, W_V, &w_v);
    store(pool, L_W, &l_w);
    store(pool, L_V, &l_v);
    Ok(())
}

/// Forward substitution of a ball front for `C` right-hand sides: from the body's accumulated right-hand side
/// `y0 = (y_ω, y_v)` and the joint rows' `b`, returns `z0 = (ω₀, b)`, `z1 = λ₀` and the update to the parent's
/// right-hand side, `−[p ω₀ − B̄ᵀ λ₀; λ₀]`.
// Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(super) fn forward<const C: usize>(
    pool: &[f64],
    coupled: bool,
    y0: &SMatrix<f64, 6, C>,
    b: &SMatrix<f64, 3, C>,
) -> (SMatrix<f64, 6, C>, SMatrix<f64, 3, C>, SMatrix<f64, 6, C>) {
    let y_w: SMatrix<f64, 3, C> = block::<6, C, 3, C>(y0, 0, 0);
    let y_v: SMatrix<f64, 3, C> = block::<6, C, 3, C>(y0, 3, 0);
    let rhs = y_w + cross_mul(&load_axis(pool, AXIS_A), &y_v) - mul(&load(pool, E), b);
    let w0 = mul(&load(pool, D_INV), &rhs);
    let l0 = mul(&load(pool, F), &w0) + mul(&load(pool, S), b) - y_v;
    let mut top = -cross_mul(&load_axis(pool, AXIS_B), &l0);
    if coupled {
        top -= mul(&load(pool, P_C), &w0);
    }
    let mut z0 = SMatrix::<f64, 6, C>::zeros();
    let mut yp = SMatrix::<f64, 6, C>::zeros();
    for j in 0..C {
        for i in 0..3 {
            z0[(i, j)] = w0[(i, j)];
            z0[(3 + i, j)] = b[(i, j)];
            yp[(i, j)] = top[(i, j)];
            yp[(3 + i, j)] = -l0[(i, j)];
        }
    }
    (z0, l0, yp)
}

/// Back substitution of a ball front from the parent's solution `xp = (ω_p, v_p)`: returns the body's
/// `x = (ω, v)` and the joint's λ.
// Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(super) fn backward<const C: usize>(
    pool: &[f64],
    z0: &SMatrix<f64, 6, C>,
    z1: &SMatrix<f64, 3, C>,
    xp: &SMatrix<f64, 6, C>,
) -> (SMatrix<f64, 6, C>, SMatrix<f64, 3, C>) {
    let w_p: SMatrix<f64, 3, C> = block::<6, C, 3, C>(xp, 0, 0);
    let v_p: SMatrix<f64, 3, C> = block::<6, C, 3, C>(xp, 3, 0);
    let w =
        block::<6, C, 3, C>(z0, 0, 0) + mul(&load(pool, W_W), &w_p) + mul(&load(pool, W_V), &v_p);
    let v = block::<6, C, 3, C>(z0, 3, 0)
        - cross_mul(&load_axis(pool, AXIS_A), &w)
        - cross_mul(&load_axis(pool, AXIS_B), &w_p)
        + v_p;
    let l = z1 + mul(&load(pool, L_W), &w_p) + mul(&load(pool, L_V), &v_p);
    let mut x0 = SMatrix::<f64, 6, C>::zeros();
    for j in 0..C {
        for i in 0..3 {
            x0[(i, j)] = w[(i, j)];
            x0[(3 + i, j)] = v[(i, j)];
        }
    }
    (x0, l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::spatial::cross_matrix;

    #[test]
    fn axis_accepts_exactly_a_ball_joints_rows() {
        let s = Vector3::new(0.12, -0.4, 0.05);
        let rows = |angular: Matrix3<f64>, sigma: f64| {
            let mut j = Matrix6::zeros();
            j.fixed_view_mut::<3, 3>(0, 0).copy_from(&angular);
            j.fixed_view_mut::<3, 3>(0, 3)
                .copy_from(&(Matrix3::identity() * sigma));
            j
        };
        // `Anchors::evaluate`'s forms: `[s]×ᵀ` on the child, `[s]×` on the parent.
        assert_eq!(
            axis(&rows(cross_matrix(&s).transpose(), 1.0), 1.0),
            Some(-s)
        );
        assert_eq!(axis(&rows(cross_matrix(&s), -1.0), -1.0), Some(s));
        // The other sign of the identity, a tiny entry off it, a non-skew block, a NaN: not a ball joint's rows.
        assert_eq!(axis(&rows(cross_matrix(&s), 1.0), -1.0), None);
        let mut off = rows(cross_matrix(&s), 1.0);
        off[(1, 3)] = 1e-300;
        assert_eq!(axis(&off, 1.0), None);
        let mut diag = rows(cross_matrix(&s), 1.0);
        diag[(2, 2)] = 1e-300;
        assert_eq!(axis(&diag, 1.0), None);
        let mut skew = rows(cross_matrix(&s), 1.0);
        skew[(0, 1)] += 1e-17;
        assert_eq!(axis(&skew, 1.0), None);
        let mut nan = rows(cross_matrix(&s), 1.0);
        nan[(1, 2)] = f64::NAN;
        assert_eq!(axis(&nan, 1.0), None);
    }
}
