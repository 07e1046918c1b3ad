//! Maximal-coordinate rigid-body dynamics (Cline 2002, ch. 2–4): bodies, constraints, forces with analytic
//! gradients, the linearly implicit step, post-stabilization, and the solvers. Knows nothing of skeletons or files.

pub mod system;
pub mod tree_solver;

pub use system::{
    BlockSystem, ConstraintBlock, Coupling, DenseSolver, SaddlePointSolver, SolveError,
};
pub use tree_solver::TreeSolver;
