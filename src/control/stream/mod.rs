//! Streamed targets: a character driven by poses an engine pushes every frame instead of a preprocessed clip.
//!
//! The feedforward is computed **online** by the same discrete-step inverse dynamics as the preprocessing
//! ([`super::discrete`]), on a ring of three generalized poses: `P_{k−1}` and `P_k` (reached) give the twists the
//! character has at `k` (the chord of the last step), `P_k` and the new target `P_{k+1}` the twists the step must
//! land with. Velocities and accelerations are therefore the finite differences the step itself integrates, and
//! an unperturbed character lands on every target it is given. See `docs/engine.md`.

mod blend_run;
mod library;
pub(crate) mod online;
mod root;
mod state;

pub use blend_run::{PlayerRun, run_player};
pub use library::{ClipLibrary, ClipPlayer, LibraryError};

pub(crate) use root::{RootSegment, RootTrack};
pub(crate) use state::{GenPose, Stream};

use nalgebra::Vector3;

/// Default time constant (s) of the low-pass through which a streamed character's gains follow its feedforward.
///
/// Streamed poses are not filtered (a filter would delay the targets), so the finite-difference accelerations
/// of raw motion capture carry its noise into the feedforward. The feedforward itself must stay exact (it is
/// what lands the step on the target), but the stiffness need not follow every spike: muscle activation has a
/// time constant of tens of milliseconds too. 50 ms.
pub const GAIN_TIME_CONSTANT_S: f64 = 0.05;

/// Velocities of a target pose, as an animation system knows them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PoseVelocities {
    /// Root joint translation velocity (m/s, in the root joint's parent frame, as the pose's translation).
    pub root_linear: Vector3<f64>,
    /// Per skeleton joint: angular velocity of the local rotation, in the joint's own rotated frame
    /// (`q(t + dt) ≈ q(t)·exp(dt·ω)`, rad/s); the root's is its world rotation's.
    pub angular: Vec<Vector3<f64>>,
}
