//! Swept sphere against capsule: the first moment a sphere moving along a straight chord touches a capsule.

use nalgebra::Vector3;

/// Closest point to `p` on the segment `a`–`b`.
pub(crate) fn closest_on_segment(
    p: &Vector3<f64>,
    a: &Vector3<f64>,
    b: &Vector3<f64>,
) -> Vector3<f64> {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2 <= f64::MIN_POSITIVE {
        return *a;
    }
    let t = ((p - a).dot(&ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// Where a sweep first touches: the chord parameter and the closest axis point of the capsule there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Touch {
    /// Fraction of the chord travelled at first touch, in [0, 1].
    pub(crate) s: f64,
    /// Sphere centre at first touch.
    pub(crate) centre: Vector3<f64>,
    /// Closest point of the capsule axis to that centre.
    pub(crate) axis_point: Vector3<f64>,
}

/// The first touch of a sphere whose centre moves from `p0` to `p1` with a capsule (axis `a`–`b`) at distance
/// `reach` (sphere radius + capsule radius), or `None`.
///
/// The distance from a point moving on a line to a convex set is convex in the line parameter, so a golden
/// section search finds the closest approach and a bisection on [0, that] the first crossing of `reach`.
pub(crate) fn sweep_sphere_capsule(
    p0: &Vector3<f64>,
    p1: &Vector3<f64>,
    a: &Vector3<f64>,
    b: &Vector3<f64>,
    reach: f64,
) -> Option<Touch> {
    let at = |s: f64| p0 + (p1 - p0) * s;
    let gap = |s: f64| {
        let p = at(s);
        (p - closest_on_segment(&p, a, b)).norm() - reach
    };
    // Cheap rejection: bounding spheres of the chord and the capsule.
    let mid_chord = 0.5 * (p0 + p1);
    let mid_axis = 0.5 * (a + b);
    if (mid_chord - mid_axis).norm() > reach + 0.5 * (p1 - p0).norm() + 0.5 * (b - a).norm() {
        return None;
    }
    let touch = |s: f64| {
        let centre = at(s);
        Touch {
            s,
            centre,
            axis_point: closest_on_segment(&centre, a, b),
        }
    };
    if gap(0.0) <= 0.0 {
        return Some(touch(0.0));
    }
    // Golden-section search for the closest approach on [0, 1].
    let phi = 0.5 * (5f64.sqrt() - 1.0);
    let (mut lo, mut hi) = (0.0, 1.0);
    let (mut x1, mut x2) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
    let (mut f1, mut f2) = (gap(x1), gap(x2));
    for _ in 0..60 {
        if f1 <= 0.0 || f2 <= 0.0 {
            break;
        }
        if f1 < f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - phi * (hi - lo);
            f1 = gap(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + phi * (hi - lo);
            f2 = gap(x2);
        }
    }
    let end_gap = gap(1.0);
    let inside = if f1 <= 0.0 {
        x1
    } else if f2 <= 0.0 {
        x2
    } else if end_gap <= 0.0 {
        1.0
    } else {
        return None;
    };
    // Bisection for the first crossing: gap(lo) > 0 ≥ gap(hi).
    let (mut lo, mut hi) = (0.0, inside);
    for _ in 0..60 {
        let m = 0.5 * (lo + hi);
        if gap(m) > 0.0 {
            lo = m;
        } else {
            hi = m;
        }
    }
    Some(touch(hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on_touch_is_found_at_the_surface() {
        // Capsule along Z through the origin, radius 0.05; ball radius 0.1 flying along +X.
        let a = Vector3::new(0.0, 0.0, -0.2);
        let b = Vector3::new(0.0, 0.0, 0.2);
        let t = sweep_sphere_capsule(
            &Vector3::new(-1.0, 0.0, 0.0),
            &Vector3::new(1.0, 0.0, 0.0),
            &a,
            &b,
            0.15,
        )
        .expect("touch");
        assert!((t.centre.x + 0.15).abs() < 1e-12, "{t:?}");
        assert!((t.s - 0.425).abs() < 1e-12);
        assert!(t.axis_point.norm() < 1e-12);
    }

    #[test]
    fn a_miss_and_a_graze_are_told_apart() {
        let a = Vector3::new(0.0, 0.0, -0.2);
        let b = Vector3::new(0.0, 0.0, 0.2);
        let p0 = Vector3::new(-1.0, 0.151, 0.0);
        let p1 = Vector3::new(1.0, 0.151, 0.0);
        assert!(sweep_sphere_capsule(&p0, &p1, &a, &b, 0.15).is_none());
        let p0 = Vector3::new(-1.0, 0.149, 0.0);
        let p1 = Vector3::new(1.0, 0.149, 0.0);
        let t = sweep_sphere_capsule(&p0, &p1, &a, &b, 0.15).expect("graze");
        assert!(((t.centre - t.axis_point).norm() - 0.15).abs() < 1e-9);
        // Past the end cap: the touch is against the hemisphere.
        let p0 = Vector3::new(-1.0, 0.0, 0.3);
        let p1 = Vector3::new(1.0, 0.0, 0.3);
        let t = sweep_sphere_capsule(&p0, &p1, &a, &b, 0.15).expect("cap");
        assert!((t.axis_point - b).norm() < 1e-12);
        assert!(((t.centre - b).norm() - 0.15).abs() < 1e-9);
    }
}
