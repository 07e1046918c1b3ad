//! The physical description a URDF carries, converted to flinch conventions: per link mass, centre of mass,
//! inertia tensor (about the CoM, in the link frame) and collision shapes; per joint kind, axis and limits.
//!
//! This is import data, not the dynamics model: the `model` layer adopts it. Lengths are metres (after the
//! importer's unit factor), masses kilograms, inertias kg·m², angles radians. Everything is expressed in the
//! **link frame**, which is also the frame of the matching skeleton joint, so the up-axis conversion (applied to
//! the root's rest rotation only) leaves these numbers untouched.

use nalgebra::{Isometry3, Matrix3, Unit, UnitQuaternion, Vector3};

/// The kind of a URDF joint (including Bullet's `spherical` extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JointKind {
    /// One rotation about the axis, with limits.
    Revolute,
    /// One rotation about the axis, unlimited.
    Continuous,
    /// One translation along the axis, with limits.
    Prismatic,
    /// No motion.
    Fixed,
    /// Six degrees of freedom.
    Floating,
    /// Translation in the plane normal to the axis and rotation about it.
    Planar,
    /// Three rotations about the joint origin (a Bullet/PyBullet extension; `urdf_rs` 0.9 parses it).
    Spherical,
}

impl JointKind {
    /// The URDF spelling (`revolute`, `continuous`, ...).
    pub fn name(self) -> &'static str {
        match self {
            JointKind::Revolute => "revolute",
            JointKind::Continuous => "continuous",
            JointKind::Prismatic => "prismatic",
            JointKind::Fixed => "fixed",
            JointKind::Floating => "floating",
            JointKind::Planar => "planar",
            JointKind::Spherical => "spherical",
        }
    }

    /// Degrees of freedom the joint allows.
    pub fn dof(self) -> usize {
        match self {
            JointKind::Fixed => 0,
            JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic => 1,
            JointKind::Planar | JointKind::Spherical => 3,
            JointKind::Floating => 6,
        }
    }

    /// Whether the joint's `<axis>` means something (revolute, continuous, prismatic, planar).
    pub fn uses_axis(self) -> bool {
        matches!(
            self,
            JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic | JointKind::Planar
        )
    }
}

/// Joint limits as the file gives them (`<limit>`), after the unit factor for prismatic positions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointLimits {
    /// Lower position limit (rad, or m for prismatic joints).
    pub lower: f64,
    /// Upper position limit (rad, or m for prismatic joints).
    pub upper: f64,
    /// Maximum effort (N·m, or N for prismatic joints); 0 when the file gives none.
    pub effort: f64,
    /// Maximum speed (rad/s, or m/s for prismatic joints).
    pub velocity: f64,
}

/// A URDF joint: how a link moves relative to its parent.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfJoint {
    /// The joint's name in the file (the skeleton joint is named after the child link instead).
    pub name: String,
    /// The joint kind.
    pub kind: JointKind,
    /// The joint frame (= child link frame) in the parent link frame at rest: `<origin xyz rpy>`, with the
    /// rotation R = Rz(yaw)·Ry(pitch)·Rx(roll).
    pub origin: Isometry3<f64>,
    /// Unit axis in the joint (child) frame; `+x` for kinds that ignore the axis (URDF's default).
    pub axis: Unit<Vector3<f64>>,
    /// Position limits; `None` for continuous, fixed, floating, spherical and planar joints, and for
    /// revolute/prismatic joints whose `<limit>` is missing (warned at import).
    pub limits: Option<JointLimits>,
    /// Viscous damping from `<dynamics damping>` (N·m·s/rad or N·s/m), 0 when absent.
    pub damping: f64,
    /// Coulomb friction from `<dynamics friction>` (N·m or N), 0 when absent.
    pub friction: f64,
}

/// A primitive collision geometry, in its own frame (see [`CollisionShape::pose`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ShapeKind {
    /// An axis-aligned box centred on the origin, with full edge lengths `size` (m).
    Box {
        /// Full edge lengths along x, y, z (m).
        size: Vector3<f64>,
    },
    /// A cylinder along z, centred on the origin.
    Cylinder {
        /// Radius (m).
        radius: f64,
        /// Full length along z (m).
        length: f64,
    },
    /// A capsule along z, centred on the origin (Bullet extension): `length` is the distance between the two
    /// hemisphere centres, so the total extent along z is `length + 2·radius` (Bullet's `btCapsuleShapeZ`).
    Capsule {
        /// Radius (m).
        radius: f64,
        /// Distance between the hemisphere centres (m).
        length: f64,
    },
    /// A sphere centred on the origin.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
}

impl ShapeKind {
    /// Short name: `box`, `cylinder`, `capsule`, `sphere`.
    pub fn name(&self) -> &'static str {
        match self {
            ShapeKind::Box { .. } => "box",
            ShapeKind::Cylinder { .. } => "cylinder",
            ShapeKind::Capsule { .. } => "capsule",
            ShapeKind::Sphere { .. } => "sphere",
        }
    }
}

/// One `<collision>` element of a link.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CollisionShape {
    /// The geometry.
    pub kind: ShapeKind,
    /// The geometry's frame in the link frame (`<collision><origin>`).
    pub pose: Isometry3<f64>,
}

/// One URDF link with its physical properties; index `i` matches skeleton joint `i`.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfLink {
    /// The link's name (also the skeleton joint's name).
    pub name: String,
    /// Parent link index (`None` for the root); parents come before children.
    pub parent: Option<usize>,
    /// Mass (kg); 0 for massless dummy links and static bases.
    pub mass: f64,
    /// Centre of mass in the link frame (m): `<inertial><origin xyz>`.
    pub com: Vector3<f64>,
    /// Inertia tensor about the centre of mass, **in the link frame** (kg·m²): the file's tensor, given in the
    /// inertial frame, rotated by that frame's `rpy` as R·I·Rᵀ.
    pub inertia: Matrix3<f64>,
    /// Primitive collision shapes (mesh geometry is skipped with a warning).
    pub shapes: Vec<CollisionShape>,
    /// The joint connecting this link to its parent (`None` for the root).
    pub joint: Option<UrdfJoint>,
}

/// The physical side of an imported URDF: links in skeleton order.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfModel {
    /// The `<robot name>` (may be empty).
    pub name: String,
    /// The links, root first, parents before children; `links[i]` is skeleton joint `i`.
    pub links: Vec<UrdfLink>,
    /// Rotation from the file's root frame to flinch's Y-up world (identity for Y-up files, −90° about x for
    /// Z-up ones); it is the skeleton root's rest rotation. Link-frame data above do not depend on it.
    pub up_rotation: UnitQuaternion<f64>,
}

impl UrdfModel {
    /// Sum of all link masses (kg).
    pub fn total_mass(&self) -> f64 {
        self.links.iter().map(|l| l.mass).sum()
    }

    /// Index of the link with this exact name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l.name == name)
    }

    /// Rest-pose transform of every link frame in the model's root frame (the root's own frame, before any
    /// up-axis conversion): the product of the joint origins along the chain.
    pub fn rest_link_frames(&self) -> Vec<Isometry3<f64>> {
        let mut out: Vec<Isometry3<f64>> = Vec::with_capacity(self.links.len());
        for link in &self.links {
            let local = link
                .joint
                .as_ref()
                .map_or_else(Isometry3::identity, |j| j.origin);
            let world = match link.parent.and_then(|p| out.get(p)) {
                Some(parent) => parent * local,
                None => local,
            };
            out.push(world);
        }
        out
    }
}

/// Rotates an inertia tensor from a frame rotated by `r` into the outer frame: I' = R·I·Rᵀ.
pub fn rotate_inertia(r: &Matrix3<f64>, inertia: &Matrix3<f64>) -> Matrix3<f64> {
    r * inertia * r.transpose()
}

/// Why an inertia tensor (symmetric 3×3) is physically impossible, or `None` when it is fine.
///
/// Checks: finite entries, positive semi-definite (smallest eigenvalue ≥ −1e-9·scale, so round-off in files
/// written with 5 decimals passes). The triangle inequality of principal moments is reported by
/// [`triangle_violation`] separately, because files in the wild break it slightly and it is only a warning.
pub fn inertia_problem(inertia: &Matrix3<f64>) -> Option<String> {
    if inertia.iter().any(|v| !v.is_finite()) {
        return Some("inertia tensor has a non-finite entry".to_string());
    }
    let eig = inertia.symmetric_eigenvalues();
    let scale = eig.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let min = eig.min();
    if min < -1e-9 * scale.max(1e-12) {
        return Some(format!(
            "inertia tensor is not positive semi-definite (principal moments {:.6}, {:.6}, {:.6} kg·m²)",
            eig[0], eig[1], eig[2]
        ));
    }
    None
}

/// The relative amount by which the principal moments break the triangle inequality (A + B ≥ C for every
/// ordering), or `None` when they satisfy it to 1e-6 relative.
pub fn triangle_violation(inertia: &Matrix3<f64>) -> Option<f64> {
    let mut e: Vec<f64> = inertia.symmetric_eigenvalues().iter().copied().collect();
    e.sort_by(f64::total_cmp);
    match e.as_slice() {
        [a, b, c] if *c > 0.0 => {
            let excess = (c - (a + b)) / c;
            (excess > 1e-6).then_some(excess)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
