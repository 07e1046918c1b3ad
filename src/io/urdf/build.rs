//! Assembly: the validated tree and converted links become a [`UrdfModel`] and a flinch [`Skeleton`] with a
//! synthesized channel layout; the up axis is detected and the scale checked.

use nalgebra::{UnitQuaternion, Vector3};
use rapier3d_urdf::urdf_rs::Robot;

use super::UrdfError;
use super::links::{collision_shapes, inertial, joint};
use super::model::{JointKind, UrdfLink, UrdfModel};
use super::tree::tree_order;
use crate::io::UpAxis;
use crate::math::{Axis, axis_rotation};
use crate::skeleton::{Channel, Joint, Skeleton};

/// Z-up sources are detected when the rest pose's extent along z exceeds this multiple of its extent along y.
pub const Z_UP_DOMINANCE: f64 = 1.5;

/// A rest pose taller than this (m, along the up axis) gets a scale warning when no unit was given.
pub const PLAUSIBLE_HEIGHT_MAX: f64 = 2.5;

/// The rotation taking a Z-up source to flinch's Y-up world, (x, y, z) → (x, z, −y): −90° about x.
pub fn z_up_to_y_up() -> UnitQuaternion<f64> {
    axis_rotation(Axis::X, -std::f64::consts::FRAC_PI_2)
}

/// The coordinate axis with the largest component of `v` (ties: the first), and whether `v` lies on it.
fn dominant_axis(v: &Vector3<f64>) -> (Axis, bool) {
    let a = v.abs();
    let axis = if a.x >= a.y && a.x >= a.z {
        Axis::X
    } else if a.y >= a.z {
        Axis::Y
    } else {
        Axis::Z
    };
    let on_axis = a[axis.index()] >= (1.0 - 1e-9) * v.norm();
    (axis, on_axis)
}

/// The other two axes, in x, y, z order.
fn other_axes(a: Axis) -> [Axis; 2] {
    match a {
        Axis::X => [Axis::Y, Axis::Z],
        Axis::Y => [Axis::X, Axis::Z],
        Axis::Z => [Axis::X, Axis::Y],
    }
}

/// Rotations of a ball-like joint: `Zrotation Yrotation Xrotation` (R = Rz·Ry·Rx, the same composition as
/// URDF's `rpy`).
const BALL: [Channel; 3] = [
    Channel::Rotation(Axis::Z),
    Channel::Rotation(Axis::Y),
    Channel::Rotation(Axis::X),
];
/// Translations of a free joint, in the parent frame.
const FREE: [Channel; 3] = [
    Channel::Position(Axis::X),
    Channel::Position(Axis::Y),
    Channel::Position(Axis::Z),
];

/// The synthesized channel layout of a non-root link's joint, plus a warning when the channel only
/// approximates an oblique axis.
///
/// Rotation channels act after the rest rotation (child frame), so they use the axis as given; position
/// channels add to the parent-frame translation, so prismatic/planar use the axis rotated by the rest rotation.
fn channels(link: &UrdfLink) -> (Vec<Channel>, Option<String>) {
    let Some(j) = &link.joint else {
        return ([FREE, BALL].concat(), None);
    };
    let child_axis = j.axis.into_inner();
    let parent_axis = j.origin.rotation * child_axis;
    let (used, on_axis) = match j.kind {
        JointKind::Revolute | JointKind::Continuous => {
            let (a, ok) = dominant_axis(&child_axis);
            (vec![Channel::Rotation(a)], ok)
        }
        JointKind::Prismatic => {
            let (a, ok) = dominant_axis(&parent_axis);
            (vec![Channel::Position(a)], ok)
        }
        JointKind::Planar => {
            let (n, ok_n) = dominant_axis(&parent_axis);
            let (r, ok_r) = dominant_axis(&child_axis);
            let [p, q] = other_axes(n);
            (
                vec![
                    Channel::Position(p),
                    Channel::Position(q),
                    Channel::Rotation(r),
                ],
                ok_n && ok_r,
            )
        }
        JointKind::Spherical => (BALL.to_vec(), true),
        JointKind::Floating => ([FREE, BALL].concat(), true),
        JointKind::Fixed => (Vec::new(), true),
    };
    let warning = (!on_axis).then(|| {
        let a = child_axis;
        let names: Vec<String> = used.iter().map(|c| c.bvh_name()).collect();
        format!(
            "joint '{}': axis ({:.3}, {:.3}, {:.3}) is not a coordinate axis; the skeleton channel {} \
             approximates it, the model keeps the exact axis",
            j.name,
            a.x,
            a.y,
            a.z,
            names.join(" ")
        )
    });
    (used, warning)
}

/// Converts every link in tree order. `scale` multiplies lengths (metres per file unit).
pub(crate) fn build_model(
    robot: &Robot,
    scale: f64,
    warnings: &mut Vec<String>,
) -> Result<UrdfModel, UrdfError> {
    let order = tree_order(robot)?;
    for name in &order.duplicate_joint_names {
        warnings.push(format!(
            "joint '{name}': name used by several joints (skeleton joints are named after links)"
        ));
    }
    let mut links = Vec::with_capacity(order.links.len());
    for ((&li, &ji), &parent) in order.links.iter().zip(&order.joints).zip(&order.parents) {
        let src = robot
            .links
            .get(li)
            .ok_or_else(|| UrdfError::structure("link index out of range"))?;
        let inert = inertial(src, scale, warnings)?;
        let shapes = collision_shapes(src, scale, warnings)?;
        let joint = match ji.and_then(|j| robot.joints.get(j)) {
            Some(j) => Some(joint(j, scale, warnings)?),
            None => None,
        };
        links.push(UrdfLink {
            name: src.name.clone(),
            parent,
            mass: inert.mass,
            com: inert.com,
            inertia: inert.inertia,
            shapes,
            joint,
        });
    }
    Ok(UrdfModel {
        name: robot.name.clone(),
        links,
        up_rotation: UnitQuaternion::identity(),
    })
}

/// Extents (max − min) along x, y, z of the rest pose in the model's root frame: link origins, centres of
/// mass and collision-shape centres (joint origins alone miss e.g. a cart-pole's pole, whose link origin is at
/// the hinge).
pub fn rest_extent(model: &UrdfModel) -> Vector3<f64> {
    let frames = model.rest_link_frames();
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for (frame, link) in frames.iter().zip(&model.links) {
        let points = std::iter::once(frame.translation.vector)
            .chain(std::iter::once(frame * nalgebra::Point3::from(link.com)).map(|p| p.coords))
            .chain(
                link.shapes
                    .iter()
                    .map(|s| (frame * s.pose).translation.vector),
            );
        for p in points {
            lo = lo.inf(&p);
            hi = hi.sup(&p);
        }
    }
    if lo.iter().all(|v| v.is_finite()) {
        hi - lo
    } else {
        Vector3::zeros()
    }
}

/// Detects the up axis: Z when the rest extent along z exceeds [`Z_UP_DOMINANCE`] times the extent along y.
pub fn detect_up_axis(extent: &Vector3<f64>) -> UpAxis {
    if extent.z > Z_UP_DOMINANCE * extent.y && extent.z > 0.0 {
        UpAxis::Z
    } else {
        UpAxis::Y
    }
}

/// The skeleton: one joint per link (named after the link), offsets and rest rotations from the joint origins,
/// synthesized channels; the root's rest rotation carries `up_rotation`.
pub(crate) fn build_skeleton(
    model: &UrdfModel,
    warnings: &mut Vec<String>,
) -> Result<Skeleton, UrdfError> {
    let mut joints = Vec::with_capacity(model.links.len());
    for link in &model.links {
        let (chans, warning) = channels(link);
        warnings.extend(warning);
        let (offset, rest) = match &link.joint {
            Some(j) => (j.origin.translation.vector, j.origin.rotation),
            None => (Vector3::zeros(), model.up_rotation),
        };
        let mut joint = Joint::new(link.name.clone(), link.parent, offset, chans);
        joint.rest_rotation = rest;
        joints.push(joint);
    }
    Skeleton::new(joints).map_err(|e| UrdfError::structure(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_up_rotation_maps_z_to_y_and_y_to_minus_z() {
        let c = z_up_to_y_up();
        assert!((c * Vector3::z() - Vector3::y()).norm() < 1e-15);
        assert!((c * Vector3::y() + Vector3::z()).norm() < 1e-15);
        assert!((c * Vector3::x() - Vector3::x()).norm() < 1e-15);
    }

    #[test]
    fn dominant_axis_flags_oblique_axes() {
        assert_eq!(
            dominant_axis(&Vector3::new(0.0, -1.0, 0.0)),
            (Axis::Y, true)
        );
        assert_eq!(
            dominant_axis(&Vector3::new(2.0, 1.0, 1.0)),
            (Axis::X, false)
        );
        assert_eq!(
            dominant_axis(&Vector3::new(0.0, -1.0, 1.0)),
            (Axis::Y, false)
        );
    }
}
