//! The ground a clip is walked over when it is not the flat floor fitted to the clip: stairs, slopes, a level's
//! colliders (issue 38 item 5, `docs/world.md`, "Walking the clip over uneven ground").

use nalgebra::Vector3;

/// How high the ground is under a point. [`crate::level::Level`] answers it from its colliders.
pub trait Terrain: Send + Sync + std::fmt::Debug {
    /// Height (m, world y) of the walkable ground under `p`'s horizontal position, found at most
    /// [`STEP_REACH_M`] above `p` and [`DROP_REACH_M`] below it; `None` where there is none (the flat floor is
    /// used there).
    fn ground_height(&self, p: &Vector3<f64>) -> Option<f64>;
}

/// How far above a foot the ground under it is searched (m): a step or a kerb a foot can be lifted onto, not a
/// table top (0.75 m in the sample level) the clip walks beside.
pub const STEP_REACH_M: f64 = 0.5;

/// Highest ground above a foot a [`crate::level::Level`] looks for when its first ray starts inside a collider
/// (m).
pub const MAX_CLIMB_M: f64 = 2.0;

/// How far below a foot the ground under it is searched (m).
pub const DROP_REACH_M: f64 = 1.5;

/// Steepest ground a foot stands on (the up component of its normal): steeper faces (a riser hit by a grazing
/// ray, a wall) are not ground.
pub const MIN_GROUND_NORMAL_Y: f64 = 0.5;
