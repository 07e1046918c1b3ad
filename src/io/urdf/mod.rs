//! URDF import: a robot description becomes a flinch [`Skeleton`](crate::skeleton::Skeleton) (one joint per
//! link, synthesized channels), a one-frame rest [`Clip`] and a [`UrdfModel`] with the
//! physical properties (masses, centres of mass, inertia tensors in link frames, primitive collision shapes,
//! joint kinds, axes and limits) that the `model` layer adopts.
//!
//! Parsing goes through `rapier3d_urdf::urdf_rs` (urdf-rs 0.9), which understands Bullet's `spherical` joints
//! and `<capsule>` geometry. Everything after parsing is flinch's own: rapier's multibody conversion is not
//! used (it also ignores the inertial frame's rotation, which flinch applies as R·I·Rᵀ).
//!
//! Conventions (details in `docs/urdf.md`):
//! - Skeleton joint `i` is link `i` of [`UrdfModel::links`]: root first, parents before children. Its
//!   `offset` is the URDF joint's `<origin xyz>`, its `rest_rotation` the `<origin rpy>` (R = Rz·Ry·Rx).
//! - Channels: root and floating → `Xposition Yposition Zposition Zrotation Yrotation Xrotation`; spherical →
//!   `Zrotation Yrotation Xrotation`; revolute/continuous → one rotation about the axis's dominant coordinate;
//!   prismatic → one position along it (in the parent frame); planar → two positions + one rotation; fixed → none.
//! - Units: URDF is metres; `ImportOptions::unit` rescales lengths (inertias by its square, masses kept). A rest
//!   pose taller than [`PLAUSIBLE_HEIGHT_MAX`] warns instead of rescaling.
//! - Up axis: detected from the rest pose (z extent > [`Z_UP_DOMINANCE`] × y extent → Z up); a Z-up file gets
//!   the rotation (x, y, z) → (x, z, −y) as the root's rest rotation only, so link-frame data stay as in the file.

mod build;
mod error;
mod links;
mod locate;
mod model;
mod text;
mod tree;

use std::path::Path;

pub use build::{PLAUSIBLE_HEIGHT_MAX, Z_UP_DOMINANCE, detect_up_axis, rest_extent, z_up_to_y_up};
pub use error::UrdfError;
pub use model::{
    CollisionShape, JointKind, JointLimits, ShapeKind, UrdfJoint, UrdfLink, UrdfModel,
    inertia_problem, rotate_inertia, triangle_violation,
};

use nalgebra::UnitQuaternion;

use crate::io::{ImportOptions, ImportReport, Imported, LengthUnit, Limits, UpAxis};
use crate::skeleton::{Clip, Pose, Skeleton};

/// Frame time of the one-frame rest clip (s); a URDF has no motion, any positive value would do.
pub const REST_FRAME_TIME: f64 = 1.0 / 30.0;

/// The result of a URDF import: the kinematic side (skeleton, rest clip, report) and the physical side.
#[derive(Debug, Clone)]
pub struct UrdfImport {
    /// Skeleton, one-frame rest clip and the import report (format `urdf`).
    pub imported: Imported,
    /// Masses, inertias, shapes, joint kinds, axes and limits, indexed like the skeleton's joints.
    pub model: UrdfModel,
}

/// Imports URDF bytes.
///
/// `opts.unit` rescales lengths (default: metres, as the URDF spec says); `opts.up_axis` overrides the
/// detection. Other options do not apply to URDF. Never panics on bad input: every problem is a [`UrdfError`]
/// naming the link, joint or byte at fault.
pub fn import(bytes: &[u8], opts: &ImportOptions) -> Result<UrdfImport, UrdfError> {
    let mut report = ImportReport::new("urdf");
    let unit = opts.unit.unwrap_or(LengthUnit::Metre);
    let scale = unit.to_metres();
    if !(scale.is_finite() && scale > 0.0) {
        return Err(UrdfError::Option {
            what: format!("unit factor {scale} must be a finite positive number"),
        });
    }
    report.unit = unit;

    let text = text::clean_text(bytes, &mut report.warnings)?;
    let limits = &opts.limits;
    // <robot> and a link's <collision><geometry><box/> add a few levels above the link chain's own depth
    // (which URDF does not nest: links and joints are siblings).
    text::check_nesting(text, limits.max_depth.saturating_add(8))?;
    let robot = text::parse_robot(text)?;
    if robot.links.len() > limits.max_joints {
        return Err(UrdfError::structure(Limits::exceeded(
            format!("{} links", robot.links.len()),
            "max_joints",
            limits.max_joints,
        )));
    }
    if robot.joints.len() > limits.max_nodes {
        return Err(UrdfError::structure(Limits::exceeded(
            format!("{} joints", robot.joints.len()),
            "max_nodes",
            limits.max_nodes,
        )));
    }
    let mut model = build::build_model(&robot, scale, &mut report.warnings)?;

    let extent = rest_extent(&model);
    let up = opts.up_axis.unwrap_or_else(|| detect_up_axis(&extent));
    report.up_axis = up;
    report.up_inferred = opts.up_axis.is_none();
    model.up_rotation = match up {
        UpAxis::Y => UnitQuaternion::identity(),
        UpAxis::Z => z_up_to_y_up(),
    };
    let height = match up {
        UpAxis::Y => extent.y,
        UpAxis::Z => extent.z,
    };
    if opts.unit.is_none() && height > PLAUSIBLE_HEIGHT_MAX {
        report.warnings.push(format!(
            "rest pose is {height:.2} m tall along {up}: larger than a human (URDF is metres by spec; \
             DeepMimic's humanoid is about 4x scale); not rescaled, pass a Custom unit to rescale"
        ));
    }

    let skeleton = build::build_skeleton(&model, &mut report.warnings)?;
    check_chain_depth(&skeleton, limits.max_depth)?;
    let clip = Clip {
        frame_time: REST_FRAME_TIME,
        frames: vec![Pose::rest(&skeleton)],
    };
    Ok(UrdfImport {
        imported: Imported {
            skeleton,
            clip,
            report,
        },
        model,
    })
}

/// Rejects link chains deeper than `max_depth` (parents come first in the skeleton, so one pass).
fn check_chain_depth(skeleton: &Skeleton, max_depth: usize) -> Result<(), UrdfError> {
    let mut depth: Vec<usize> = Vec::with_capacity(skeleton.len());
    for joint in &skeleton.joints {
        let d = joint
            .parent
            .and_then(|p| depth.get(p).copied())
            .unwrap_or(0)
            + 1;
        if d > max_depth {
            return Err(UrdfError::link(
                &joint.name,
                Limits::exceeded(format!("link chain depth {d}"), "max_depth", max_depth),
            ));
        }
        depth.push(d);
    }
    Ok(())
}

/// Reads and imports a URDF file; errors carry the path.
pub fn import_file(path: impl AsRef<Path>, opts: &ImportOptions) -> Result<UrdfImport, UrdfError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| UrdfError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    import(&bytes, opts).map_err(|e| UrdfError::InFile {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}
