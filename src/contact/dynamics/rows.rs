//! Jacobian rows of contacts: a direction `d` at a contact gives `J·V = dᵀ(velocity of the body's witness point −
//! velocity of the other's)`, i.e. `((r × d)ᵀ, dᵀ)` on the body and its negative at the other side's point.

use nalgebra::{Vector3, Vector6};

use super::{ContactOther, ContactPoint, ContactState};
use crate::dynamics::body::Body;
use crate::math::spatial::twist;

/// The side of a row that is not the contact's body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum OtherPart {
    /// Static: no part.
    None,
    /// A world body, by its index among the contact bodies.
    Body(usize, Vector6<f64>),
    /// A free body, by index.
    Free(usize, Vector6<f64>),
}

/// One LCP row of `J_c`: the body part (index among the contact bodies) and the other part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct JRow {
    pub body: usize,
    pub j: Vector6<f64>,
    pub other: OtherPart,
}

impl std::ops::Neg for JRow {
    type Output = JRow;

    /// The row of the opposite direction (every entry negated, which is exact).
    fn neg(self) -> JRow {
        JRow {
            body: self.body,
            j: -self.j,
            other: match self.other {
                OtherPart::None => OtherPart::None,
                OtherPart::Body(o, j) => OtherPart::Body(o, -j),
                OtherPart::Free(f, j) => OtherPart::Free(f, -j),
            },
        }
    }
}

/// `((r × d)ᵀ, dᵀ)`: the row of direction `d` at a point `r` from a body's CoM.
fn point_row(r: &Vector3<f64>, d: &Vector3<f64>) -> Vector6<f64> {
    twist(&r.cross(d), d)
}

impl ContactState {
    /// The row of direction `d` (world) at contact `k`, at the bodies' current poses; `with_free` false treats
    /// free bodies as static (post-stabilization moves world bodies only).
    pub(super) fn row(&self, k: usize, d: &Vector3<f64>, world: &[Body], with_free: bool) -> JRow {
        let p = &self.points[k];
        let (on_body, on_other) = &self.local[k];
        let body = &world[p.body];
        let j = point_row(&(body.orientation * on_body), d);
        let other = match p.other {
            ContactOther::Static | ContactOther::Moving { .. } => OtherPart::None,
            ContactOther::Body(o) => {
                let r = world[o].orientation * on_other;
                OtherPart::Body(self.slot[o], -point_row(&r, d))
            }
            ContactOther::Free(f) if with_free => {
                let r = p.other_point - self.free[f].position;
                OtherPart::Free(f, -point_row(&r, d))
            }
            ContactOther::Free(_) => OtherPart::None,
        };
        JRow {
            body: self.slot[p.body],
            j,
            other,
        }
    }

    /// `J_r·V` for a world-body twist vector `v` (free bodies at their stored velocity).
    pub(super) fn row_velocity(&self, row: &JRow, v: &[super::Vector6<f64>]) -> f64 {
        let mut s = row.j.dot(&v[self.bodies[row.body]]);
        match row.other {
            OtherPart::None => {}
            OtherPart::Body(o, j) => s += j.dot(&v[self.bodies[o]]),
            OtherPart::Free(f, j) => s += j.dot(&self.free[f].velocity),
        }
        s
    }

    /// Adds `λ·J_rᵀ` to the world-body wrenches `a` and returns the free body's part (index, wrench), if any.
    pub(super) fn scatter(
        &self,
        row: &JRow,
        lambda: f64,
        a: &mut [Vector6<f64>],
    ) -> Option<(usize, Vector6<f64>)> {
        a[self.bodies[row.body]] += row.j * lambda;
        match row.other {
            OtherPart::None => None,
            OtherPart::Body(o, j) => {
                a[self.bodies[o]] += j * lambda;
                None
            }
            OtherPart::Free(f, j) => Some((f, j * lambda)),
        }
    }
}

/// Two unit tangents of `n`: the first along `slide` (the tangential sliding velocity) when it is not negligible,
/// else along the world axis least aligned with `n`, projected.
pub(super) fn tangents(n: &Vector3<f64>, slide: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let t = slide - n * n.dot(slide);
    let t1 = if t.norm() > 1e-9 {
        t.normalize()
    } else {
        let axis = if n.x.abs() < 0.6 {
            Vector3::x()
        } else if n.y.abs() < 0.6 {
            Vector3::y()
        } else {
            Vector3::z()
        };
        (axis - n * n.dot(&axis)).normalize()
    };
    (t1, n.cross(&t1))
}

/// The relative velocity (body's witness point minus the other side's) of contact `p` for world twists `v`.
pub(super) fn relative_velocity(
    p: &ContactPoint,
    world: &[Body],
    v: &[Vector6<f64>],
    free: &[Body],
) -> Vector3<f64> {
    let at = |b: &Body, twist: &Vector6<f64>, point: &Vector3<f64>| {
        let w = Vector3::new(twist[0], twist[1], twist[2]);
        let lin = Vector3::new(twist[3], twist[4], twist[5]);
        lin + w.cross(&(point - b.position))
    };
    let mine = at(&world[p.body], &v[p.body], &p.point);
    let theirs = match p.other {
        ContactOther::Static => Vector3::zeros(),
        ContactOther::Moving { velocity } => velocity,
        ContactOther::Body(o) => at(&world[o], &v[o], &p.other_point),
        ContactOther::Free(f) => at(&free[f], &free[f].velocity, &p.other_point),
    };
    mine - theirs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::dynamics::ContactPoint;
    use nalgebra::UnitQuaternion;

    /// The rows are the derivative of the gap: for a small twist displacement ε·V of both bodies,
    /// (gap(p + εV) − gap(p − εV)) / 2ε = J·V (central differences, several directions and twists).
    #[test]
    fn rows_are_the_gap_derivative() {
        let body = |x: [f64; 3], axis: [f64; 3], angle: f64| {
            Body::cuboid(2.0, Vector3::new(0.3, 0.2, 0.4)).at(
                Vector3::from(x),
                UnitQuaternion::from_axis_angle(
                    &nalgebra::Unit::new_normalize(Vector3::from(axis)),
                    angle,
                ),
            )
        };
        let world = vec![
            body([0.1, 0.5, -0.2], [1.0, 2.0, 0.5], 0.7),
            body([0.3, 0.1, 0.2], [-0.3, 1.0, 0.2], -0.4),
        ];
        let normal = Vector3::new(0.2, 1.0, -0.3).normalize();
        let point = ContactPoint {
            body: 0,
            other: ContactOther::Body(1),
            point: Vector3::new(0.15, 0.32, -0.1),
            other_point: Vector3::new(0.16, 0.3, -0.12),
            normal,
            friction: 0.5,
            restitution: 0.0,
        };
        let mut state = ContactState::new();
        state.set(&world, &[point], &[]).unwrap();
        let twists = [
            Vector6::new(0.3, -0.2, 0.5, 1.0, 0.4, -0.7),
            Vector6::new(-0.8, 0.1, 0.2, -0.3, 0.9, 0.2),
        ];
        let eps = 1e-6;
        // The bodies displaced by s·V.
        let moved = |s: f64| -> Vec<Body> {
            world
                .iter()
                .zip(&twists)
                .map(|(b, v)| {
                    let mut b = b.clone();
                    b.displace(&(v * s));
                    b
                })
                .collect()
        };
        let fd = (state.gap(0, &moved(eps)) - state.gap(0, &moved(-eps))) / (2.0 * eps);
        let row = state.row(0, &normal, &world, true);
        let analytic = state.row_velocity(&row, &twists);
        assert!(
            (fd - analytic).abs() <= 1e-8 * analytic.abs().max(1.0),
            "fd {fd} vs J·V {analytic}"
        );
        // Tangent rows: the rate of the tangential offset of the witness points.
        for d in [
            tangents(&normal, &Vector3::x()).0,
            tangents(&normal, &Vector3::x()).1,
        ] {
            let offset = |s: f64| {
                let bodies = moved(s);
                let (a, o) = &state.local[0];
                d.dot(&(bodies[0].point_world(a) - bodies[1].point_world(o)))
            };
            let fd = (offset(eps) - offset(-eps)) / (2.0 * eps);
            let row = state.row(0, &d, &world, true);
            let analytic = state.row_velocity(&row, &twists);
            assert!(
                (fd - analytic).abs() <= 1e-8,
                "tangent: fd {fd} vs {analytic}"
            );
        }
    }
}
