//! The sample level shipped in `samples/level/training_ground.glb`, generated here (`cargo run --example
//! make_level`; a test checks the committed file is these bytes): a 24 m floor of 28 800 triangles, a ledge 1 m
//! high, a wall, a flight of four 15 cm steps up to a landing and four down, a 10° and a 20° ramp, and a table.
//!
//! Level frame: Y up, floor at y = 0. [`SPOTS`] names where a character walks in front of each feature (the
//! feature behind it), for the knock-down runs.

use nalgebra::{Point3, Vector3};

use super::write::LevelMesh;

/// A place in front of a feature: a character passes `position` (level frame, on the surface it stands on)
/// walking along `facing` with the feature behind it, so a hit from the front throws it back onto the feature.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    /// Name ("wall", "stairs", "ledge").
    pub name: &'static str,
    /// The point on the walking surface (level frame).
    pub position: Point3<f64>,
    /// The walking direction there (level frame, horizontal, unit).
    pub facing: Vector3<f64>,
}

/// The sample level's spots, where a walker passing at 0.25 s falls onto the feature behind it: 0.55 m from the
/// wall (closer, its trailing foot starts inside the wall), 0.3 m from the stairs' landing edge (four 15 cm steps
/// down behind) and from the 1 m ledge's edge.
pub const SPOTS: [Spot; 3] = [
    Spot {
        name: "wall",
        position: Point3::new(5.45, 0.0, -8.0),
        facing: Vector3::new(-1.0, 0.0, 0.0),
    },
    Spot {
        name: "stairs",
        position: Point3::new(0.7, 0.6, 0.0),
        facing: Vector3::new(-1.0, 0.0, 0.0),
    },
    Spot {
        name: "ledge",
        position: Point3::new(0.7, 1.0, 8.0),
        facing: Vector3::new(-1.0, 0.0, 0.0),
    },
];

/// The stairs' rise per step (m).
pub const STEP_RISE: f64 = 0.15;

/// A closed box mesh between corners `lo` and `hi` (12 triangles, outward counter-clockwise).
pub fn box_mesh(name: &str, lo: Vector3<f64>, hi: Vector3<f64>) -> LevelMesh {
    let mut m = LevelMesh::new(name);
    m.add_box(lo, hi);
    m
}

/// A closed box between corners `lo` and `hi`: its 8 corners (bit 0, 1, 2 of the index pick x, y, z from `hi`)
/// and 12 triangles, counter-clockwise seen from outside.
pub fn box_triangles(lo: Vector3<f64>, hi: Vector3<f64>) -> (Vec<Point3<f64>>, Vec<[u32; 3]>) {
    let c = |i: usize| {
        Point3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    };
    // Faces as quads (outward, counter-clockwise): -x, +x, -y, +y, -z, +z.
    let quads: [[u32; 4]; 6] = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];
    let triangles = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    ((0..8).map(c).collect(), triangles)
}

impl LevelMesh {
    /// Appends a closed box between corners `lo` and `hi`.
    pub fn add_box(&mut self, lo: Vector3<f64>, hi: Vector3<f64>) {
        let base = self.vertices.len() as u32;
        let (vertices, triangles) = box_triangles(lo, hi);
        self.vertices.extend(vertices);
        self.triangles
            .extend(triangles.iter().map(|t| t.map(|i| base + i)));
    }

    /// Appends a closed prism: the profile `(x, y)` polygon (counter-clockwise seen from −z... any convex one)
    /// extruded along z from `z0` to `z1`. The profile is in the YZ plane here: points are `(z, y)`, extruded
    /// along x from `x0` to `x1`.
    pub fn add_prism_x(&mut self, profile: &[(f64, f64)], x0: f64, x1: f64) {
        let n = profile.len() as u32;
        let base = self.vertices.len() as u32;
        for &(z, y) in profile {
            self.vertices.push(Point3::new(x0, y, z));
        }
        for &(z, y) in profile {
            self.vertices.push(Point3::new(x1, y, z));
        }
        // The profile is counter-clockwise seen from +x: the x1 cap keeps its order, the x0 cap reverses it.
        for i in 1..n - 1 {
            self.triangles
                .push([base + n, base + n + i, base + n + i + 1]);
            self.triangles.push([base, base + i + 1, base + i]);
        }
        for i in 0..n {
            let j = (i + 1) % n;
            self.triangles.push([base + i, base + j, base + n + j]);
            self.triangles.push([base + i, base + n + j, base + n + i]);
        }
    }
}

/// A ramp of `degrees` along +z from `z0` over `run` metres, a plateau of `top` metres and the same ramp down,
/// between `x0` and `x1`.
fn ramp(name: &str, degrees: f64, x0: f64, x1: f64, z0: f64, run: f64, top: f64) -> LevelMesh {
    let rise = run * degrees.to_radians().tan();
    let mut m = LevelMesh::new(name);
    // Profile (z, y), counter-clockwise seen from +x (z to the left... checked by the outward-normal test).
    let z1 = z0 + run;
    let z2 = z1 + top;
    let z3 = z2 + run;
    m.add_prism_x(&[(z0, 0.0), (z3, 0.0), (z2, rise), (z1, rise)], x0, x1);
    m
}

/// The sample level's meshes, with their node translations (the table top is posed by its node).
pub fn sample_level() -> Vec<(LevelMesh, Vector3<f64>)> {
    let v = Vector3::new;
    let at_origin = Vector3::zeros();
    let mut out = Vec::new();
    // The floor: a 24 m square of 0.2 m cells, two triangles each (28 800 triangles).
    let mut floor = LevelMesh::new("Floor");
    let (cells, half) = (120usize, 12.0);
    let step = 2.0 * half / cells as f64;
    for r in 0..=cells {
        for c in 0..=cells {
            floor.vertices.push(Point3::new(
                -half + c as f64 * step,
                0.0,
                -half + r as f64 * step,
            ));
        }
    }
    let w = cells as u32 + 1;
    for r in 0..cells as u32 {
        for c in 0..cells as u32 {
            let (a, b, d, e) = (
                r * w + c,
                r * w + c + 1,
                (r + 1) * w + c,
                (r + 1) * w + c + 1,
            );
            // Counter-clockwise seen from +y.
            floor.triangles.push([a, d, e]);
            floor.triangles.push([a, e, b]);
        }
    }
    out.push((floor, at_origin));
    out.push((
        box_mesh("Ledge_box", v(-4.0, 0.0, 6.0), v(1.0, 1.0, 10.0)),
        at_origin,
    ));
    out.push((
        box_mesh("Wall_box", v(6.0, 0.0, -10.0), v(6.2, 2.5, -6.0)),
        at_origin,
    ));
    // The stairs: a landing 0.6 m high between x = -3 and 1, four 15 cm steps down on each side (0.3 m
    // treads), as one mesh of boxes.
    let mut stairs = LevelMesh::new("Stairs");
    stairs.add_box(v(-3.0, 0.0, -4.0), v(1.0, 4.0 * STEP_RISE, 4.0));
    for i in 1..4 {
        let top = (4 - i) as f64 * STEP_RISE;
        let (a, b) = (0.3 * (i - 1) as f64, 0.3 * i as f64);
        stairs.add_box(v(1.0 + a, 0.0, -4.0), v(1.0 + b, top, 4.0));
        stairs.add_box(v(-3.0 - b, 0.0, -4.0), v(-3.0 - a, top, 4.0));
    }
    out.push((stairs, at_origin));
    out.push((
        ramp("Slope10_convex", 10.0, 4.0, 6.0, -4.0, 3.0, 2.0),
        at_origin,
    ));
    out.push((
        ramp("Slope20_convex", 20.0, 7.0, 9.0, -4.0, 3.0, 2.0),
        at_origin,
    ));
    // The table: a top posed by its node (local box about its origin), four legs.
    out.push((
        box_mesh("TableTop_box", v(-0.6, -0.025, -0.4), v(0.6, 0.025, 0.4)),
        v(-7.4, 0.725, 0.0),
    ));
    for (i, (x, z)) in [(-7.95, -0.35), (-6.9, -0.35), (-7.95, 0.3), (-6.9, 0.3)]
        .iter()
        .enumerate()
    {
        out.push((
            box_mesh(
                &format!("TableLeg{}_box", i + 1),
                v(*x, 0.0, *z),
                v(x + 0.05, 0.7, z + 0.05),
            ),
            at_origin,
        ));
    }
    out
}
