//! From the raw document (file units, file axes, degrees) to a [`Skeleton`] and [`Clip`] in metres, Y up,
//! radians.
//!
//! Joint local transform = T(offset + position-channel values) · R(product of the rotation channels in listed
//! order). Position channels *add* to the OFFSET (Blender's convention, which the MakeHuman files rely on).

use nalgebra::{UnitQuaternion, Vector3};

use super::hierarchy::RawJoint;
use super::units::{
    detect_up_axis, extent, infer_unit, looks_like_cgspeed_cmu, rest_points, to_y_up,
};
use super::{BvhDocument, BvhError, tpose};
use crate::io::{ImportOptions, ImportReport, Imported, UpAxis};
use crate::math::axis_rotation;
use crate::skeleton::{Channel, Clip, Joint, Pose, Skeleton};

/// Frame time used when a file has no MOTION section (one rest frame): 30 fps.
const DEFAULT_FRAME_TIME: f64 = 1.0 / 30.0;

/// Where each channel of a joint goes: a position component or a rotation about an axis.
struct JointLayout {
    /// (value index in the frame, axis index) of each position channel.
    positions: Vec<(usize, usize)>,
    /// (value index in the frame, axis) of each rotation channel, in product order.
    rotations: Vec<(usize, crate::math::Axis)>,
}

fn layout(j: &RawJoint) -> JointLayout {
    let mut positions = Vec::new();
    let mut rotations = Vec::new();
    for (k, c) in j.channels.iter().enumerate() {
        let at = j.first_value + k;
        match c {
            Channel::Position(a) => positions.push((at, a.index())),
            Channel::Rotation(a) => rotations.push((at, *a)),
        }
    }
    JointLayout {
        positions,
        rotations,
    }
}

/// The local pose of one frame (`values` = one motion line), in file units and axes.
fn raw_pose(joints: &[RawJoint], layouts: &[JointLayout], values: &[f64], pose: &mut Pose) {
    pose.translations.clear();
    pose.rotations.clear();
    for (j, l) in joints.iter().zip(layouts) {
        let mut t = j.offset;
        for &(at, axis) in &l.positions {
            t[axis] += values.get(at).copied().unwrap_or(0.0);
        }
        let mut q = UnitQuaternion::identity();
        for &(at, axis) in &l.rotations {
            let angle = values.get(at).copied().unwrap_or(0.0);
            // Zero angles are common (unused channels); skipping them saves a sin/cos and a product.
            if angle != 0.0 {
                q *= axis_rotation(axis, angle.to_radians());
            }
        }
        pose.translations.push(t);
        pose.rotations.push(q);
    }
}

/// Builds the skeleton and clip, inferring unit and up axis unless the options fix them.
pub(crate) fn build(doc: BvhDocument, opts: &ImportOptions) -> Result<Imported, BvhError> {
    let mut report = ImportReport::new("bvh");
    report.warnings = doc.warnings.clone();

    let ext = extent(&rest_points(&doc.joints));
    let up = opts.up_axis.unwrap_or_else(|| detect_up_axis(&ext));
    report.up_axis = up;
    report.up_inferred = opts.up_axis.is_none();
    let height = match up {
        UpAxis::Y => ext.y,
        UpAxis::Z => ext.z,
    };
    let unit = opts
        .unit
        .unwrap_or_else(|| infer_unit(height, looks_like_cgspeed_cmu(&doc.joints)));
    report.unit = unit;
    report.unit_inferred = opts.unit.is_none();

    let f = unit.to_metres();
    let c = to_y_up(up);
    let ci = c.inverse();
    let convert = |v: &Vector3<f64>| c * (v * f);

    let mut names = std::collections::HashSet::new();
    for j in &doc.joints {
        if !names.insert(j.name.as_str()) {
            report.warnings.push(format!(
                "line {}: joint name '{}' is used more than once (lookups by name find the first)",
                j.line, j.name
            ));
        }
    }

    let joints: Vec<Joint> = doc
        .joints
        .iter()
        .map(|j| Joint {
            name: j.name.clone(),
            parent: j.parent,
            offset: convert(&j.offset),
            rest_rotation: UnitQuaternion::identity(),
            channels: j.channels.clone(),
            end_sites: j.end_sites.iter().map(convert).collect(),
        })
        .collect();
    let skeleton = Skeleton::new(joints).map_err(|e| BvhError {
        line: 1,
        column: 1,
        message: format!("invalid hierarchy: {e}"),
    })?;

    let layouts: Vec<JointLayout> = doc.joints.iter().map(layout).collect();
    let frame_count = doc.frame_count();
    let mut frames = Vec::with_capacity(frame_count.max(1));
    let mut scratch = Pose {
        translations: Vec::with_capacity(doc.joints.len()),
        rotations: Vec::with_capacity(doc.joints.len()),
    };
    for i in 0..frame_count {
        let values = doc.frame(i).unwrap_or(&[]);
        raw_pose(&doc.joints, &layouts, values, &mut scratch);
        if up == UpAxis::Y {
            // Identity change of frame: only the unit scale applies.
            scratch.translations.iter_mut().for_each(|t| *t *= f);
            frames.push(scratch.clone());
        } else {
            frames.push(Pose {
                translations: scratch.translations.iter().map(convert).collect(),
                rotations: scratch.rotations.iter().map(|q| c * q * ci).collect(),
            });
        }
    }
    let frame_time = match &doc.motion {
        Some(m) => m.frame_time,
        None => {
            report
                .warnings
                .push("no MOTION section: the clip is one rest frame at 30 fps".to_string());
            DEFAULT_FRAME_TIME
        }
    };
    if frames.is_empty() {
        if doc.motion.is_some() {
            report
                .warnings
                .push("MOTION has no frames: the clip is one rest frame".to_string());
        }
        frames.push(Pose::rest(&skeleton));
    }
    let mut clip = Clip { frame_time, frames };
    clip.make_hemisphere_continuous();

    if tpose::has_leading_tpose(&doc, &clip) {
        report.leading_tpose = true;
        if opts.drop_leading_tpose {
            clip.drop_first_frame();
            report.leading_tpose_dropped = true;
        }
    }
    Ok(Imported {
        skeleton,
        clip,
        report,
    })
}
