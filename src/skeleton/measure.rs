//! Measurements of a skeleton's rest pose: points, extent, standing height.

use nalgebra::{Point3, Vector3};

use super::{Pose, Skeleton};

/// World positions of every joint origin and every end site in the rest pose (root at its rest offset).
pub fn rest_points(skeleton: &Skeleton) -> Vec<Point3<f64>> {
    pose_points(skeleton, &Pose::rest(skeleton))
}

/// World positions of every joint origin and every end site in `pose`.
pub fn pose_points(skeleton: &Skeleton, pose: &Pose) -> Vec<Point3<f64>> {
    let world = pose.world_transforms(skeleton);
    let mut pts: Vec<Point3<f64>> = world
        .iter()
        .map(|w| Point3::from(w.translation.vector))
        .collect();
    for (joint, w) in skeleton.joints.iter().zip(&world) {
        pts.extend(joint.end_sites.iter().map(|e| w * Point3::from(*e)));
    }
    pts
}

/// Axis-aligned extent (max − min per axis) of a point set; zero for an empty set.
pub fn extent(points: &[Point3<f64>]) -> Vector3<f64> {
    let Some(first) = points.first() else {
        return Vector3::zeros();
    };
    let (mut lo, mut hi) = (first.coords, first.coords);
    for p in points {
        lo = lo.inf(&p.coords);
        hi = hi.sup(&p.coords);
    }
    hi - lo
}

/// Standing height: the rest pose's extent along Y (up), end sites included, in the skeleton's units.
pub fn rest_height(skeleton: &Skeleton) -> f64 {
    extent(&rest_points(skeleton)).y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::Joint;

    #[test]
    fn height_counts_end_sites() {
        let mut leg = Joint::new("leg", Some(0), Vector3::new(0.0, -0.5, 0.0), vec![]);
        leg.end_sites.push(Vector3::new(0.0, -0.4, 0.0));
        let mut head = Joint::new("root", None, Vector3::new(0.0, 1.0, 0.0), vec![]);
        head.end_sites.push(Vector3::new(0.0, 0.8, 0.0));
        let sk = Skeleton::new(vec![head, leg]).unwrap();
        assert!((rest_height(&sk) - 1.7).abs() < 1e-12);
    }
}
