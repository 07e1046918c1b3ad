//! The level as triangles for the page: every collider of a level file turned into world-space vertices and
//! triangle indices (planes as a 60 m square, round shapes tessellated by parry).

use flinch::level::{ColliderDesc, LevelShape};
use nalgebra::{Point3, Vector3};
use parry3d_f64::math::Vector as DVec3;
use parry3d_f64::shape::{Ball, Capsule};

/// parry's (glam) points as nalgebra points.
fn points(v: &[DVec3]) -> Vec<Point3<f64>> {
    v.iter().map(|p| Point3::new(p.x, p.y, p.z)).collect()
}

/// World-space triangles: flat `x y z` vertices and `i j k` indices.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct LevelMesh {
    /// Vertex coordinates (m), three per vertex.
    pub positions: Vec<f32>,
    /// Triangle corners, three per triangle.
    pub indices: Vec<u32>,
}

impl LevelMesh {
    fn push(&mut self, desc: &ColliderDesc, vertices: &[Point3<f64>], triangles: &[[u32; 3]]) {
        let base = (self.positions.len() / 3) as u32;
        for v in vertices {
            let w = desc.pose * v;
            self.positions.extend([w.x as f32, w.y as f32, w.z as f32]);
        }
        for t in triangles {
            self.indices.extend(t.iter().map(|i| base + i));
        }
    }

    /// Adds one collider.
    pub fn add(&mut self, desc: &ColliderDesc) {
        match &desc.shape {
            LevelShape::Plane { normal } => {
                let n = normal.try_normalize(1e-12).unwrap_or(Vector3::y());
                let u = n
                    .cross(&Vector3::x())
                    .try_normalize(1e-6)
                    .unwrap_or_else(|| n.cross(&Vector3::z()).normalize());
                let v = n.cross(&u);
                let s = 30.0;
                let corners: Vec<Point3<f64>> =
                    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                        .iter()
                        .map(|(a, b)| Point3::from(u * (a * s) + v * (b * s)))
                        .collect();
                self.push(desc, &corners, &[[0, 2, 1], [0, 3, 2]]);
            }
            LevelShape::Box { half_extents: h } => {
                let (corners, tris) = flinch::level::sample::box_triangles(-h, *h);
                self.push(desc, &corners, &tris);
            }
            LevelShape::Sphere { radius } => {
                let (v, t) = Ball::new(*radius).to_trimesh(12, 12);
                self.push(desc, &points(&v), &t);
            }
            LevelShape::Capsule {
                half_height,
                radius,
            } => {
                let (v, t) = Capsule::new_y(*half_height, *radius).to_trimesh(12, 12);
                self.push(desc, &points(&v), &t);
            }
            LevelShape::ConvexHull { points } => {
                let input: Vec<DVec3> = points.iter().map(|p| DVec3::new(p.x, p.y, p.z)).collect();
                let (v, t) = parry3d_f64::transformation::convex_hull(&input);
                self.push(desc, &self::points(&v), &t);
            }
            LevelShape::TriMesh {
                vertices,
                triangles,
            } => self.push(desc, vertices, triangles),
            LevelShape::HeightField {
                rows,
                cols,
                heights,
                size_x,
                size_z,
            } => {
                let (rows, cols) = (*rows, *cols);
                if rows < 2 || cols < 2 || heights.len() != rows * cols {
                    return;
                }
                let v: Vec<Point3<f64>> = (0..rows * cols)
                    .map(|k| {
                        let (r, c) = (k / cols, k % cols);
                        Point3::new(
                            (c as f64 / (cols - 1) as f64 - 0.5) * size_x,
                            heights[k],
                            (r as f64 / (rows - 1) as f64 - 0.5) * size_z,
                        )
                    })
                    .collect();
                let mut t = Vec::new();
                for r in 0..rows - 1 {
                    for c in 0..cols - 1 {
                        let k = (r * cols + c) as u32;
                        let (right, down) = (k + 1, k + cols as u32);
                        t.push([k, down, right]);
                        t.push([right, down, down + 1]);
                    }
                }
                self.push(desc, &v, &t);
            }
        }
    }
}
