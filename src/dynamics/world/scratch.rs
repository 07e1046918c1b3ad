//! The step's scratch: the buffers a step rewrites before it reads them (the block system `[M̃, J]`, the force
//! gradients, the solver's factors, the wrenches, inertias and right-hand sides), which worlds of one structure
//! can share.
//!
//! A crowd stepped on one thread touches ≈ 90 kB per character and step; 200 characters do not fit in a core's
//! L2, so every step starts by missing on its own buffers (docs/performance.md, "Where a crowd's time goes").
//! Most of those bytes are scratch: nothing in them survives from one step to the next except through the
//! values the step itself writes first. Worlds of one structure (a crowd of one prepared clip) can therefore
//! step with one thread's copy of it, which stays in cache, while their own copies stay untouched. This is
//! MuJoCo's per-thread `mjData` arena and Jolt's per-thread temp allocator, done by exchanging buffers, not by
//! copying them.

use std::sync::Arc;

use nalgebra::{Matrix3, Vector6};

use super::grad::GradStore;
use crate::dynamics::auto_solver::AutoSolver;
use crate::dynamics::system::{BlockSystem, SaddlePointSolver};

/// Scratch buffers of [`super::World::step`], sized for one structure. Hand one per thread to
/// [`super::World::exchange_scratch`] around each step of many worlds of one structure; an empty
/// ([`StepScratch::default`]) one takes the sizes of the first world it meets.
pub struct StepScratch {
    /// `[M̃, J]` of the step (or `[M, J]` of the last projection).
    pub(super) sys: BlockSystem,
    /// The bits of the value every angular coupling block of `sys` holds outside its corner, when known: the
    /// implicit step's `0·(−h²) − 0·h`, the same every step, so a step rewrites only the corners (9 entries of a
    /// block's 36). `None` after anything else wrote the blocks. It describes `sys`'s contents, so it travels
    /// with them.
    pub(super) coupling_fill: Option<u64>,
    /// Per body `[∂f/∂p, ∂f/∂v]`.
    pub(super) body_grad: GradStore<2>,
    /// Per coupling slot the cross blocks.
    pub(super) pair_grad: GradStore<4>,
    /// The solver, holding the factors of the last factorisation.
    pub(super) solver: Box<dyn SaddlePointSolver + Send>,
    /// Per body the step's force and torque `f`.
    pub(super) wrench: Vec<Vector6<f64>>,
    /// World inertia `R I Rᵀ` of each body at the start of the step (gyroscopic terms and mass matrix).
    pub(super) inertia: Vec<Matrix3<f64>>,
    /// The step's momentum right-hand side; zeroed after the velocity solve to serve as post-stabilization's
    /// `a = 0` (a buffer of its own would only hold zeros).
    pub(super) rhs_a: Vec<Vector6<f64>>,
    /// The constraint rows' right-hand side `b` (the step's velocity targets, then the projections' `−g`).
    pub(super) b: Vec<f64>,
    /// Whether `solver` is the default [`AutoSolver`]: a solver the user chose is never exchanged.
    pub(super) default_solver: bool,
    /// The structure the buffers are sized for ([`StepScratch::seal`]), compared before an exchange: a short
    /// array read in one go rather than the block headers spread over `sys`'s 20 kB. Scratches found equal then
    /// share one array ([`StepScratch::share_layout`]), so later comparisons are a pointer test that reads
    /// nothing of the world's own (cold) memory. `None` until sized (a new world allocates nothing for it).
    layout: Option<Arc<[u32]>>,
}

impl Default for StepScratch {
    fn default() -> Self {
        Self::with_solver(Box::new(AutoSolver::new()), true)
    }
}

impl std::fmt::Debug for StepScratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StepScratch")
            .field("bodies", &self.sys.diag.len())
            .field("constraints", &self.sys.constraints.len())
            .field("couplings", &self.sys.couplings.len())
            .field("default_solver", &self.default_solver)
            .finish_non_exhaustive()
    }
}

impl StepScratch {
    pub(super) fn with_solver(
        solver: Box<dyn SaddlePointSolver + Send>,
        default_solver: bool,
    ) -> Self {
        StepScratch {
            sys: BlockSystem::default(),
            coupling_fill: None,
            body_grad: GradStore::default(),
            pair_grad: GradStore::default(),
            solver,
            wrench: Vec::new(),
            inertia: Vec::new(),
            rhs_a: Vec::new(),
            b: Vec::new(),
            default_solver,
            layout: None,
        }
    }

    /// Whether nothing has sized it yet.
    pub(super) fn is_blank(&self) -> bool {
        self.layout.is_none()
    }

    /// A copy of the buffers with a fresh default solver (its first factorisation analyses the structure).
    pub(super) fn sized_like(&self) -> Self {
        StepScratch {
            sys: self.sys.clone(),
            coupling_fill: self.coupling_fill,
            body_grad: self.body_grad.clone(),
            pair_grad: self.pair_grad.clone(),
            solver: Box::new(AutoSolver::new()),
            wrench: self.wrench.clone(),
            inertia: self.inertia.clone(),
            rhs_a: self.rhs_a.clone(),
            b: self.b.clone(),
            default_solver: true,
            layout: self.layout.clone(),
        }
    }

    /// Records the structure the buffers were just sized for: the counts of bodies, constraints and coupled
    /// pairs, each constraint's rows and bodies, each pair's bodies, and which gradients are full 6×6 blocks
    /// (a bit per body, then per pair). Called by `World::prepare`, the only place that sizes them.
    pub(super) fn seal(&mut self) {
        let sys = &self.sys;
        let index = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        let words = 3 + 3 * sys.constraints.len() + 2 * sys.couplings.len();
        let mut layout =
            Vec::with_capacity(words + (sys.diag.len() + sys.couplings.len()) / 32 + 1);
        layout.extend([
            index(sys.diag.len()),
            index(sys.constraints.len()),
            index(sys.couplings.len()),
        ]);
        for c in &sys.constraints {
            let b = c.body_b.map_or(u32::MAX, index);
            layout.extend([index(c.rows), index(c.body_a), b]);
        }
        for c in &sys.couplings {
            layout.extend([index(c.i), index(c.j)]);
        }
        let flags = (0..sys.diag.len())
            .map(|i| self.body_grad.is_full(i))
            .chain((0..sys.couplings.len()).map(|i| self.pair_grad.is_full(i)));
        let mut word = 0u32;
        for (k, full) in flags.enumerate() {
            word |= u32::from(full) << (k % 32);
            if k % 32 == 31 {
                layout.push(std::mem::take(&mut word));
            }
        }
        layout.push(word);
        self.layout = Some(layout.into());
    }

    /// Whether both hold the default solver and buffers of one structure: the same bodies, the same constraint
    /// rows between the same bodies, the same coupled pairs in the same order, and the same 3×3 or 6×6 form of
    /// every gradient (an exact comparison of what [`StepScratch::seal`] recorded). Then each can serve the
    /// other's step: a step writes every entry it reads.
    pub(super) fn same_layout(&self, other: &StepScratch) -> bool {
        self.default_solver
            && other.default_solver
            && match (&self.layout, &other.layout) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
                _ => false,
            }
    }

    /// After [`StepScratch::same_layout`] found them equal: both keep one array (the other's is dropped).
    pub(super) fn share_layout(&mut self, other: &StepScratch) {
        if let (Some(a), Some(b)) = (&self.layout, &other.layout)
            && !Arc::ptr_eq(a, b)
        {
            self.layout = Some(Arc::clone(b));
        }
    }
}
