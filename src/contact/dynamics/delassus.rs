//! The contact-space inverse mass `J_c W J_cᵀ` (the Delassus matrix) through the joint system's factorisation,
//! Cline §4.8.2: `W = M̃⁻¹` restricted to the constraint manifold of the joints is never formed; only its 6×6
//! blocks between contact bodies are, one sparse solve per unit wrench on a contact body.

use nalgebra::{DMatrix, Matrix6, Vector6};

use super::ContactState;
use super::rows::OtherPart;
use crate::contact::lcp::pyramid::step_mirror_into;
use crate::contact::lcp::zeroed_matrix;
use crate::dynamics::system::SaddlePointSolver;
use crate::math::dispatch::with_avx2;

/// `a·b` as nalgebra's `dot` computes it for six entries (a sum from `+0` in index order, so the same bits),
/// inline: nalgebra's generic loop with its eight accumulators was most of the Delassus matrix's cost.
#[inline(always)]
fn dot6(a: &Vector6<f64>, b: &Vector6<f64>) -> f64 {
    let mut v = 0.0;
    for k in 0..6 {
        v += a[k] * b[k];
    }
    v
}

impl ContactState {
    /// Fills the blocks `W_ij` between the contact bodies with the solver's current factorisation
    /// ([`BlockSolves::blocks`]).
    pub(super) fn compute_w(
        &mut self,
        solver: &mut dyn SaddlePointSolver,
        bodies: usize,
        joint_rows: usize,
    ) {
        self.block_solves
            .blocks(solver, bodies, joint_rows, &self.bodies, &mut self.w);
    }

    /// `J_c W J_cᵀ` over the stored rows into `self.delassus`. Each column is `J_c·(W J_rᵀ)`: first `W J_rᵀ` on
    /// every contact body (two 6×6 products per body), then a dot product per row and side, so the cost is
    /// O(rows·bodies·36 + rows²·12) instead of O(rows²·4·36) for block triple products per entry. The matrix and
    /// its buffers live in the state and grow only with the contact count (no allocation per step).
    ///
    /// The dot products run row by row over all columns at once: `(W J_rᵀ)` is stored transposed per body
    /// (`delassus_y[(6·b + k)·n + c]`: entry k of column c's vector on body b), so row s's entries are six
    /// vectorised multiply-adds over a contiguous run, each entry the same sum from `+0` in index order as one
    /// dot product (`dot6`) would form, so the same bits (entry by entry, this took 2.5× the instructions).
    pub(super) fn fill_delassus(&mut self) {
        let mut out = std::mem::take(&mut self.delassus);
        self.fill_delassus_rows(None, None, &mut out);
        self.delassus = out;
    }

    /// The Delassus matrix of the rows `sel` (indices into the stored rows, in this order; `None`: all) into
    /// `out`. `bodies` (per contact body), when given, marks the only bodies the rows' `W J_rᵀ` columns are formed
    /// on: those of one independent part (`split.rs`), where `W` is exactly zero towards every other body. Each
    /// entry is the same sum whether its rows are selected or all are, so the entries of a part are the bits the
    /// whole matrix would hold.
    pub(super) fn fill_delassus_rows(
        &mut self,
        sel: Option<&[usize]>,
        bodies: Option<&[bool]>,
        out: &mut DMatrix<f64>,
    ) {
        with_avx2!((
            state: &mut ContactState = self,
            sel: Option<&[usize]> = sel,
            bodies: Option<&[bool]> = bodies,
            out: &mut DMatrix<f64> = out,
        ) -> () {
            state.fill_delassus_kernel(sel, bodies, out)
        })
    }

    /// The friction pyramid's Delassus matrix of the rows `sel` (in the pyramid's order: `nc` normals, then `m`
    /// directions per contact whose second half is the first negated; `None`: all stored rows), in two parts:
    /// the entries of the normals and first halves, formed ([`ContactState::fill_delassus_rows`], `bodies` as
    /// there) into `self.delassus_half`, and each row's formed row and sign (±1) in `self.delassus_mirror`. Entry
    /// (s, c) of the whole matrix is `half[(ρ_s, ρ_c)]·σ_s·σ_c`, exactly what forming it would give (every product
    /// of a negated row is the negated product, and multiplying by ±1 is exact), at (1 + m/2)²/(1 + m)² of the
    /// cost: 36 % for four directions. [`crate::contact::lcp::pyramid::pyramid_from_formed_into`] assembles the LCP from it.
    pub(super) fn fill_pyramid_delassus(
        &mut self,
        sel: Option<&[usize]>,
        bodies: Option<&[bool]>,
        nc: usize,
        m: usize,
    ) {
        let half = m / 2;
        let stored = |i: usize| sel.map_or(i, |s| s[i]);
        let mut mirror = std::mem::take(&mut self.delassus_mirror);
        step_mirror_into(&mut mirror, nc, m);
        let mut formed = std::mem::take(&mut self.delassus_formed);
        formed.clear();
        formed.extend((0..nc).map(stored));
        for k in 0..nc {
            formed.extend((0..half).map(|r| stored(nc + k * m + r)));
        }
        let mut reduced = std::mem::take(&mut self.delassus_half);
        self.fill_delassus_rows(Some(&formed), bodies, &mut reduced);
        self.delassus_mirror = mirror;
        self.delassus_formed = formed;
        self.delassus_half = reduced;
    }

    /// [`ContactState::fill_delassus_rows`]'s body, inlined into its baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn fill_delassus_kernel(
        &mut self,
        sel: Option<&[usize]>,
        bodies: Option<&[bool]>,
        out: &mut DMatrix<f64>,
    ) {
        let rows = &self.rows;
        let n = sel.map_or(rows.len(), <[usize]>::len);
        let row = |c: usize| &rows[sel.map_or(c, |s| s[c])];
        let nb = self.bodies.len();
        if out.shape() != (n, n) {
            zeroed_matrix(out, n, n);
        }
        let yt = &mut self.delassus_y;
        yt.clear();
        yt.resize(6 * nb * n, 0.0);
        let w = |i: usize, j: usize| &self.w[i * nb + j];
        for c in 0..n {
            let r = row(c);
            for i in (0..nb).filter(|&i| bodies.is_none_or(|b| b[i])) {
                let mut yi = w(i, r.body) * r.j;
                if let OtherPart::Body(o, j) = r.other {
                    yi += w(i, o) * j;
                }
                for k in 0..6 {
                    yt[(6 * i + k) * n + c] = yi[k];
                }
            }
        }
        let line = &mut self.delassus_line;
        line.clear();
        line.resize(2 * n, 0.0);
        let (own, other) = line.split_at_mut(n);
        let out = out.as_mut_slice();
        // Every entry is written below, so stale values of an earlier step never survive.
        for s in 0..n {
            let row = row(s);
            row_times(&row.j, &yt[6 * row.body * n..6 * (row.body + 1) * n], own);
            if let OtherPart::Body(o, j) = row.other {
                row_times(&j, &yt[6 * o * n..6 * (o + 1) * n], other);
                for (v, x) in own.iter_mut().zip(other.iter()) {
                    *v += x;
                }
            }
            for (c, &v) in own.iter().enumerate() {
                out[c * n + s] = v;
            }
        }
        // Free parts: row s meets column c's free body only when both are on the same one.
        for c in 0..n {
            let OtherPart::Free(f, jc) = row(c).other else {
                continue;
            };
            let yf = self.free_inv[f] * jc;
            for s in 0..n {
                if let OtherPart::Free(g, j) = row(s).other
                    && g == f
                {
                    out[c * n + s] += dot6(&j, &yf);
                }
            }
        }
    }

    /// Applies impulses `lambda` (one per stored row): the world-body wrenches go into `a` (added), the free
    /// bodies' velocities change by `W_f·J_fᵀλ` at once.
    pub(super) fn apply(&mut self, lambda: &[f64], a: &mut [Vector6<f64>]) {
        for (r, &l) in lambda.iter().enumerate() {
            if l == 0.0 {
                continue;
            }
            if let Some((f, wrench)) = self.scatter(&self.rows[r], l, a) {
                let dv = self.free_inv[f] * wrench;
                self.free[f].velocity += dv;
            }
        }
    }
}

/// The buffers of [`BlockSolves::blocks`], kept between steps (no allocation once sized).
#[derive(Debug, Clone, Default)]
pub(super) struct BlockSolves {
    unit: Vec<Vector6<f64>>,
    response: Vec<Vector6<f64>>,
    lambda: Vec<f64>,
    zero_b: Vec<f64>,
}

impl BlockSolves {
    /// Adds to `x` and `λ` the response to the wrench `a` on the contact bodies `of` alone:
    /// `[A −Jᵀ; J 0](Δx; Δλ) = (a; 0)`. By linearity this is the solve with the wrench added to the step's (or a
    /// projection's) right-hand side, and the solver only substitutes the fronts the wrench reaches
    /// ([`SaddlePointSolver::solve_response`]): with a prescribed root, the legs that carry it.
    pub(super) fn add_response(
        &mut self,
        solver: &mut dyn SaddlePointSolver,
        a: &[Vector6<f64>],
        of: &[usize],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        // Every entry is written by the solve: only a change of size needs the resize.
        if self.response.len() != x.len() {
            self.response.resize(x.len(), Vector6::zeros());
        }
        if self.lambda.len() != lambda.len() {
            self.lambda.resize(lambda.len(), 0.0);
        }
        solver.solve_response(a, of, &mut self.response, &mut self.lambda);
        for (xi, d) in x.iter_mut().zip(&self.response) {
            *xi += d;
        }
        for (li, d) in lambda.iter_mut().zip(&self.lambda) {
            *li += d;
        }
    }

    /// The blocks `W_ij = (M̃⁻¹)_ij` between the bodies `of` (world indices; `w` row-major over them, resized)
    /// with the joints holding: column `k` of `W_{·j}` is the velocity response to a unit wrench `e_k` on body
    /// `j` (`[A −Jᵀ; J 0](x; λ) = (e_k; 0)`). One [`SaddlePointSolver::inverse_blocks`] pass when the solver has
    /// one (the tree solver: forward along each body's root path, 6 columns at once), else 6 solves per body.
    /// Shared by the LCP's Delassus matrix and the penalty step's Woodbury coupling.
    pub(super) fn blocks(
        &mut self,
        solver: &mut dyn SaddlePointSolver,
        bodies: usize,
        joint_rows: usize,
        of: &[usize],
        w: &mut Vec<Matrix6<f64>>,
    ) {
        let nb = of.len();
        w.clear();
        w.resize(nb * nb, Matrix6::zeros());
        if solver.inverse_blocks(of, w) {
            return;
        }
        self.unit.clear();
        self.unit.resize(bodies, Vector6::zeros());
        self.response.clear();
        self.response.resize(bodies, Vector6::zeros());
        self.lambda.clear();
        self.lambda.resize(joint_rows, 0.0);
        self.zero_b.clear();
        self.zero_b.resize(joint_rows, 0.0);
        for (col, &bj) in of.iter().enumerate() {
            for k in 0..6 {
                self.unit[bj][k] = 1.0;
                solver.solve(
                    &self.unit,
                    &self.zero_b,
                    &mut self.response,
                    &mut self.lambda,
                );
                self.unit[bj][k] = 0.0;
                for (row, &bi) in of.iter().enumerate() {
                    w[row * nb + col].set_column(k, &self.response[bi]);
                }
            }
        }
    }
}

/// Columns summed side by side in [`row_times`] (their sums stay in registers over the six terms).
const LANES: usize = 4;

/// `out[c] = j·y_c` for every column c, where `y` holds six runs of `out.len()` entries (entry k of every
/// column's vector in run k): the sum `dot6` forms, from `+0` in index order, for [`LANES`] columns at once.
// Inlined into the baseline and AVX2 copies of `fill_delassus` (`math::dispatch`).
#[inline(always)]
fn row_times(j: &Vector6<f64>, y: &[f64], out: &mut [f64]) {
    let n = out.len();
    let runs: [&[f64]; 6] = std::array::from_fn(|k| &y[k * n..(k + 1) * n]);
    let whole = n - n % LANES;
    for c in (0..whole).step_by(LANES) {
        let mut acc = [0.0; LANES];
        for (k, run) in runs.iter().enumerate() {
            let jk = j[k];
            for (a, v) in acc.iter_mut().zip(&run[c..c + LANES]) {
                *a += jk * v;
            }
        }
        out[c..c + LANES].copy_from_slice(&acc);
    }
    for c in whole..n {
        let mut v = 0.0;
        for (k, run) in runs.iter().enumerate() {
            v += j[k] * run[c];
        }
        out[c] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::dynamics::{ContactOther, ContactPoint};
    use crate::dynamics::{Body, World};
    use nalgebra::{UnitQuaternion, Vector3};

    /// The blocks of W from sparse solves equal the top-left block of the inverse of the dense saddle-point
    /// matrix (the joints' effective inverse mass), for a chain of three bodies with ball joints and drives; the
    /// Delassus matrix of static, body–body and free-body contacts equals `J W Jᵀ` formed densely.
    #[test]
    fn w_blocks_match_the_dense_inverse() {
        let mut world = World::new();
        for i in 0..3 {
            world.add_body(Body::cylinder_x(1.0 + i as f64, 0.3, 0.04).at(
                Vector3::new(0.3 * i as f64 + 0.15, 1.0, 0.0),
                UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.1 * i as f64),
            ));
        }
        world.add_ball_joint(0, None, Vector3::new(0.0, 1.0, 0.0));
        world.add_ball_joint(1, Some(0), Vector3::new(0.3, 1.0, 0.0));
        world.add_ball_joint(2, Some(1), Vector3::new(0.6, 1.0, 0.0));
        world.step(1e-3).unwrap();
        let sys = world.system().clone();
        let mut solver = crate::dynamics::DenseSolver::default();
        crate::dynamics::SaddlePointSolver::factor(&mut solver, &sys).unwrap();
        let contact = |body| ContactPoint {
            body,
            other: ContactOther::Static,
            point: world.body(body).position,
            other_point: world.body(body).position,
            normal: Vector3::y(),
            friction: 0.5,
            restitution: 0.0,
        };
        let between = ContactPoint {
            other: ContactOther::Body(0),
            normal: Vector3::new(0.3, 0.9, 0.1).normalize(),
            ..contact(2)
        };
        // A free box touching bodies 2 and 0: rows with a free part, two of them on the same free body, so the
        // Delassus matrix has free-body cross terms too.
        let ball = Body::cuboid(0.5, Vector3::new(0.2, 0.15, 0.1)).at(
            Vector3::new(0.5, 1.2, 0.05),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.3),
        );
        let on_ball = |body| ContactPoint {
            other: ContactOther::Free(0),
            other_point: ball.position - Vector3::new(0.0, 0.1, 0.0),
            normal: Vector3::new(-0.2, 1.0, 0.1).normalize(),
            ..contact(body)
        };
        let mut state = ContactState::new();
        state
            .set(
                world.bodies(),
                &[contact(2), contact(0), between, on_ball(2), on_ball(0)],
                std::slice::from_ref(&ball),
            )
            .unwrap();
        state.compute_w(&mut solver, 3, sys.constraint_rows());
        let inverse = sys.to_dense().try_inverse().unwrap();
        // The tree solver's one-pass blocks (root paths only) equal the dense solver's column-by-column ones.
        let by_columns = state.w.clone();
        let mut tree = crate::dynamics::TreeSolver::new();
        crate::dynamics::SaddlePointSolver::factor(&mut tree, &sys).unwrap();
        state.compute_w(&mut tree, 3, sys.constraint_rows());
        for (t, d) in state.w.iter().zip(&by_columns) {
            assert!((t - d).abs().max() <= 1e-10 * d.abs().max().max(1.0));
        }
        for (r, &bi) in state.bodies.iter().enumerate() {
            for (c, &bj) in state.bodies.iter().enumerate() {
                let block = inverse.view((6 * bi, 6 * bj), (6, 6));
                let mine = state.w[r * state.bodies.len() + c];
                assert!(
                    (mine - block).abs().max() <= 1e-9 * block.abs().max().max(1.0),
                    "W[{bi}][{bj}]"
                );
            }
        }
        // The Delassus matrix from the blocks equals J W Jᵀ formed densely (the free box's block is its own
        // inverse mass: it is not jointed to the world bodies).
        for k in 0..5 {
            for d in [
                Vector3::y(),
                Vector3::x(),
                Vector3::new(0.2, -0.5, 0.8).normalize(),
            ] {
                let row = state.row(k, &d, world.bodies(), true);
                state.rows.push(row);
            }
        }
        let mut j = nalgebra::DMatrix::zeros(state.rows.len(), 24);
        let mut free_rows = 0;
        for (r, row) in state.rows.iter().enumerate() {
            let b = state.bodies[row.body];
            j.view_mut((r, 6 * b), (1, 6)).copy_from(&row.j.transpose());
            match row.other {
                OtherPart::Body(o, jo) => {
                    let o = state.bodies[o];
                    j.view_mut((r, 6 * o), (1, 6)).copy_from(&jo.transpose());
                }
                OtherPart::Free(0, jf) => {
                    j.view_mut((r, 18), (1, 6)).copy_from(&jf.transpose());
                    free_rows += 1;
                }
                _ => {}
            }
        }
        assert_eq!(
            free_rows, 6,
            "two contacts with the free box, three directions each"
        );
        let mut w_all = nalgebra::DMatrix::zeros(24, 24);
        w_all
            .view_mut((0, 0), (18, 18))
            .copy_from(&inverse.view((0, 0), (18, 18)));
        w_all
            .view_mut((18, 18), (6, 6))
            .copy_from(&ball.mass_matrix().try_inverse().unwrap());
        let dense = &j * w_all * j.transpose();
        state.fill_delassus();
        let mine = state.delassus.clone();
        assert!(
            (&mine - &dense).abs().max() <= 1e-9 * dense.abs().max(),
            "Delassus off by {}",
            (&mine - &dense).abs().max()
        );
    }
}
