//! Mathematics shared by every layer: rotations (Euler orders, quaternion exp/log) and, for the dynamics,
//! spatial algebra (twists and wrenches, angular first).

pub mod dispatch;
pub mod nnls;
pub mod rotation;
pub(crate) mod small;
pub mod spatial;

pub use rotation::{
    Axis, EulerOrder, axis_rotation, exp_rotation, log_rotation, rotation_distance, same_hemisphere,
};
