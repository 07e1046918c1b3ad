//! Capsules and their mass properties (analytic), and the combination of several into one rigid body.

use nalgebra::{Matrix3, Point3, Vector3};

/// A capsule: the set of points within `radius` of the segment `a`–`b` (a sphere when a = b).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    /// One end of the axis segment (body frame, metres).
    pub a: Point3<f64>,
    /// The other end (body frame, metres).
    pub b: Point3<f64>,
    /// Radius (metres).
    pub radius: f64,
}

/// Mass, centre of mass and inertia about the centre of mass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassProperties {
    /// Mass (kg).
    pub mass: f64,
    /// Centre of mass (body frame, metres).
    pub com: Point3<f64>,
    /// Inertia tensor about the centre of mass, body-frame axes (kg·m²).
    pub inertia: Matrix3<f64>,
}

impl MassProperties {
    /// No mass at the origin.
    pub fn zero() -> MassProperties {
        MassProperties {
            mass: 0.0,
            com: Point3::origin(),
            inertia: Matrix3::zeros(),
        }
    }

    /// The combined properties of two parts (parallel-axis theorem).
    pub fn combine(&self, other: &MassProperties) -> MassProperties {
        let mass = self.mass + other.mass;
        if mass <= 0.0 {
            return MassProperties::zero();
        }
        let com =
            Point3::from((self.com.coords * self.mass + other.com.coords * other.mass) / mass);
        let shifted = |p: &MassProperties| p.inertia + parallel_axis(p.mass, &(p.com - com));
        MassProperties {
            mass,
            com,
            inertia: shifted(self) + shifted(other),
        }
    }

    /// The same body with its mass (and inertia) multiplied by `factor`.
    pub fn scaled(&self, factor: f64) -> MassProperties {
        MassProperties {
            mass: self.mass * factor,
            com: self.com,
            inertia: self.inertia * factor,
        }
    }
}

/// Inertia of a point mass `m` at offset `d` from the reference point: m (|d|² I − d dᵀ).
pub fn parallel_axis(m: f64, d: &Vector3<f64>) -> Matrix3<f64> {
    (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * m
}

impl Capsule {
    /// Length of the axis segment (metres).
    pub fn length(&self) -> f64 {
        (self.b - self.a).norm()
    }

    /// Volume (m³): cylinder plus one full sphere.
    pub fn volume(&self) -> f64 {
        let r = self.radius;
        std::f64::consts::PI * r * r * (self.length() + 4.0 / 3.0 * r)
    }

    /// Mass properties at uniform `density` (kg/m³), analytic.
    ///
    /// Cylinder (length L, radius r, mass m_c) plus two hemispheres (total mass m_h). About the centre:
    /// axial I = m_c r²/2 + m_h·2r²/5; transverse I = m_c (L²/12 + r²/4) + m_h (2r²/5 + L²/4 + 3Lr/8)
    /// (each hemisphere's own inertia about its centroid, 83/320 m r², moved to L/2 + 3r/8 from the centre).
    pub fn mass_properties(&self, density: f64) -> MassProperties {
        let r = self.radius;
        let l = self.length();
        let pi = std::f64::consts::PI;
        let m_c = density * pi * r * r * l;
        let m_h = density * 4.0 / 3.0 * pi * r * r * r;
        let axial = m_c * r * r / 2.0 + m_h * 2.0 * r * r / 5.0;
        let transverse = m_c * (l * l / 12.0 + r * r / 4.0)
            + m_h * (2.0 * r * r / 5.0 + l * l / 4.0 + 3.0 * l * r / 8.0);
        // Tensor with the axis u: transverse·I + (axial − transverse)·u uᵀ.
        let u = if l > 0.0 {
            (self.b - self.a) / l
        } else {
            Vector3::y()
        };
        let inertia = Matrix3::identity() * transverse + u * u.transpose() * (axial - transverse);
        MassProperties {
            mass: m_c + m_h,
            com: Point3::from((self.a.coords + self.b.coords) / 2.0),
            inertia,
        }
    }

    /// Mass properties of the capsule without its hemispherical cap at `b`, at uniform `density`: the shape a
    /// segment contributes when its end is covered by the next segment's start cap (so chains count each joint
    /// ball once).
    pub fn open_end_mass_properties(&self, density: f64) -> MassProperties {
        let full = self.mass_properties(density);
        let r = self.radius;
        let l = self.length();
        let u = if l > 0.0 {
            (self.b - self.a) / l
        } else {
            Vector3::y()
        };
        let m = density * 2.0 / 3.0 * std::f64::consts::PI * r * r * r;
        // Hemisphere about its centroid (3r/8 from the flat face): axial 2/5 m r², transverse 83/320 m r².
        let (axial, transverse) = (0.4 * m * r * r, 83.0 / 320.0 * m * r * r);
        let inertia = Matrix3::identity() * transverse + u * u.transpose() * (axial - transverse);
        let cap = MassProperties {
            mass: m,
            com: self.b + u * (3.0 * r / 8.0),
            inertia,
        };
        full.combine(&cap.scaled(-1.0))
    }

    /// Whether a point lies inside the capsule.
    pub fn contains(&self, p: &Point3<f64>) -> bool {
        let ab = self.b - self.a;
        let len2 = ab.norm_squared();
        let t = if len2 > 0.0 {
            ((p - self.a).dot(&ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (p - (self.a + ab * t)).norm() <= self.radius
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Midpoint-rule integration over a voxel grid of the capsule's points that pass `keep`: the reference the
    /// analytic formulas must meet.
    fn voxel_properties(
        c: &Capsule,
        density: f64,
        n: usize,
        keep: impl Fn(&Point3<f64>) -> bool,
    ) -> MassProperties {
        let lo = c.a.coords.inf(&c.b.coords).add_scalar(-c.radius);
        let hi = c.a.coords.sup(&c.b.coords).add_scalar(c.radius);
        let step = (hi - lo) / n as f64;
        let dv = step.x * step.y * step.z * density;
        let mut acc = MassProperties::zero();
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let offset = Vector3::new(i as f64 + 0.5, j as f64 + 0.5, k as f64 + 0.5);
                    let p = Point3::from(lo + step.component_mul(&offset));
                    if c.contains(&p) && keep(&p) {
                        let cell = MassProperties {
                            mass: dv,
                            com: p,
                            inertia: Matrix3::zeros(),
                        };
                        acc = acc.combine(&cell);
                    }
                }
            }
        }
        acc
    }

    #[test]
    fn analytic_capsule_matches_voxel_integration() {
        let c = Capsule {
            a: Point3::new(0.1, -0.2, 0.05),
            b: Point3::new(0.3, 0.2, -0.1),
            radius: 0.07,
        };
        let exact = c.mass_properties(1000.0);
        let grid = voxel_properties(&c, 1000.0, 120, |_| true);
        assert!(
            (exact.mass - grid.mass).abs() / exact.mass < 2e-3,
            "{} {}",
            exact.mass,
            grid.mass
        );
        assert!((exact.com - grid.com).norm() < 1e-4);
        let rel = (exact.inertia - grid.inertia).norm() / exact.inertia.norm();
        assert!(
            rel < 5e-3,
            "inertia relative error {rel}\n{}\n{}",
            exact.inertia,
            grid.inertia
        );
        assert!((exact.mass - 1000.0 * c.volume()).abs() < 1e-12);
    }

    #[test]
    fn open_end_capsule_matches_voxel_integration() {
        let c = Capsule {
            a: Point3::new(0.0, 0.0, 0.0),
            b: Point3::new(0.0, 0.25, 0.1),
            radius: 0.06,
        };
        let open = c.open_end_mass_properties(1000.0);
        // Voxel reference: the capsule minus the points beyond the end face at b.
        let u = (c.b - c.a).normalize();
        let acc = voxel_properties(&c, 1000.0, 120, |p| (p - c.b).dot(&u) <= 0.0);
        assert!(
            (open.mass - acc.mass).abs() / open.mass < 2e-3,
            "{} {}",
            open.mass,
            acc.mass
        );
        assert!((open.com - acc.com).norm() < 2e-4);
        let rel = (open.inertia - acc.inertia).norm() / open.inertia.norm();
        assert!(rel < 5e-3, "{rel}");
    }

    #[test]
    fn sphere_limit_and_combination() {
        let s = Capsule {
            a: Point3::origin(),
            b: Point3::origin(),
            radius: 0.1,
        };
        let p = s.mass_properties(1000.0);
        let m = 1000.0 * 4.0 / 3.0 * std::f64::consts::PI * 1e-3;
        assert!((p.mass - m).abs() < 1e-12);
        assert!((p.inertia - Matrix3::identity() * (0.4 * m * 0.01)).norm() < 1e-12);
        // Two spheres 1 m apart: transverse inertia gains 2·m·0.5².
        let mut q = p;
        q.com = Point3::new(1.0, 0.0, 0.0);
        let both = p.combine(&q);
        assert!((both.com.x - 0.5).abs() < 1e-12);
        assert!((both.inertia[(1, 1)] - (2.0 * 0.4 * m * 0.01 + 2.0 * m * 0.25)).abs() < 1e-12);
        assert!((both.inertia[(0, 0)] - 2.0 * 0.4 * m * 0.01).abs() < 1e-12);
    }
}
