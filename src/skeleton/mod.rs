//! Skeleton and clip: pure data, no physics, no file formats.
//!
//! A [`Skeleton`] is a joint tree (names, parents, rest offsets, channel layouts, end sites). A [`Clip`] is a
//! sequence of [`Pose`]s at a fixed frame time. Units are metres and radians, Y up (importers convert).

mod clip;
mod joint_tree;
mod looped;
mod measure;
pub mod roles;
pub mod stance;

pub use clip::{Clip, Pose, slerp_short};
pub use joint_tree::{Channel, Joint, Skeleton, SkeletonError};
pub use measure::{extent, pose_points, rest_height, rest_points};
pub use stance::StanceThresholds;
