//! The mocap-driven character (Cline 2002 ch. 5): preprocessing of a clip into a reference motion with
//! inverse-dynamics feedforward torques, and the runtime [`Character`] that tracks it with |τ|-scaled feedback.
//! See `docs/control.md`.

pub mod character;
pub mod discrete;
mod evaluate;
pub mod filter;
pub mod gains;
pub mod ground;
pub mod inverse;
mod inverse_pass;
pub mod kinematics;
pub mod metrics;
mod parallel;
mod pose_coords;
pub mod recorder;
pub mod reference;
mod residual;
mod sampling;
pub mod stream;

pub use character::{BalanceConfig, FallEvent, FallPhase, ProtectConfig};
pub use character::{
    Character, CharacterConfig, CharacterError, CharacterState, ControlTerms, FaultEvent,
    FaultKind, FreeRootFigures, GetUpConfig, GuardConfig, PreparedClip, RootConfig, RootEvent,
    RootPolicy, RootState,
};
pub use evaluate::{evaluate, evaluate_streamed};
pub use gains::{Gains, JointGains, subtree_loads};
pub use inverse::{JointWrenches, dense_oracle, newton_euler};
pub use inverse_pass::ContinuousInverseDynamics;
pub use kinematics::{BodyKinematics, BodyPose, GeneralizedState, Placement, Topology};
pub use metrics::{EvalOptions, Evaluation, Hit, HitFigures, JointError};
pub use recorder::{ImpulseWork, RETURN_BAND_DEG, Recorder};
pub use reference::{Dofs, GRAVITY, PreprocessConfig, ReferenceError, ReferenceMotion};
pub use stream::PoseVelocities;
