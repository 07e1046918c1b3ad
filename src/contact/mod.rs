//! The contact subsystem (Cline §2.6–2.7, §4.4.2, §4.8), one module tree:
//!
//! - [`collision`]: collision detection with parry contact manifolds (spheres, capsules, boxes, ground plane),
//!   persistent per pair, within a contact tolerance ε, with pair filtering.
//! - [`lcp`]: the solver core: Lemke's complementary pivoting method and projected Gauss–Seidel behind one
//!   [`lcp::LcpSolver`] interface, the complementarity checker, and the assembly of the Anitescu–Potra
//!   friction-pyramid LCP.
//! - [`dynamics`]: contacts in the implicit step: contact points, their Jacobian rows, the contact-space inverse
//!   mass through the joint factorisation, the velocity LCP, post-stabilization pushes, penalty contacts. The
//!   dynamics world calls it through the types re-exported at [`crate::dynamics`] (`ContactPoint`,
//!   `ContactOptions`, …) and the step's crate-internal entry points.
//! - [`ContactWorld`]: a dynamics world with detection in its loop.
//!
//! See `docs/contact.md`.

pub mod collision;
pub mod dynamics;
pub mod lcp;
mod stepper;

pub use stepper::{ContactStepError, ContactWorld};
