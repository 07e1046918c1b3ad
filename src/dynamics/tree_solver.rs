//! O(n) solver for tree-structured [`BlockSystem`]s: block LU (LDU) of the saddle-point matrix in leaf-to-root
//! order, after Baraff 96's linear-time Lagrange multipliers, extended to the body–body coupling blocks that
//! joint drives add to the implicit M̃ (Cline eq. 2.53).
//!
//! **Graph.** Nodes are bodies (6×6 pivots) and constraint *groups*: all constraints between one pair of bodies
//! form one joint group, all world constraints of one body form one world group (each ≤ 6 rows, padded to 6×6
//! so every block is a fixed-size `Matrix6`). The world is not a node. Each connected component is rooted at the
//! body with the most world rows (ties: lowest index). Every non-root body `c` then owns a *front* of four slots:
//! `[c, world group of c, joint group to the parent, parent body]`. Eliminating `c`, its world group and its
//! joint group (in that order) only fills blocks inside that front, because the parent joint and the coupling
//! already join all its slots; what is left is a 6×6 update to the parent's pivot. So factor and solve are O(n).
//!
//! **Non-symmetry.** `A` may be non-symmetric and the KKT signs are `[[A, −Jᵀ], [J, 0]]`, so this is LU, not
//! LDLᵀ: lower blocks `F[u][k]` and scaled upper blocks `D_k⁻¹ F[k][u]` are stored separately. Pivots are never
//! exchanged across nodes; inside a pivot block, a fixed-size partial-pivoting Gauss–Jordan inverse is used.
//!
//! **Limits.** Loops (including two bodies joined by constraints with more than 6 rows in total), couplings
//! between bodies no constraint joins, and a non-root body whose world rows plus parent-joint rows exceed 6 (a
//! loop closed through the world, which makes the joint pivot singular in this order) return
//! [`SolveError::Structure`]; use [`super::DenseSolver`] for those. Redundant constraints return
//! [`SolveError::Singular`].
//!
//! **Allocation.** `factor` analyses the structure (which body is whose parent, the order, the groups) and
//! allocates only when the structure differs from the previous call; `factor` and `solve` on an unchanged
//! structure allocate nothing, with one exception: an exact front keeps room for the coupling kind it was analysed
//! with (angular, for a drive, takes a third of a full one's), so a coupling that was zero outside its angular
//! corner at the analysis and is not at a later `factor` grows that front's room once. See docs/tree_solver.md.

use nalgebra::{Matrix6, Vector6};

use super::system::{BlockSystem, SaddlePointSolver, SolveError};
use crate::math::dispatch::with_avx2;

mod analysis;
mod ball;
mod exact;
mod inverse6;
mod plan;
mod root;

use analysis::{Analysis, Signature};
use plan::{BODY, CouplingRef, JOINT, Member, PARENT, Plan, WORLD};

/// Runs `$body` with the const `$n` set to the row count `$r` (1 … 6) of an exact-size front, so each joint
/// size gets its own monomorphised code.
macro_rules! with_rows {
    ($r:expr, $n:ident => $body:expr) => {
        match $r {
            1 => {
                const $n: usize = 1;
                $body
            }
            2 => {
                const $n: usize = 2;
                $body
            }
            3 => {
                const $n: usize = 3;
                $body
            }
            4 => {
                const $n: usize = 4;
                $body
            }
            5 => {
                const $n: usize = 5;
                $body
            }
            _ => {
                const $n: usize = 6;
                $body
            }
        }
    };
}

/// A pivot block whose smallest elimination pivot is below this fraction of the block's largest entry is singular.
const PIVOT_TOL: f64 = 1e-12;

/// Linear-time block-LU solver for systems whose body–constraint graph is a forest.
///
/// Use it like [`super::DenseSolver`]; on [`SolveError::Structure`] fall back to the dense solver.
#[derive(Debug, Default)]
pub struct TreeSolver {
    sig: Option<Signature>,
    plans: Vec<Plan>,
    members: Vec<Member>,
    coupling_refs: Vec<CouplingRef>,
    /// Inverses of all fronts' pivots.
    inv: Vec<Matrix6<f64>>,
    /// `F[u][k]` at the elimination of slot `k`, for every stored pair.
    lower: Vec<Matrix6<f64>>,
    /// `D_k⁻¹ F[k][u]`, for every stored pair.
    upper: Vec<Matrix6<f64>>,
    /// Per position: the body pivot accumulating the children's Schur updates. Only `factor` reads it, so after a
    /// factorisation [`SaddlePointSolver::inverse_blocks`] keeps each body's solution `X` in it (a buffer of its own
    /// would duplicate it).
    acc: Vec<Matrix6<f64>>,
    /// Per position: the body right-hand side accumulating the children's forward updates.
    yb: Vec<Vector6<f64>>,
    /// `D_k⁻¹ w_k` of the forward pass of the padded fronts, at their pivots' indices (as `inv`). An exact front
    /// keeps its `z` in the caller's `x` (body slot) and `λ` (joint rows) instead, which its own backward step
    /// reads just before overwriting them: buffers of their own would duplicate the outputs.
    z: Vec<Vector6<f64>>,
    /// The factors of the exact-size fronts (`exact.rs`), each front at its `pool0`.
    pool: Vec<f64>,
    /// Per position: how an exact front was factored (value-dependent, so set by `factor`).
    layouts: Vec<exact::Layout>,
    /// Scratch of [`SaddlePointSolver::inverse_blocks`] (its `X` is in `acc`): per depth in the tree the forward
    /// results `Z` for the slots (6 right-hand sides at once) of the front at that depth on the current column's
    /// path (a path to the root has one front per depth, so this is as long as the deepest path, not one entry
    /// per body); per position the column whose forward path reached it, and whether a requested body lies
    /// below it.
    blk_z: Vec<[Matrix6<f64>; 3]>,
    blk_col: Vec<usize>,
    blk_need: Vec<bool>,
    /// Fronts whose response to the current column is exactly zero (`block_backward`).
    blk_zero: Vec<bool>,
    /// Position of each body in the elimination order.
    pos_of: Vec<usize>,
    /// A zero constraint right-hand side (the response solve's `b`).
    zero_b: Vec<f64>,
    constraint_rows: usize,
    factored: bool,
}

impl TreeSolver {
    /// An empty solver; the first [`SaddlePointSolver::factor`] analyses the structure.
    pub fn new() -> Self {
        Self::default()
    }

    /// Analyses the structure of `sys` (allocating), or reuses the last analysis when it is unchanged.
    fn analyse(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        if self.sig.as_ref().is_some_and(|s| s.matches(sys)) {
            return Ok(());
        }
        self.sig = None;
        let analysis = Analysis::build(sys)?;
        let len = analysis.plans.len();
        self.plans = analysis.plans;
        self.members = analysis.members;
        self.coupling_refs = analysis.coupling_refs;
        let (mut pivots, mut blocks, mut pool) = (0, 0, 0);
        for pos in 0..len {
            // Room for the layout this system's values give (a drive's coupling is angular: a third of a full
            // one's room; a ball joint's front needs less again).
            let room = self.analysed_room(sys, pos);
            let plan = &mut self.plans[pos];
            if let Some(room) = room {
                plan.exact = plan.joint_rows;
                plan.pool0 = pool;
                plan.room = room;
                pool += room;
            }
            let (p, b) = plan.place(pivots, blocks);
            pivots += p;
            blocks += b;
        }
        self.pool = vec![0.0; pool];
        self.layouts = vec![exact::Layout::General(exact::Kind::None); len];
        // Parents come after their children: descending positions see a parent's depth before its children's.
        for pos in (0..len).rev() {
            self.plans[pos].depth = self.plans[pos]
                .parent
                .map_or(0, |pp| self.plans[pp].depth + 1);
        }
        let depths = self.plans.iter().map(|p| p.depth + 1).max().unwrap_or(0);
        self.blk_z = vec![[Matrix6::zeros(); 3]; depths];
        self.blk_col = vec![usize::MAX; len];
        self.blk_need = vec![false; len];
        self.blk_zero = vec![false; len];
        self.pos_of = vec![0; len];
        for (pos, plan) in self.plans.iter().enumerate() {
            self.pos_of[plan.body] = pos;
        }
        self.inv = vec![Matrix6::zeros(); pivots];
        self.lower = vec![Matrix6::zeros(); blocks];
        self.upper = vec![Matrix6::zeros(); blocks];
        self.acc = vec![Matrix6::zeros(); len];
        self.yb = vec![Vector6::zeros(); len];
        self.z = vec![Vector6::zeros(); pivots];
        self.constraint_rows = sys.constraint_rows();
        self.zero_b = vec![0.0; self.constraint_rows];
        self.sig = Some(Signature::of(sys));
        Ok(())
    }

    /// Factors every front in elimination order, accumulating each one's update into its parent's pivot.
    // Inlined into the solver's baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn factor_fronts(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        for pos in 0..self.plans.len() {
            let plan = &self.plans[pos];
            if plan.exact > 0 {
                // Adds its update to the parent's pivot in place (a returned 6×6 was copied twice on the way).
                with_rows!(plan.exact, R => self.factor_exact::<R>(sys, pos))?;
                continue;
            }
            if plan.square_root() {
                self.factor_square_root(sys, pos)?;
                continue;
            }
            self.factor_padded(sys, pos)?;
        }
        Ok(())
    }

    /// Factors the padded front at `pos` in the thread's front buffer. Out of line: the thread-local access is a
    /// closure, which the exact fronts' loop above must not sit in (it would leave the AVX2 copy).
    fn factor_padded(&mut self, sys: &BlockSystem, pos: usize) -> Result<(), SolveError> {
        // One front buffer for all padded fronts: assembled in place rather than returned (4.6 kB per copy).
        FRONT.with(|front| {
            let f = &mut *front.borrow_mut();
            self.assemble(sys, pos, f);
            let update = self.eliminate(pos, f)?;
            if let Some(pp) = self.plans[pos].parent {
                self.acc[pp] += update;
            }
            Ok(())
        })
    }

    /// Assembles the front of the body at `pos` from `sys` and the accumulated pivot.
    fn assemble(&self, sys: &BlockSystem, pos: usize, f: &mut [[Matrix6<f64>; 4]; 4]) {
        let plan = &self.plans[pos];
        for row in f.iter_mut() {
            row.fill(Matrix6::zeros());
        }
        f[BODY][BODY] = self.acc[pos];
        for m in &self.members[plan.world.0..plan.world.1] {
            let jc = &sys.constraints[m.con].ja;
            for i in 0..m.rows {
                for j in 0..6 {
                    f[WORLD][BODY][(m.row0 + i, j)] = jc[(i, j)];
                    f[BODY][WORLD][(j, m.row0 + i)] = -jc[(i, j)];
                }
            }
        }
        for m in &self.members[plan.joint.0..plan.joint.1] {
            let c = &sys.constraints[m.con];
            let (jc, jp) = if m.child_is_a {
                (&c.ja, &c.jb)
            } else {
                (&c.jb, &c.ja)
            };
            for i in 0..m.rows {
                for j in 0..6 {
                    f[JOINT][BODY][(m.row0 + i, j)] = jc[(i, j)];
                    f[BODY][JOINT][(j, m.row0 + i)] = -jc[(i, j)];
                    f[JOINT][PARENT][(m.row0 + i, j)] = jp[(i, j)];
                    f[PARENT][JOINT][(j, m.row0 + i)] = -jp[(i, j)];
                }
            }
        }
        for r in &self.coupling_refs[plan.couplings.0..plan.couplings.1] {
            let c = &sys.couplings[r.idx];
            let (cp, pc) = if r.child_is_i {
                (&c.a_ij, &c.a_ji)
            } else {
                (&c.a_ji, &c.a_ij)
            };
            f[BODY][PARENT] += cp;
            f[PARENT][BODY] += pc;
        }
    }

    /// Eliminates the first three slots of the front at `pos`, stores the factors and returns the update to
    /// the parent's pivot.
    fn eliminate(
        &mut self,
        pos: usize,
        f: &mut [[Matrix6<f64>; 4]; 4],
    ) -> Result<Matrix6<f64>, SolveError> {
        let plan = &self.plans[pos];
        let present = plan.present();
        let active = [6, plan.world_rows, plan.joint_rows, 6];
        for k in 0..3 {
            if !present[k] {
                continue;
            }
            let inv = invert_pivot(&mut f[k][k], active[k]).ok_or_else(|| singular(plan, k))?;
            for u in k + 1..4 {
                if present[u] {
                    self.upper[plan.block(k, u)] = inv * f[k][u];
                    self.lower[plan.block(k, u)] = f[u][k];
                }
            }
            for u in k + 1..4 {
                if !present[u] {
                    continue;
                }
                for v in k + 1..4 {
                    if present[v] {
                        let update = f[u][k] * self.upper[plan.block(k, v)];
                        f[u][v] -= update;
                    }
                }
            }
            self.inv[plan.inverse(k)] = inv;
        }
        Ok(f[PARENT][PARENT])
    }
}

/// Pads the unused rows/columns of a pivot block with its own scale and inverts it; every elimination pivot
/// must exceed [`PIVOT_TOL`] times the block's largest entry. `None` when singular (or not finite).
fn invert_pivot(block: &mut Matrix6<f64>, active: usize) -> Option<Matrix6<f64>> {
    // The whole block by the four-maxima `amax` (the same value as nalgebra's fold, several times cheaper).
    let scale = if active == 6 {
        inverse6::amax(block.as_slice())
    } else {
        block.view((0, 0), (active, active)).amax()
    };
    // Padding with the block's own scale keeps the padded block as well conditioned as the active part; the
    // padded unknowns have zero right-hand sides, so they stay zero and leave the active ones untouched.
    let pad = if scale > 0.0 { scale } else { 1.0 };
    for i in active..6 {
        block[(i, i)] = pad;
    }
    inverse6::invert(block, PIVOT_TOL * scale)
}

fn singular(plan: &Plan, slot: usize) -> SolveError {
    SolveError::Singular(match slot {
        BODY => format!("pivot of body {} is singular (massless body?)", plan.body),
        WORLD => format!(
            "world constraints on body {} are redundant ({} rows)",
            plan.body, plan.world_rows
        ),
        _ => format!(
            "constraints between body {} and its parent ({} rows) are redundant",
            plan.body, plan.joint_rows
        ),
    })
}

thread_local! {
    /// The padded fronts' work buffer (4.6 kB), one per thread and shared by every solver on it: zeroing a fresh
    /// one on the stack for every `factor` cost as much as a front's factorisation (`assemble` clears what a
    /// front uses anyway), and one per solver added 4.6 kB to every character (issue 12's 100 kB budget).
    /// Allocated at a thread's first factorisation; `factor` is not re-entrant, so the borrow never clashes.
    static FRONT: std::cell::RefCell<Box<[[Matrix6<f64>; 4]; 4]>> =
        std::cell::RefCell::new(Box::new([[Matrix6::zeros(); 4]; 4]));
}

impl TreeSolver {
    /// [`SaddlePointSolver::factor`]'s body, inlined into its baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn factor_kernel(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        self.factored = false;
        self.analyse(sys)?;
        for (pos, plan) in self.plans.iter().enumerate() {
            self.acc[pos] = sys.diag[plan.body];
        }
        self.factor_fronts(sys)?;
        self.factored = true;
        Ok(())
    }

    /// [`SaddlePointSolver::inverse_blocks`]'s body, inlined into its baseline and AVX2 copies.
    #[inline(always)]
    fn inverse_blocks_kernel(&mut self, bodies: &[usize], out: &mut [Matrix6<f64>]) -> bool {
        let n = self.plans.len();
        let nb = bodies.len();
        if !self.factored || out.len() != nb * nb || bodies.iter().any(|&b| b >= n) {
            return false;
        }
        self.mark_root_paths(bodies);
        self.blk_col.fill(usize::MAX);
        for (col, &bj) in bodies.iter().enumerate() {
            self.block_forward(self.pos_of[bj], col);
            // Parents come after their children in the elimination order: descending positions go root-first.
            for pos in (0..n).rev() {
                if self.blk_need[pos] {
                    self.block_backward(pos, col);
                }
            }
            for (row, &bi) in bodies.iter().enumerate() {
                out[row * nb + col] = self.acc[self.pos_of[bi]];
            }
        }
        true
    }

    /// Sets `blk_need` for the fronts on the paths from `bodies` (valid body indices) to their roots.
    #[inline(always)]
    fn mark_root_paths(&mut self, bodies: &[usize]) {
        self.blk_need.fill(false);
        for &b in bodies {
            let mut p = Some(self.pos_of[b]);
            while let Some(q) = p {
                if self.blk_need[q] {
                    break;
                }
                self.blk_need[q] = true;
                p = self.plans[q].parent;
            }
        }
    }

    /// Whether a solve can run: a current factorisation, `a` and `x` one entry per body, `λ` one per constraint
    /// row, and the caller's own condition `more`. Otherwise `x` and `λ` are filled with NaN.
    #[inline(always)]
    fn solvable(
        &self,
        a: &[Vector6<f64>],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
        more: bool,
    ) -> bool {
        let n = self.plans.len();
        let fits = a.len() == n && x.len() == n && lambda.len() == self.constraint_rows;
        if self.factored && fits && more {
            return true;
        }
        x.fill(Vector6::repeat(f64::NAN));
        lambda.fill(f64::NAN);
        false
    }

    /// [`SaddlePointSolver::solve`]'s body, inlined into its baseline and AVX2 copies (`math::dispatch`).
    #[inline(always)]
    fn solve_kernel(
        &mut self,
        a: &[Vector6<f64>],
        b: &[f64],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        let n = self.plans.len();
        if !self.solvable(a, x, lambda, b.len() == self.constraint_rows) {
            return;
        }
        for (pos, plan) in self.plans.iter().enumerate() {
            self.yb[pos] = a[plan.body];
        }
        for pos in 0..n {
            self.forward_front(pos, b, x, lambda);
        }
        for pos in (0..n).rev() {
            self.backward_front(pos, x, lambda);
        }
    }
}

impl SaddlePointSolver for TreeSolver {
    fn factor(&mut self, sys: &BlockSystem) -> Result<(), SolveError> {
        with_avx2!((solver: &mut TreeSolver = self, sys: &BlockSystem = sys) -> Result<(), SolveError> {
            solver.factor_kernel(sys)
        })
    }

    /// One multi-right-hand-side pass per requested body instead of six solves: the unit wrenches on a body
    /// only reach the fronts on its path to the root in the forward pass, and the blocks are only needed at the
    /// requested bodies, so the backward pass runs over the union of their root paths. The six columns ride
    /// together as 6×6 blocks. With 2 feet of a 19-body character this touches about a third of the fronts of a
    /// full solve per column, and does it for 6 columns at once.
    fn inverse_blocks(&mut self, bodies: &[usize], out: &mut [Matrix6<f64>]) -> bool {
        with_avx2!((
            solver: &mut TreeSolver = self,
            bodies: &[usize] = bodies,
            out: &mut [Matrix6<f64>] = out,
        ) -> bool {
            solver.inverse_blocks_kernel(bodies, out)
        })
    }

    /// Solves with the last factorisation. With no valid factorisation, or slices whose lengths do not match
    /// the factored system, `x` and `lambda` are filled with NaN.
    fn solve(&mut self, a: &[Vector6<f64>], b: &[f64], x: &mut [Vector6<f64>], lambda: &mut [f64]) {
        with_avx2!((
            solver: &mut TreeSolver = self,
            a: &[Vector6<f64>] = a,
            b: &[f64] = b,
            x: &mut [Vector6<f64>] = x,
            lambda: &mut [f64] = lambda,
        ) -> () {
            solver.solve_kernel(a, b, x, lambda)
        })
    }

    /// Only the fronts on the sources' paths to their roots, and those below them that move, are substituted
    /// (`substitution.rs`): the rest of the tree gets exact zeros.
    fn solve_response(
        &mut self,
        a: &[Vector6<f64>],
        sources: &[usize],
        x: &mut [Vector6<f64>],
        lambda: &mut [f64],
    ) {
        with_avx2!((
            solver: &mut TreeSolver = self,
            a: &[Vector6<f64>] = a,
            sources: &[usize] = sources,
            x: &mut [Vector6<f64>] = x,
            lambda: &mut [f64] = lambda,
        ) -> () {
            solver.response_kernel(a, sources, x, lambda)
        })
    }
}

/// A group's right-hand side, padded with zeros.
fn gather(members: &[Member], b: &[f64]) -> Vector6<f64> {
    let mut v = Vector6::zeros();
    for m in members {
        v.as_mut_slice()[m.row0..m.row0 + m.rows]
            .copy_from_slice(&b[m.lambda0..m.lambda0 + m.rows]);
    }
    v
}

/// A group's multipliers written back to λ.
fn scatter(members: &[Member], v: &Vector6<f64>, lambda: &mut [f64]) {
    for m in members {
        lambda[m.lambda0..m.lambda0 + m.rows]
            .copy_from_slice(&v.as_slice()[m.row0..m.row0 + m.rows]);
    }
}

// After `with_rows!` (macros are in scope below their definition only).
mod substitution;
mod sweeps;

#[cfg(test)]
mod tests;
