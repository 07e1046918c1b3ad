//! The shapes a level is made of, their validation and their parry form.

use nalgebra::{Point3, Vector3};
use parry3d_f64::math::Vector as DVec3;
use parry3d_f64::shape::{SharedShape, TriMeshFlags};

use super::LevelError;
use crate::contact::collision::shape::to_vec;

/// A collider's shape, in its collider frame (metres, Y up like the rest of flinch).
#[derive(Debug, Clone, PartialEq)]
pub enum LevelShape {
    /// The solid half-space below the plane through the collider origin with outward `normal` (a floor when the
    /// normal is +Y; any angle for a slope or an endless wall).
    Plane {
        /// Outward normal; normalised on use, must be nonzero.
        normal: Vector3<f64>,
    },
    /// A box centred on the collider origin, edges along its axes.
    Box {
        /// Half edge lengths (m), each > 0.
        half_extents: Vector3<f64>,
    },
    /// A ball centred on the collider origin.
    Sphere {
        /// Radius (m), > 0.
        radius: f64,
    },
    /// The points within `radius` of the segment from `(0, −half_height, 0)` to `(0, half_height, 0)`.
    Capsule {
        /// Half the axis length (m), ≥ 0.
        half_height: f64,
        /// Radius (m), > 0.
        radius: f64,
    },
    /// The convex hull of `points` (at least 4 points not in one plane).
    ConvexHull {
        /// The points (collider frame).
        points: Vec<Point3<f64>>,
    },
    /// A triangle soup or mesh: the surface only (a body inside a closed mesh is not pushed out).
    TriMesh {
        /// Vertices (collider frame).
        vertices: Vec<Point3<f64>>,
        /// Counter-clockwise triangles seen from outside (indices into `vertices`).
        triangles: Vec<[u32; 3]>,
    },
    /// A regular height grid on the collider's XZ plane, centred on its origin: `heights[row * cols + col]` is
    /// the height (m) at `x = (col / (cols − 1) − ½)·size_x`, `z = (row / (rows − 1) − ½)·size_z`.
    HeightField {
        /// Rows (along z), ≥ 2.
        rows: usize,
        /// Columns (along x), ≥ 2.
        cols: usize,
        /// `rows × cols` heights (m), row by row.
        heights: Vec<f64>,
        /// Extent along x (m), > 0.
        size_x: f64,
        /// Extent along z (m), > 0.
        size_z: f64,
    },
}

/// What `Level::add` found in a mesh that is still usable (as a triangle soup).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MeshReport {
    /// Triangles of zero area (repeated or collinear corners), dropped.
    pub degenerate: usize,
    /// Edges shared by more than two triangles.
    pub non_manifold_edges: usize,
    /// Edges of one triangle only (an open mesh: fine for a floor, a stair or a terrain patch).
    pub boundary_edges: usize,
}

impl MeshReport {
    /// Whether the mesh is a closed 2-manifold without degenerate triangles.
    pub fn is_clean(&self) -> bool {
        self.degenerate == 0 && self.non_manifold_edges == 0 && self.boundary_edges == 0
    }
}

fn finite(p: &Point3<f64>) -> bool {
    p.coords.iter().all(|x| x.is_finite())
}

fn positive(x: f64) -> bool {
    x.is_finite() && x > 0.0
}

impl LevelShape {
    /// The number of triangles the shape holds (meshes and height fields; 0 for the others).
    pub fn triangles(&self) -> usize {
        match self {
            LevelShape::TriMesh { triangles, .. } => triangles.len(),
            LevelShape::HeightField { rows, cols, .. } => {
                2 * rows.saturating_sub(1) * cols.saturating_sub(1)
            }
            _ => 0,
        }
    }

    /// Checks the shape and builds its parry form; meshes come back with the triangles they dropped and their
    /// defects. `max_triangles` bounds meshes and height fields.
    pub(crate) fn build(
        &self,
        max_triangles: usize,
    ) -> Result<(SharedShape, MeshReport), LevelError> {
        let bad = |what: String| Err(LevelError::Shape(what));
        if self.triangles() > max_triangles {
            return bad(crate::io::Limits::exceeded(
                format!("{} triangles", self.triangles()),
                "max_triangles",
                max_triangles,
            ));
        }
        let shape = match self {
            LevelShape::Plane { normal } => {
                let n = normal.try_normalize(1e-12);
                match n.filter(|n| n.iter().all(|x| x.is_finite())) {
                    Some(n) => SharedShape::halfspace(to_vec(&n)),
                    None => return bad(format!("plane normal {normal:?} is zero or not finite")),
                }
            }
            LevelShape::Box { half_extents: h } => {
                if !h.iter().all(|x| positive(*x)) {
                    return bad(format!("box half extents {h:?} must be finite and > 0"));
                }
                SharedShape::cuboid(h.x, h.y, h.z)
            }
            LevelShape::Sphere { radius } => {
                if !positive(*radius) {
                    return bad(format!("sphere radius {radius} must be finite and > 0"));
                }
                SharedShape::ball(*radius)
            }
            LevelShape::Capsule {
                half_height,
                radius,
            } => {
                if !(positive(*radius) && half_height.is_finite() && *half_height >= 0.0) {
                    return bad(format!(
                        "capsule half height {half_height} must be finite and ≥ 0, radius {radius} > 0"
                    ));
                }
                SharedShape::capsule_y(*half_height, *radius)
            }
            LevelShape::ConvexHull { points } => {
                if let Some(i) = points.iter().position(|p| !finite(p)) {
                    return bad(format!(
                        "convex hull point {i} is not finite: {:?}",
                        points[i]
                    ));
                }
                let pts: Vec<DVec3> = points.iter().map(|p| to_vec(&p.coords)).collect();
                if pts.len() < 4 {
                    return bad(format!(
                        "a convex hull needs at least 4 points, got {}",
                        pts.len()
                    ));
                }
                // parry's hull asserts on some inputs of one plane: check the volume spread first.
                if flat(points) {
                    return bad("convex hull points lie in one plane (zero volume)".into());
                }
                match std::panic::catch_unwind(|| SharedShape::convex_hull(&pts)) {
                    Ok(Some(s)) => s,
                    _ => return bad("convex hull of degenerate points".into()),
                }
            }
            LevelShape::TriMesh {
                vertices,
                triangles,
            } => return trimesh(vertices, triangles),
            LevelShape::HeightField {
                rows,
                cols,
                heights,
                size_x,
                size_z,
            } => {
                if *rows < 2 || *cols < 2 {
                    return bad(format!(
                        "a height field needs ≥ 2 rows and columns, got {rows} × {cols}"
                    ));
                }
                if heights.len() != rows * cols {
                    return bad(format!(
                        "a {rows} × {cols} height field needs {} heights, got {}",
                        rows * cols,
                        heights.len()
                    ));
                }
                if let Some(i) = heights.iter().position(|h| !h.is_finite()) {
                    return bad(format!(
                        "height field height {i} (row {}, column {}) is not finite: {}",
                        i / cols,
                        i % cols,
                        heights[i]
                    ));
                }
                if !positive(*size_x) || !positive(*size_z) {
                    return bad(format!(
                        "height field size {size_x} × {size_z} must be finite and > 0"
                    ));
                }
                // A grid mesh of the same triangles: parry's height field answers a point under its surface with
                // the closest point and a downward normal (a one-sided surface), where a terrain is solid below.
                let mut vertices = Vec::with_capacity(rows * cols);
                for r in 0..*rows {
                    for c in 0..*cols {
                        vertices.push(Point3::new(
                            (c as f64 / (cols - 1) as f64 - 0.5) * size_x,
                            heights[r * cols + c],
                            (r as f64 / (rows - 1) as f64 - 0.5) * size_z,
                        ));
                    }
                }
                let mut triangles = Vec::with_capacity(2 * (rows - 1) * (cols - 1));
                let w = *cols as u32;
                for r in 0..*rows as u32 - 1 {
                    for c in 0..w - 1 {
                        let (a, b, d, e) = (
                            r * w + c,
                            r * w + c + 1,
                            (r + 1) * w + c,
                            (r + 1) * w + c + 1,
                        );
                        // Counter-clockwise seen from +y.
                        triangles.push([a, d, e]);
                        triangles.push([a, e, b]);
                    }
                }
                return trimesh(&vertices, &triangles);
            }
        };
        Ok((shape, MeshReport::default()))
    }
}

/// Whether all points lie within 1e-9 (relative) of one plane.
fn flat(points: &[Point3<f64>]) -> bool {
    let p0 = points[0];
    let scale = points
        .iter()
        .map(|p| (p - p0).norm())
        .fold(0.0, f64::max)
        .max(1e-300);
    let Some(p1) = points
        .iter()
        .max_by(|a, b| (*a - p0).norm().total_cmp(&(*b - p0).norm()))
    else {
        return true;
    };
    let u = p1 - p0;
    let Some(p2) = points.iter().max_by(|a, b| {
        u.cross(&(*a - p0))
            .norm()
            .total_cmp(&u.cross(&(*b - p0)).norm())
    }) else {
        return true;
    };
    let n = u.cross(&(p2 - p0));
    if n.norm() <= 1e-9 * scale * scale {
        return true;
    }
    let n = n.normalize();
    points
        .iter()
        .all(|p| n.dot(&(p - p0)).abs() <= 1e-9 * scale)
}

/// A triangle mesh: checked vertices and indices, degenerate triangles dropped, edges counted. A manifold (closed
/// or open) is oriented: its pseudo-normals tell a point under its surface from one above.
fn trimesh(
    vertices: &[Point3<f64>],
    triangles: &[[u32; 3]],
) -> Result<(SharedShape, MeshReport), LevelError> {
    let bad = |what: String| Err(LevelError::Shape(what));
    if vertices.is_empty() || triangles.is_empty() {
        return bad(format!(
            "an empty mesh ({} vertices, {} triangles)",
            vertices.len(),
            triangles.len()
        ));
    }
    if let Some(i) = vertices.iter().position(|p| !finite(p)) {
        return bad(format!("mesh vertex {i} is not finite: {:?}", vertices[i]));
    }
    let mut report = MeshReport::default();
    let mut kept = Vec::with_capacity(triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        if let Some(&i) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
            return bad(format!(
                "mesh triangle {t} names vertex {i}, beyond the {} vertices",
                vertices.len()
            ));
        }
        let [a, b, c] = tri.map(|i| vertices[i as usize]);
        let area2 = (b - a).cross(&(c - a)).norm();
        let size = (b - a).norm().max((c - a).norm()).max((c - b).norm());
        if area2.is_nan() || area2 <= 1e-12 * size * size || size == 0.0 {
            report.degenerate += 1;
            continue;
        }
        kept.push(*tri);
    }
    if kept.is_empty() {
        return bad(format!(
            "every one of the mesh's {} triangles is degenerate (zero area)",
            triangles.len()
        ));
    }
    let mut edges: std::collections::HashMap<(u32, u32), u32> =
        std::collections::HashMap::with_capacity(kept.len() * 3);
    for tri in &kept {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            *edges.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    for &n in edges.values() {
        match n {
            1 => report.boundary_edges += 1,
            2 => {}
            _ => report.non_manifold_edges += 1,
        }
    }
    let verts: Vec<DVec3> = vertices.iter().map(|p| to_vec(&p.coords)).collect();
    // Merged duplicate vertices and fixed internal edges (no bumps where a body slides from one triangle onto
    // the next) need a manifold; a soup keeps its triangles as they are.
    let flags = if report.non_manifold_edges == 0 {
        TriMeshFlags::ORIENTED
            | TriMeshFlags::MERGE_DUPLICATE_VERTICES
            | TriMeshFlags::FIX_INTERNAL_EDGES
    } else {
        TriMeshFlags::empty()
    };
    let shape = SharedShape::trimesh_with_flags(verts.clone(), kept.clone(), flags)
        .or_else(|_| SharedShape::trimesh_with_flags(verts, kept, TriMeshFlags::empty()))
        .map_err(|e| LevelError::Shape(format!("triangle mesh: {e}")))?;
    Ok((shape, report))
}
