//! The contact subsystem (Cline §2.6–2.7, §4.4.2, §4.8).
//!
//! - [`lcp`]: the solver core: Lemke's complementary pivoting method and projected Gauss–Seidel behind one
//!   [`lcp::LcpSolver`] interface, the complementarity checker, and the assembly of the Anitescu–Potra
//!   friction-pyramid LCP.
//! - [`collision`]: collision detection with parry contact manifolds (spheres, capsules, boxes, ground plane),
//!   persistent per pair, within a contact tolerance ε, with pair filtering.
//!
//! - [`ContactWorld`]: a dynamics world with detection in its loop (the contact constraints themselves live in
//!   the step, [`crate::dynamics::contact`]).
//!
//! See `docs/contact.md`.

pub mod collision;
pub mod lcp;
mod stepper;

pub use stepper::{ContactStepError, ContactWorld};
