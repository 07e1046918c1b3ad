//! The contact subsystem (Cline §2.6–2.7, §4.4.2, §4.8).
//!
//! For now it holds only the solver core, [`lcp`]: Lemke's complementary pivoting method and projected
//! Gauss–Seidel behind one [`lcp::LcpSolver`] interface, the complementarity checker, and the assembly of the
//! Anitescu–Potra friction-pyramid LCP. Collision detection and the coupling with the step loop come later and
//! plug into these solvers. See `docs/contact.md`.

pub mod lcp;
