//! The step's scratch: the buffers a step rewrites before it reads them (the block system `[M̃, J]`, the force
//! gradients and the solver's factors), which worlds of one structure can share.
//!
//! A crowd stepped on one thread touches ≈ 90 kB per character and step; 200 characters do not fit in a core's
//! L2, so every step starts by missing on its own buffers (docs/performance.md, "Where a crowd's time goes").
//! Most of those bytes are scratch: nothing in them survives from one step to the next except through the
//! values the step itself writes first. Worlds of one structure (a crowd of one prepared clip) can therefore
//! step with one thread's copy of it, which stays in cache, while their own copies stay untouched. This is
//! MuJoCo's per-thread `mjData` arena and Jolt's per-thread temp allocator, done by exchanging buffers, not by
//! copying them.

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
    pub(super) solver: Box<dyn SaddlePointSolver + Send>,
    /// Whether `solver` is the default [`AutoSolver`]: a solver the user chose is never exchanged.
    pub(super) default_solver: bool,
    /// The structure the buffers are sized for ([`StepScratch::seal`]), compared before an exchange: a short
    /// array read in one go rather than the block headers spread over `sys`'s 20 kB.
    layout: Vec<u32>,
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
            default_solver,
            layout: Vec::new(),
        }
    }

    /// Whether nothing has sized it yet.
    pub(super) fn is_blank(&self) -> bool {
        self.layout.is_empty()
    }

    /// A copy of the buffers with a fresh default solver (its first factorisation analyses the structure).
    pub(super) fn sized_like(&self) -> Self {
        StepScratch {
            sys: self.sys.clone(),
            coupling_fill: self.coupling_fill,
            body_grad: self.body_grad.clone(),
            pair_grad: self.pair_grad.clone(),
            solver: Box::new(AutoSolver::new()),
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
        self.layout.clear();
        self.layout.extend([
            index(sys.diag.len()),
            index(sys.constraints.len()),
            index(sys.couplings.len()),
        ]);
        for c in &sys.constraints {
            let b = c.body_b.map_or(u32::MAX, index);
            self.layout.extend([index(c.rows), index(c.body_a), b]);
        }
        for c in &sys.couplings {
            self.layout.extend([index(c.i), index(c.j)]);
        }
        let flags = (0..sys.diag.len())
            .map(|i| self.body_grad.is_full(i))
            .chain((0..sys.couplings.len()).map(|i| self.pair_grad.is_full(i)));
        let mut word = 0u32;
        for (k, full) in flags.enumerate() {
            word |= u32::from(full) << (k % 32);
            if k % 32 == 31 {
                self.layout.push(std::mem::take(&mut word));
            }
        }
        self.layout.push(word);
    }

    /// Whether both hold the default solver and buffers of one structure: the same bodies, the same constraint
    /// rows between the same bodies, the same coupled pairs in the same order, and the same 3×3 or 6×6 form of
    /// every gradient (an exact comparison of what [`StepScratch::seal`] recorded). Then each can serve the
    /// other's step: a step writes every entry it reads.
    pub(super) fn same_layout(&self, other: &StepScratch) -> bool {
        self.default_solver
            && other.default_solver
            && !self.is_blank()
            && self.layout == other.layout
    }
}
