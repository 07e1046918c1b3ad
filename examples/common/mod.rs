//! Shared code of the dynamics experiments: the examples print and plot it, `tests/experiments.rs` asserts it.
#![allow(dead_code)]

pub mod contact_runs;
pub mod experiments;
pub mod mujoco;
pub mod plot;
pub mod rounds;
pub mod stress;
pub mod two_walkers;
pub mod worlds;
