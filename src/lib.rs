//! # flinch
//!
//! Physics-driven mocap middleware: a motion-captured skeleton and clip (BVH, glTF, URDF) become a rigid-body
//! character that replays its clip, reacts physically to hits and returns to the clip (Cline 2002).
//!
//! ## Conventions
//! - SI units: metres, kilograms, seconds, radians. Importers convert.
//! - World frame right-handed, **Y up**, gravity (0, −9.81, 0). Z-up sources are rotated at import.
//! - Quaternions are nalgebra `UnitQuaternion<f64>`.
//! - BVH Euler channels: the rotation is the product in the listed order (`Zrotation Xrotation Yrotation` →
//!   R = Rz·Rx·Ry).
//! - Joint rotation = child relative to parent, relative to the rest (bind) pose.
//!
//! Layers, lowest first: [`math`], [`skeleton`], [`io`]; [`dynamics`] stands beside them and knows nothing of
//! skeletons or files. [`contact`] is the contact subsystem (for now its LCP solvers).

pub mod bake;
pub mod contact;
pub mod control;
pub mod dynamics;
pub mod export;
pub mod io;
pub mod level;
pub mod math;
pub mod model;
pub mod render;
pub mod retarget;
pub mod scene;
pub mod skeleton;
pub mod view_protocol;

/// The CPU and the kernel variant a benchmark runs on, as one line (`math::dispatch::cpu_report`).
pub use math::dispatch::cpu_report;
