//! Exact-size fronts: the elimination of a non-root body without world rows, its `R`-row joint group and the
//! update to its parent, with every block at its true size (`6×6`, `R×6`, `6×R`, `R×R`).
//!
//! This is the front of almost every body of a character (only the root carries world rows). The padded path
//! (every group a `Matrix6`) spends most of its work on the zero rows of a ball joint's 3 rows; here the joint
//! pivot is `R×R` and the products with it are `R×6`, monomorphised for each `R` in 1 … 6, so a ball joint costs
//! about half of a padded one (see docs/performance.md). The arithmetic is the same block LU as the padded path
//! (same pivots, same order), so the results agree to round-off.
//!
//! Layout of one front in the solver's `f64` pool (column-major blocks, offsets from [`Offsets::of`]):
//! `inv0` = body pivot⁻¹ (6×6), `u_bj` = inv0·J_cᵀ (6×R, the negated U_bj), `l_jb` = J_c (R×6), `u_jp` =
//! inv1·F_jp (R×6), `l_pj` = −F_pj (6×R), `inv1` = joint pivot⁻¹ (R×R), then the coupling's `u_bp` = inv0·C_cp
//! and `l_pb` = C_pc, as large as the coupling needs: nothing without one, 6×3 and 3×3 for an angular one, 6×6
//! each for a full one. A front's room for them ([`Kind`]) is set when the structure is analysed, from the
//! coupling values then, and grows if a later coupling needs more (see `TreeSolver::factor_exact`).
//!
//! **Angular couplings.** Joint drives (the only couplings a character has) are pure torques of the rotations and
//! angular velocities, so their coupling blocks are zero outside the 3×3 angular corner. Such a front stores
//! `u_bp` as 6×3 (its other columns are zero) and `l_pb` as 3×3, and every product with them is a third to a
//! half of the 6×6 one. The test is exact (entries equal to 0.0), so any other coupling takes the full path.

use nalgebra::{Matrix3, Matrix6, SMatrix};

use super::CouplingRef;
use super::ball;
use super::inverse6::{invert_body, invert_small};
use crate::dynamics::system::BlockSystem;

/// Offsets of a front's blocks inside its pool slice.
#[derive(Debug, Clone, Copy)]
pub(super) struct Offsets {
    inv0: usize,
    u_bj: usize,
    l_jb: usize,
    u_jp: usize,
    l_pj: usize,
    inv1: usize,
    u_bp: usize,
    l_pb: usize,
}

impl Offsets {
    /// Offsets for a joint group of `r` rows and a coupling of kind `kind` (nothing depends on the front's
    /// position: offsets are relative).
    pub(super) const fn of(r: usize, kind: Kind) -> Self {
        let u_bp = 36 + 24 * r + r * r;
        Offsets {
            inv0: 0,
            u_bj: 36,
            l_jb: 36 + 6 * r,
            u_jp: 36 + 12 * r,
            l_pj: 36 + 18 * r,
            inv1: 36 + 24 * r,
            u_bp,
            // After u_bp: 6×3 for an angular coupling, 6×6 for a full one.
            l_pb: u_bp + if matches!(kind, Kind::Full) { 36 } else { 18 },
        }
    }

    /// Pool length of a front with an `r`-row joint group and room for a coupling of kind `kind`.
    pub(super) const fn len(r: usize, kind: Kind) -> usize {
        36 + 24 * r
            + r * r
            + match kind {
                Kind::None => 0,
                Kind::Angular => 18 + 9,
                Kind::Full => 36 + 36,
            }
    }
}

pub(super) use crate::math::small::mul;

/// The `A×B` block of `m` at `(r0, c0)`, copied column by column. nalgebra's `fixed_view(..).into_owned()`
/// builds these through a generic iterator which the compiler sometimes leaves out of line (~260 instructions
/// for a 3×3, against a dozen moves here).
#[inline(always)]
pub(super) fn block<const M: usize, const N: usize, const A: usize, const B: usize>(
    m: &SMatrix<f64, M, N>,
    r0: usize,
    c0: usize,
) -> SMatrix<f64, A, B> {
    let mut out = SMatrix::<f64, A, B>::zeros();
    let (s, o) = (m.as_slice(), out.as_mut_slice());
    for j in 0..B {
        let from = r0 + (c0 + j) * M;
        o[j * A..(j + 1) * A].copy_from_slice(&s[from..from + A]);
    }
    out
}

fn store<const A: usize, const B: usize>(pool: &mut [f64], off: usize, m: &SMatrix<f64, A, B>) {
    pool[off..off + A * B].copy_from_slice(m.as_slice());
}

/// The coupling of a front with its parent: `(A[c][p], A[p][c])`.
#[derive(Debug, Clone, Copy)]
pub(super) enum Coupling<'a> {
    None,
    /// Only the angular 3×3 corners are non-zero (given as 3×3).
    Angular(&'a Matrix3<f64>, &'a Matrix3<f64>),
    Full(&'a Matrix6<f64>, &'a Matrix6<f64>),
}

/// The coupling kind a front was factored with, kept for its solve passes; also the room a front has for its
/// coupling's blocks (ordered by that room: a front with room for one kind can hold every smaller one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(super) enum Kind {
    #[default]
    None,
    Angular,
    Full,
}

impl Coupling<'_> {
    pub(super) fn kind(&self) -> Kind {
        match self {
            Coupling::None => Kind::None,
            Coupling::Angular(..) => Kind::Angular,
            Coupling::Full(..) => Kind::Full,
        }
    }
}

/// Whether a coupling block is zero outside its angular 3×3 corner.
pub(super) fn angular_only(m: &Matrix6<f64>) -> bool {
    // Column-major: the linear rows of the first three columns, then all of the last three columns. The bits
    // without the sign are OR-ed (zero exactly for ±0.0, as `== 0.0`; a NaN is non-zero, as it is unequal):
    // branch-free, so it vectorises instead of testing 27 entries one by one.
    let s = m.as_slice();
    let bits = |v: &[f64]| v.iter().fold(0u64, |acc, x| acc | (x.to_bits() << 1));
    (bits(&s[3..6]) | bits(&s[9..12]) | bits(&s[15..18]) | bits(&s[18..])) == 0
}

/// The kind of the coupling `refs` (a front's references into `sys.couplings`, summed when several) has in
/// `sys`, without summing: angular when every referenced block is (a sum of angular blocks is angular).
pub(super) fn kind_of(sys: &BlockSystem, refs: &[CouplingRef]) -> Kind {
    if refs.is_empty() {
        Kind::None
    } else if refs.iter().all(|r| {
        let c = &sys.couplings[r.idx];
        angular_only(&c.a_ij) && angular_only(&c.a_ji)
    }) {
        Kind::Angular
    } else {
        Kind::Full
    }
}

/// Which pivot of the front was singular.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Singular {
    Body,
    Joint,
}

/// How a front was factored, kept for its solve passes: the general block LU with its coupling's kind, or a
/// ball joint's null-space elimination (`ball.rs`), with or without an (angular) coupling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    General(Kind),
    Ball { coupled: bool },
}

impl Layout {
    /// The pool entries a front of `r` joint rows needs in this layout.
    pub(super) const fn room(&self, r: usize) -> usize {
        match *self {
            Layout::General(kind) => Offsets::len(r, kind),
            Layout::Ball { coupled } => ball::len(coupled),
        }
    }
}

/// Factors one front. `acc` is the body pivot after the children's updates, `jc`/`jp` the joint rows on the
/// body and on its parent, `coupling` the blocks `(A[c][p], A[p][c])`. Writes the factors to `pool` (the
/// front's slice) and adds the update to the parent's pivot `parent`.
// Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(super) fn factor<const R: usize>(
    pool: &mut [f64],
    acc: &Matrix6<f64>,
    parent: &mut Matrix6<f64>,
    jc: &SMatrix<f64, R, 6>,
    jp: &SMatrix<f64, R, 6>,
    coupling: Coupling<'_>,
    tol: f64,
) -> Result<(), Singular> {
    let o = Offsets::of(R, coupling.kind());
    let inv0 = invert_body(acc, tol).ok_or(Singular::Body)?;
    // Signs are folded into what is stored (`n_bj = −U_bj`, `n_pj = −F_pj`), so no block is ever negated (a
    // negated nalgebra block is an element-by-element pass of its own). Slot body: U_bj = D⁻¹·F_bj with
    // F_bj = −J_cᵀ; the joint pivot's update is F_jj −= F_jb·U_bj, i.e. F_jj = J_c·D⁻¹·J_cᵀ.
    let n_bj: SMatrix<f64, 6, R> = mul(&inv0, &jc.transpose());
    let f_jj: SMatrix<f64, R, R> = mul(jc, &n_bj);
    let mut f_jp: SMatrix<f64, R, 6> = *jp;
    let mut n_pj: SMatrix<f64, 6, R> = jp.transpose();
    // The coupling's share of the parent's update, C_pc·U_bp, is taken here while U_bp is at hand (it does not
    // depend on the joint pivot), rather than read back from the pool after the joint's elimination.
    let (mut c_pp3, mut c_pp) = (None, None);
    match coupling {
        Coupling::None => {}
        Coupling::Angular(cp, pc) => {
            let u_bp: SMatrix<f64, 6, 3> = mul(&block::<6, 6, 6, 3>(&inv0, 0, 0), cp);
            let mut f_jp3 = f_jp.fixed_columns_mut::<3>(0);
            f_jp3 -= mul(jc, &u_bp);
            let mut n_pj3 = n_pj.fixed_rows_mut::<3>(0);
            n_pj3 -= mul(pc, &block::<6, R, 3, R>(&n_bj, 0, 0));
            c_pp3 = Some(mul(pc, &block::<6, 3, 3, 3>(&u_bp, 0, 0)));
            store(pool, o.u_bp, &u_bp);
            store(pool, o.l_pb, pc);
        }
        Coupling::Full(cp, pc) => {
            let u_bp = mul(&inv0, cp);
            f_jp -= mul(jc, &u_bp);
            n_pj -= mul(pc, &n_bj);
            c_pp = Some(mul(pc, &u_bp));
            store(pool, o.u_bp, &u_bp);
            store(pool, o.l_pb, pc);
        }
    }
    let inv1 = invert_small::<R>(&f_jj, tol).ok_or(Singular::Joint)?;
    // F_pp = −C_pc·U_bp − F_pj·U_jp.
    let u_jp = mul(&inv1, &f_jp);
    let mut f_pp = mul(&n_pj, &u_jp);
    if let Some(c) = c_pp3 {
        let mut f_pp3 = f_pp.fixed_view_mut::<3, 3>(0, 0);
        f_pp3 -= c;
    }
    if let Some(c) = c_pp {
        f_pp -= c;
    }
    store(pool, o.inv0, &inv0);
    store(pool, o.u_bj, &n_bj);
    store(pool, o.l_jb, jc);
    store(pool, o.u_jp, &u_jp);
    store(pool, o.l_pj, &n_pj);
    store(pool, o.inv1, &inv1);
    *parent += f_pp;
    Ok(())
}

/// A front's `R` rows as the 3 rows of a ball front (only called when `R` is 3).
#[inline(always)]
fn rows3<const R: usize, const C: usize>(m: &SMatrix<f64, R, C>) -> SMatrix<f64, 3, C> {
    SMatrix::from_column_slice(m.as_slice())
}

/// A ball front's 3 rows as the front's `R` rows (only called when `R` is 3).
#[inline(always)]
fn rows_r<const R: usize, const C: usize>(m: &SMatrix<f64, 3, C>) -> SMatrix<f64, R, C> {
    SMatrix::from_column_slice(m.as_slice())
}

/// A pool block as a fixed-size matrix, for the [`mul`] kernel: nalgebra's products with a pool view are its
/// generic out-of-line loops (most of a solve pass's instructions).
#[inline(always)]
fn load<const A: usize, const B: usize>(pool: &[f64], off: usize) -> SMatrix<f64, A, B> {
    SMatrix::<f64, A, B>::from_column_slice(&pool[off..off + A * B])
}

/// Forward substitution of one front for `C` right-hand sides (columns): from the body's accumulated
/// right-hand side `y0` and the joint rows' `y1`, returns `z0 = D₀⁻¹w₀`, `z1 = D₁⁻¹w₁` and the update to the
/// parent's right-hand side.
// Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(super) fn forward<const R: usize, const C: usize>(
    pool: &[f64],
    layout: Layout,
    y0: &SMatrix<f64, 6, C>,
    y1: &SMatrix<f64, R, C>,
) -> (SMatrix<f64, 6, C>, SMatrix<f64, R, C>, SMatrix<f64, 6, C>) {
    let kind = match layout {
        Layout::General(kind) => kind,
        Layout::Ball { coupled } => {
            let (z0, z1, yp) = ball::forward::<C>(pool, coupled, y0, &rows3(y1));
            return (z0, rows_r(&z1), yp);
        }
    };
    let o = Offsets::of(R, kind);
    let z0 = mul(&load::<6, 6>(pool, o.inv0), y0);
    let w1 = y1 - mul(&load::<R, 6>(pool, o.l_jb), &z0);
    let z1 = mul(&load::<R, R>(pool, o.inv1), &w1);
    let mut yp = mul(&load::<6, R>(pool, o.l_pj), &z1);
    match kind {
        Kind::None => {}
        Kind::Angular => {
            let c = mul(&load::<3, 3>(pool, o.l_pb), &block::<6, C, 3, C>(&z0, 0, 0));
            let mut yp3 = yp.fixed_rows_mut::<3>(0);
            yp3 -= c;
        }
        Kind::Full => yp -= mul(&load::<6, 6>(pool, o.l_pb), &z0),
    }
    (z0, z1, yp)
}

/// Back substitution of one front from the parent's solution `xp`: returns the body's `x` and the joint's λ.
// Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
#[inline(always)]
pub(super) fn backward<const R: usize, const C: usize>(
    pool: &[f64],
    layout: Layout,
    z0: &SMatrix<f64, 6, C>,
    z1: &SMatrix<f64, R, C>,
    xp: &SMatrix<f64, 6, C>,
) -> (SMatrix<f64, 6, C>, SMatrix<f64, R, C>) {
    let kind = match layout {
        Layout::General(kind) => kind,
        Layout::Ball { .. } => {
            let (x0, x1) = ball::backward::<C>(pool, z0, &rows3(z1), xp);
            return (x0, rows_r(&x1));
        }
    };
    let o = Offsets::of(R, kind);
    let x1 = z1 - mul(&load::<R, 6>(pool, o.u_jp), xp);
    let mut x0 = z0 + mul(&load::<6, R>(pool, o.u_bj), &x1);
    match kind {
        Kind::None => {}
        Kind::Angular => {
            x0 -= mul(&load::<6, 3>(pool, o.u_bp), &block::<6, C, 3, C>(xp, 0, 0));
        }
        Kind::Full => x0 -= mul(&load::<6, 6>(pool, o.u_bp), xp),
    }
    (x0, x1)
}
