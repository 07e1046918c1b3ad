//! Unit and up-axis inference from the rest pose, the Z-up → Y-up change of frame, and the standing height.
//!
//! Rules (documented with the per-file results in `docs/bvh.md`):
//! - **Up axis**: Z-up when the rest-pose extent along Z exceeds [`Z_UP_RATIO`] × the extent along Y (a standing
//!   human is much taller than deep; in a Y-up file Z is the depth). Otherwise Y-up.
//! - **Unit**: among m, dm, cm, mm, in (and CMU ASF units when the skeleton looks like a cgspeed CMU skeleton),
//!   the one whose scaled extent along the up axis is closest in log scale to [`NOMINAL_HEIGHT_M`].

use nalgebra::{UnitQuaternion, Vector3};

use super::hierarchy::RawJoint;
use crate::io::{LengthUnit, UpAxis};
use crate::skeleton::{Pose, Skeleton};

/// The height of a nominal adult human, metres: the target of the unit inference.
pub const NOMINAL_HEIGHT_M: f64 = 1.7;

/// Z-up when extent(Z) > this × extent(Y).
pub const Z_UP_RATIO: f64 = 1.5;

/// Names of the cgspeed CMU skeleton's hip helper joints: with a 31-joint hierarchy they identify the skeleton
/// whose lengths are in CMU ASF units.
const CMU_MARKERS: [&str; 2] = ["LHipJoint", "RHipJoint"];

/// Joint count of the cgspeed CMU skeleton.
const CMU_JOINT_COUNT: usize = 31;

/// Rest-pose world positions of every joint and end site, in file units and axes (rotations are identity).
pub(crate) fn rest_points(joints: &[RawJoint]) -> Vec<Vector3<f64>> {
    let mut world: Vec<Vector3<f64>> = Vec::with_capacity(joints.len());
    let mut points = Vec::with_capacity(joints.len() * 2);
    for j in joints {
        let base = j
            .parent
            .and_then(|p| world.get(p).copied())
            .unwrap_or_else(Vector3::zeros);
        let p = base + j.offset;
        world.push(p);
        points.push(p);
        points.extend(j.end_sites.iter().map(|e| p + e));
    }
    points
}

/// Extent (max − min) of points along x, y, z.
pub fn extent(points: &[Vector3<f64>]) -> Vector3<f64> {
    let Some(first) = points.first() else {
        return Vector3::zeros();
    };
    let (mut lo, mut hi) = (*first, *first);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    hi - lo
}

/// The up axis the rest-pose extent suggests (see the module docs).
pub fn detect_up_axis(extent: &Vector3<f64>) -> UpAxis {
    if extent.z > Z_UP_RATIO * extent.y {
        UpAxis::Z
    } else {
        UpAxis::Y
    }
}

/// Whether the hierarchy looks like the cgspeed CMU skeleton (31 joints with `LHipJoint` and `RHipJoint`).
pub(crate) fn looks_like_cgspeed_cmu(joints: &[RawJoint]) -> bool {
    joints.len() == CMU_JOINT_COUNT
        && CMU_MARKERS
            .iter()
            .all(|m| joints.iter().any(|j| j.name.eq_ignore_ascii_case(m)))
}

/// The unit whose scaling of `height` (file units) is closest in log scale to the nominal human height.
/// `allow_cmu` adds the CMU ASF unit to the candidates. A non-positive height gives metres.
pub fn infer_unit(height: f64, allow_cmu: bool) -> LengthUnit {
    let mut candidates = vec![
        LengthUnit::Metre,
        LengthUnit::Decimetre,
        LengthUnit::Centimetre,
        LengthUnit::Millimetre,
        LengthUnit::Inch,
    ];
    if allow_cmu {
        candidates.push(LengthUnit::CmuAsf);
    }
    if !(height.is_finite() && height > 0.0) {
        return LengthUnit::Metre;
    }
    let score = |u: &LengthUnit| (height * u.to_metres() / NOMINAL_HEIGHT_M).ln().abs();
    candidates
        .into_iter()
        .min_by(|a, b| score(a).total_cmp(&score(b)))
        .unwrap_or(LengthUnit::Metre)
}

/// The change of frame from a source up axis to flinch's Y-up: for Z-up, (x, y, z) → (x, z, −y), a rotation by
/// −90° about X. Vectors map as `C·v`, rotations as `C·R·C⁻¹`.
pub fn to_y_up(up: UpAxis) -> UnitQuaternion<f64> {
    match up {
        UpAxis::Y => UnitQuaternion::identity(),
        UpAxis::Z => {
            UnitQuaternion::from_axis_angle(&Vector3::x_axis(), -std::f64::consts::FRAC_PI_2)
        }
    }
}

/// Standing height of a skeleton in metres: the extent of its rest pose along Y (world up), end sites included.
pub fn rest_height(skeleton: &Skeleton) -> f64 {
    let world = Pose::rest(skeleton).world_transforms(skeleton);
    let mut points = Vec::with_capacity(skeleton.len() * 2);
    for (j, w) in skeleton.joints.iter().zip(&world) {
        points.push(w.translation.vector);
        points.extend(
            j.end_sites
                .iter()
                .map(|e| w * nalgebra::Point3::from(*e))
                .map(|p| p.coords),
        );
    }
    extent(&points).y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_thresholds_are_log_midpoints() {
        // Between inches and centimetres the boundary is 1.7 / sqrt(0.0254 · 0.01) ≈ 106.7 units.
        assert_eq!(infer_unit(100.0, false), LengthUnit::Inch);
        assert_eq!(infer_unit(110.0, false), LengthUnit::Centimetre);
        assert_eq!(infer_unit(1.6, true), LengthUnit::Metre);
        assert_eq!(infer_unit(16.0, false), LengthUnit::Decimetre);
        assert_eq!(infer_unit(1700.0, false), LengthUnit::Millimetre);
        assert_eq!(infer_unit(25.0, true), LengthUnit::CmuAsf);
        assert_eq!(infer_unit(0.0, true), LengthUnit::Metre);
    }

    #[test]
    fn z_up_change_of_frame() {
        let c = to_y_up(UpAxis::Z);
        let v = c * Vector3::new(1.0, 2.0, 3.0);
        assert!((v - Vector3::new(1.0, 3.0, -2.0)).norm() < 1e-15);
    }
}
