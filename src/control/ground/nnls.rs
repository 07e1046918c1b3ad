//! Non-negative least squares for the ground reaction: the solver lives in [`crate::math::nnls`] (with its reused
//! buffers, [`crate::math::nnls::Nnls`]); this path keeps `control::ground::nnls` where it was.

pub use crate::math::nnls::nnls;
