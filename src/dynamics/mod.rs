//! Maximal-coordinate rigid-body dynamics (Cline 2002, ch. 2–4): bodies, constraints, forces with analytic
//! gradients, the linearly implicit step, post-stabilization, and the solvers. Knows nothing of skeletons or files.
//!
//! Conventions (see `docs/dynamics.md`): twists `(ω; v)` and wrenches `(τ; f)` angular first, in world-aligned
//! frames at each body's CoM; position gradients with respect to twist-coordinate displacements
//! `q ← exp(δθ)·q`, `x ← x + δx`; `J·V` is the rate of `g`.

mod anchor_tree;
pub mod auto_solver;
pub mod body;
pub mod constraint;
pub mod dense_lu;
pub mod force;
pub mod stabilize;
pub mod system;
pub mod tree_solver;
pub mod world;

pub use auto_solver::AutoSolver;
pub use body::Body;
pub use constraint::{
    BallJoint, Constraint, FixedJoint, HingeJoint, Prescribed, Trajectory, UniversalJoint,
};
// The contact step lives with the rest of the contact subsystem (`crate::contact::dynamics`).
pub use crate::contact::dynamics::{
    ContactError, ContactImpulse, ContactOptions, ContactOther, ContactPoint, ContactReport,
    ContactSolver, PenaltyContact, PenaltyOptions,
};
pub use dense_lu::DenseLuSolver;
pub use force::{
    Damping, DriveTorque, Force, ForceEval, ForceFrame, Gravity, JointDrive, PositionSpring,
    UserForce,
};
pub use stabilize::{PostStabReport, Stabilization};
pub use system::{
    BlockSystem, ConstraintBlock, Coupling, DenseSolver, SaddlePointSolver, SolveError,
};
pub use tree_solver::TreeSolver;
pub use world::{
    BodyState, DriveId, Fnv1a, Integrator, PositionUpdate, SpringId, StateError, StepError,
    StepReport, StepScratch, UserForceId, World, WorldState,
};
