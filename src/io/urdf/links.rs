//! Per-element conversion: `urdf_rs` links and joints to [`UrdfLink`] / [`UrdfJoint`], validated and scaled.

use nalgebra::{Isometry3, Matrix3, Translation3, Unit, UnitQuaternion, Vector3};
use rapier3d_urdf::urdf_rs;

use super::UrdfError;
use super::model::{
    CollisionShape, JointKind, JointLimits, ShapeKind, UrdfJoint, inertia_problem, rotate_inertia,
    triangle_violation,
};

/// Checks that every value is finite; `what` names the attribute for the message.
fn finite(values: &[f64], what: &str) -> Result<(), String> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(format!("{what} has a non-finite value {values:?}"))
    }
}

/// The rotation of a URDF `rpy` triple: fixed-axis roll about x, then pitch about y, then yaw about z,
/// R = Rz(yaw)·Ry(pitch)·Rx(roll) (nalgebra's `from_euler_angles` applies roll first).
pub(crate) fn rpy_rotation(rpy: &[f64; 3]) -> UnitQuaternion<f64> {
    UnitQuaternion::from_euler_angles(rpy[0], rpy[1], rpy[2])
}

/// A URDF `<origin>` as an isometry, translation multiplied by `scale` (the unit factor to metres).
fn pose(p: &urdf_rs::Pose, scale: f64, what: &str) -> Result<Isometry3<f64>, String> {
    finite(&p.xyz.0, &format!("{what} xyz"))?;
    finite(&p.rpy.0, &format!("{what} rpy"))?;
    Ok(Isometry3::from_parts(
        Translation3::from(Vector3::from(p.xyz.0) * scale),
        rpy_rotation(&p.rpy.0),
    ))
}

/// Mass, centre of mass and link-frame inertia of a link, after validation.
pub(crate) struct Inertial {
    /// kg.
    pub mass: f64,
    /// Link frame, m.
    pub com: Vector3<f64>,
    /// About the CoM in the link frame, kg·m².
    pub inertia: Matrix3<f64>,
}

/// Converts `<inertial>`: the tensor is given in the inertial frame (`<origin rpy>`), so it is rotated into the
/// link frame as R·I·Rᵀ (rapier3d-urdf drops this rotation, which is why flinch does the conversion itself).
/// Lengths scale by `scale`, so inertias by `scale²`; masses are kept.
pub(crate) fn inertial(
    link: &urdf_rs::Link,
    scale: f64,
    warnings: &mut Vec<String>,
) -> Result<Inertial, UrdfError> {
    let err = |what: String| UrdfError::link(&link.name, what);
    let inertial = &link.inertial;
    let frame = pose(&inertial.origin, scale, "inertial origin").map_err(err)?;
    let mass = inertial.mass.value;
    if !mass.is_finite() || mass < 0.0 {
        return Err(err(format!(
            "mass {mass} kg is not a finite non-negative number"
        )));
    }
    let t = &inertial.inertia;
    let raw = Matrix3::new(
        t.ixx, t.ixy, t.ixz, //
        t.ixy, t.iyy, t.iyz, //
        t.ixz, t.iyz, t.izz,
    );
    if let Some(problem) = inertia_problem(&raw) {
        return Err(err(problem));
    }
    let inertia =
        rotate_inertia(frame.rotation.to_rotation_matrix().matrix(), &raw) * (scale * scale);
    if let Some(excess) = triangle_violation(&inertia) {
        warnings.push(format!(
            "link '{}': principal moments break the triangle inequality by {:.1}% (no rigid body has them)",
            link.name,
            excess * 100.0
        ));
    }
    if mass == 0.0 && inertia.norm() > 0.0 {
        warnings.push(format!(
            "link '{}': mass 0 with a non-zero inertia (a static base in Bullet's convention)",
            link.name
        ));
    }
    Ok(Inertial {
        mass,
        com: frame.translation.vector,
        inertia,
    })
}

/// Converts the `<collision>` elements of a link. Mesh geometry and zero-sized primitives (rapier's placeholder
/// for an empty `<geometry>`) are skipped with a warning; negative or non-finite sizes are errors.
pub(crate) fn collision_shapes(
    link: &urdf_rs::Link,
    scale: f64,
    warnings: &mut Vec<String>,
) -> Result<Vec<CollisionShape>, UrdfError> {
    let mut shapes = Vec::with_capacity(link.collision.len());
    for (k, collision) in link.collision.iter().enumerate() {
        let label = match &collision.name {
            Some(n) => format!("collision #{k} ('{n}')"),
            None => format!("collision #{k}"),
        };
        let err = |what: String| UrdfError::link(&link.name, format!("{label}: {what}"));
        let frame = pose(&collision.origin, scale, "origin").map_err(err)?;
        let dims: Vec<f64> = match &collision.geometry {
            urdf_rs::Geometry::Box { size } => size.0.to_vec(),
            urdf_rs::Geometry::Cylinder { radius, length }
            | urdf_rs::Geometry::Capsule { radius, length } => vec![*radius, *length],
            urdf_rs::Geometry::Sphere { radius } => vec![*radius],
            urdf_rs::Geometry::Mesh { filename, .. } => {
                warnings.push(format!(
                    "link '{}': {label}: mesh '{filename}' skipped (only primitive shapes are imported)",
                    link.name
                ));
                continue;
            }
        };
        if dims.iter().any(|d| !d.is_finite() || *d < 0.0) {
            return Err(err(format!(
                "geometry dimensions {dims:?} must be finite and non-negative"
            )));
        }
        let s = scale;
        let kind = match &collision.geometry {
            urdf_rs::Geometry::Box { size } => ShapeKind::Box {
                size: Vector3::from(size.0) * s,
            },
            urdf_rs::Geometry::Cylinder { radius, length } => ShapeKind::Cylinder {
                radius: radius * s,
                length: length * s,
            },
            urdf_rs::Geometry::Capsule { radius, length } => ShapeKind::Capsule {
                radius: radius * s,
                length: length * s,
            },
            urdf_rs::Geometry::Sphere { radius } => ShapeKind::Sphere { radius: radius * s },
            urdf_rs::Geometry::Mesh { .. } => continue,
        };
        let empty = match kind {
            ShapeKind::Box { size } => size.iter().any(|d| *d == 0.0),
            ShapeKind::Cylinder { radius, .. }
            | ShapeKind::Capsule { radius, .. }
            | ShapeKind::Sphere { radius } => radius == 0.0,
        };
        if empty {
            warnings.push(format!(
                "link '{}': {label}: zero-sized {} skipped",
                link.name,
                kind.name()
            ));
            continue;
        }
        shapes.push(CollisionShape { kind, pose: frame });
    }
    Ok(shapes)
}

/// Maps `urdf_rs`'s joint type (0.9 parses Bullet's `spherical` natively, so no text pre-processing is needed).
fn kind(t: &urdf_rs::JointType) -> JointKind {
    match t {
        urdf_rs::JointType::Revolute => JointKind::Revolute,
        urdf_rs::JointType::Continuous => JointKind::Continuous,
        urdf_rs::JointType::Prismatic => JointKind::Prismatic,
        urdf_rs::JointType::Fixed => JointKind::Fixed,
        urdf_rs::JointType::Floating => JointKind::Floating,
        urdf_rs::JointType::Planar => JointKind::Planar,
        urdf_rs::JointType::Spherical => JointKind::Spherical,
    }
}

/// Converts a `<joint>`: origin (scaled), unit axis, limits (prismatic positions scaled) and dynamics.
pub(crate) fn joint(
    j: &urdf_rs::Joint,
    scale: f64,
    warnings: &mut Vec<String>,
) -> Result<UrdfJoint, UrdfError> {
    let err = |what: String| UrdfError::joint(&j.name, what);
    let kind = kind(&j.joint_type);
    let origin = pose(&j.origin, scale, "origin").map_err(err)?;
    let raw_axis = Vector3::from(j.axis.xyz.0);
    let axis = if kind.uses_axis() {
        finite(&j.axis.xyz.0, "axis xyz").map_err(err)?;
        Unit::try_new(raw_axis, 1e-9).ok_or_else(|| {
            err(format!(
                "{} joint has a zero axis {:?}",
                kind.name(),
                j.axis.xyz.0
            ))
        })?
    } else {
        Vector3::x_axis()
    };

    let l = &j.limit;
    finite(&[l.lower, l.upper, l.effort, l.velocity], "limit").map_err(err)?;
    // urdf_rs fills a missing <limit> with zeros; `velocity` is mandatory inside <limit>, so all-zero values
    // mean "no <limit> element".
    let absent = l.lower == 0.0 && l.upper == 0.0 && l.effort == 0.0 && l.velocity == 0.0;
    let limits = match kind {
        JointKind::Revolute | JointKind::Prismatic if absent => {
            warnings.push(format!(
                "joint '{}': {} joint without <limit>; treated as unlimited",
                j.name,
                kind.name()
            ));
            None
        }
        JointKind::Revolute | JointKind::Prismatic => {
            if l.lower > l.upper {
                return Err(err(format!(
                    "limit lower {} is above upper {}",
                    l.lower, l.upper
                )));
            }
            let s = if kind == JointKind::Prismatic {
                scale
            } else {
                1.0
            };
            Some(JointLimits {
                lower: l.lower * s,
                upper: l.upper * s,
                effort: l.effort,
                velocity: l.velocity * s,
            })
        }
        _ => None,
    };
    let (damping, friction) = match &j.dynamics {
        Some(d) => {
            finite(&[d.damping, d.friction], "dynamics").map_err(err)?;
            (d.damping, d.friction)
        }
        None => (0.0, 0.0),
    };
    Ok(UrdfJoint {
        name: j.name.clone(),
        kind,
        origin,
        axis,
        limits,
        damping,
        friction,
    })
}
