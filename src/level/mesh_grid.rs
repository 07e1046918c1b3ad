//! A uniform grid over a triangle mesh (mesh frame) for the closest-point queries of a character's probes.
//!
//! parry answers "the closest point of this mesh within `max`" by a descent of the mesh's hierarchy. On the
//! sample level's floor (28 800 triangles in 0.2 m cells) that took 650–830 ns per probe: a probe a few
//! centimetres above a flat floor is as close to every node under it as to the answer, so the descent visits
//! 60–80 nodes (and each triangle it reaches also builds its normal constraints). A probe's box is a few
//! centimetres, about one cell of a grid whose cells are the size of the triangles: hashing the cells it
//! covers gives the few triangles that can be within `max`, each rejected by its box or projected once.
//! `docs/world.md`, "How a character meets it".

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use parry3d_f64::bounding_volume::Aabb;
use parry3d_f64::math::Vector;
use parry3d_f64::partitioning::BvhNode;
use parry3d_f64::query::PointProjection;
use parry3d_f64::shape::TriMesh;

/// A triangle covering more cells than this is kept in a list every query tests (by its box, cheap) instead of
/// in each cell it covers (a large wall in a fine mesh would fill thousands).
const MAX_CELLS_PER_TRIANGLE: i64 = 64;

/// How far (in cells) a triangle's box is drawn in, and a query's box widened, when placed in cells (see
/// [`MeshGrid::triangle_cells`]): far above the round-off of a corner's coordinate over the cell size.
const SLACK: f64 = 1e-6;

/// A query box covering more cells than this walks the mesh's own hierarchy instead (a deep probe in a fine mesh).
const MAX_CELLS_PER_QUERY: i64 = 64;

/// Triangles of a mesh binned by the grid cells their boxes cover.
#[derive(Clone)]
pub(crate) struct MeshGrid {
    /// Cell size (m) and its inverse.
    cell: f64,
    inv_cell: f64,
    /// Each non-empty cell's range in `triangles`.
    cells: HashMap<[i32; 3], (u32, u32), BuildHasherDefault<CellHasher>>,
    triangles: Vec<u32>,
    /// Triangles covering more than [`MAX_CELLS_PER_TRIANGLE`] cells.
    large: Vec<u32>,
    /// Every triangle's box and corners (mesh frame), by triangle index.
    boxes: Vec<Aabb>,
    corners: Vec<[Vector; 3]>,
}

impl std::fmt::Debug for MeshGrid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MeshGrid")
            .field("cell", &self.cell)
            .field("cells", &self.cells.len())
            .field("entries", &self.triangles.len())
            .field("large", &self.large.len())
            .finish()
    }
}

impl MeshGrid {
    /// The grid of `mesh`: cells as large as its triangles' boxes on average (their largest side), never smaller
    /// than a thousandth of the mesh's box diagonal.
    pub(crate) fn new(mesh: &TriMesh) -> MeshGrid {
        let corners: Vec<[Vector; 3]> = (0..mesh.num_triangles() as u32)
            .map(|t| {
                let tri = mesh.triangle(t);
                [tri.a, tri.b, tri.c]
            })
            .collect();
        let boxes: Vec<Aabb> = corners
            .iter()
            .map(|&[a, b, c]| Aabb::new(a.min(b).min(c), a.max(b).max(c)))
            .collect();
        let mean_side = boxes.iter().map(|b| b.extents().max_element()).sum::<f64>()
            / boxes.len().max(1) as f64;
        let diagonal = mesh.local_aabb().extents().length();
        let cell = mean_side.max(diagonal * 1e-3).max(1e-6);
        let inv_cell = 1.0 / cell;
        let mut grid = MeshGrid {
            cell,
            inv_cell,
            cells: HashMap::default(),
            triangles: Vec::new(),
            large: Vec::new(),
            boxes,
            corners,
        };
        // Two passes: count per cell, then place (one contiguous run per cell).
        let mut per_cell: HashMap<[i32; 3], Vec<u32>, BuildHasherDefault<CellHasher>> =
            HashMap::default();
        for (t, b) in grid.boxes.iter().enumerate() {
            let (lo, hi) = grid.triangle_cells(b.mins, b.maxs);
            if cell_count(lo, hi) > MAX_CELLS_PER_TRIANGLE {
                grid.large.push(t as u32);
                continue;
            }
            for_cells(lo, hi, |c| per_cell.entry(c).or_default().push(t as u32));
        }
        let mut keys: Vec<[i32; 3]> = per_cell.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            let list = &per_cell[&k];
            let start = grid.triangles.len() as u32;
            grid.triangles.extend_from_slice(list);
            grid.cells.insert(k, (start, list.len() as u32));
        }
        grid
    }

    /// The cells a query box `[lo, hi]` looks in (inclusive indices), widened by [`SLACK`] of a cell on both
    /// sides so that round-off in a box's corners never hides a triangle [`MeshGrid::triangle_cells`] placed.
    fn query_cells(&self, lo: Vector, hi: Vector) -> ([i32; 3], [i32; 3]) {
        let at = |x: f64, slack: f64| cell_index((x * self.inv_cell + slack).floor());
        (
            [at(lo.x, -SLACK), at(lo.y, -SLACK), at(lo.z, -SLACK)],
            [at(hi.x, SLACK), at(hi.y, SLACK), at(hi.z, SLACK)],
        )
    }

    /// The cells a triangle's box `[lo, hi]` is placed in: those its inside covers, its faces drawn in by
    /// [`SLACK`] of a cell, so that a mesh laid on the grid's own spacing (a floor of 0.2 m cells) puts each
    /// triangle in its own cells, not also in its neighbours' by the round-off of its corners. A query box that
    /// meets the triangle's box only within that slack of a face is `max` away from it along an axis (its cells
    /// are widened by the same slack), and the query keeps only points nearer than `max`.
    fn triangle_cells(&self, lo: Vector, hi: Vector) -> ([i32; 3], [i32; 3]) {
        let first = |x: f64| cell_index((x * self.inv_cell + SLACK).floor());
        let last = |x: f64| cell_index((x * self.inv_cell - SLACK).ceil() - 1.0);
        let lo = [first(lo.x), first(lo.y), first(lo.z)];
        let hi = [last(hi.x), last(hi.y), last(hi.z)];
        (lo, [hi[0].max(lo[0]), hi[1].max(lo[1]), hi[2].max(lo[2])])
    }

    /// The closest point of `mesh` (whose grid this is) to `point` (mesh frame) nearer than `max`, with its
    /// triangle; for an oriented mesh, whether `point` is inside (behind the pseudo-normal of the feature it
    /// projects onto), as parry's `project_local_point_and_get_location_with_max_dist` tells it.
    ///
    /// Ties (a point equally near two triangles across a shared edge) keep the first found, as parry does; the
    /// order may differ from parry's, the point and the side do not.
    pub(crate) fn closest(
        &self,
        mesh: &TriMesh,
        point: Vector,
        max: f64,
    ) -> Option<(PointProjection, u32)> {
        if !(point.is_finite() && max.is_finite()) {
            return None;
        }
        let reach = Vector::splat(max);
        let (lo, hi) = self.query_cells(point - reach, point + reach);
        let mut best: Option<(Vector, Feature, u32)> = None;
        let mut best_cost = max;
        let mut consider = |t: u32| {
            // The box is never farther than the triangle: a box beyond the best found (with room for round-off)
            // cannot hold a nearer point.
            let b = &self.boxes[t as usize];
            let gap = (b.mins - point).max(point - b.maxs).max(Vector::ZERO);
            if gap.length_squared() > best_cost * best_cost * (1.0 + 1e-9) {
                return;
            }
            let (foot, feature) = closest_on_triangle(point, &self.corners[t as usize]);
            let cost = (foot - point).length();
            if cost < best_cost {
                best_cost = cost;
                best = Some((foot, feature, t));
            }
        };
        if cell_count(lo, hi) > MAX_CELLS_PER_QUERY {
            let query = BvhNode::leaf(Aabb::new(point - reach, point + reach), 0);
            for t in mesh.bvh().leaves(|n| n.intersects(&query)) {
                consider(t);
            }
        } else {
            for_cells(lo, hi, |c| {
                if let Some(&(start, len)) = self.cells.get(&c) {
                    for &t in &self.triangles[start as usize..(start + len) as usize] {
                        consider(t);
                    }
                }
            });
            for &t in &self.large {
                consider(t);
            }
        }
        let (foot, feature, t) = best?;
        let mut is_inside = false;
        if let Some(pseudo) = mesh.pseudo_normals_if_oriented() {
            let normal = match feature {
                Feature::Face => Some(mesh.triangle(t).scaled_normal()),
                Feature::Edge(i) => pseudo.edges_pseudo_normal.get(t as usize).map(|n| n[i]),
                Feature::Vertex(i) => mesh
                    .indices()
                    .get(t as usize)
                    .and_then(|idx| pseudo.vertices_pseudo_normal.get(idx[i] as usize))
                    .copied(),
            };
            if let Some(n) = normal {
                is_inside = (point - foot).dot(n) <= 0.0;
            }
        }
        Some((PointProjection::new(is_inside, foot), t))
    }
}

/// A cell index from its floating-point value, saturated to `i32`.
fn cell_index(x: f64) -> i32 {
    x.clamp(i32::MIN as f64, i32::MAX as f64) as i32
}

/// The feature of a triangle a point projects onto, numbered as parry numbers them (and its pseudo-normals):
/// vertices a, b, c are 0, 1, 2; edges ab, bc, ca are 0, 1, 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feature {
    Face,
    Edge(usize),
    Vertex(usize),
}

/// The closest point of triangle `[a, b, c]` to `p` and the feature it lies on, by the Voronoi regions of the
/// corners, then of the edges, then the face (Ericson, *Real-Time Collision Detection*, §5.1.5). parry's own
/// projection tells the same regions with more care for slivers and reports barycentric coordinates we do not
/// use, at several times the cost; a level's triangles come through [`crate::level::LevelShape`]'s check, which
/// drops degenerate ones.
fn closest_on_triangle(p: Vector, &[a, b, c]: &[Vector; 3]) -> (Vector, Feature) {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, Feature::Vertex(0));
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return (b, Feature::Vertex(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (a + ab * (d1 / (d1 - d3)), Feature::Edge(0));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return (c, Feature::Vertex(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (a + ac * (d2 / (d2 - d6)), Feature::Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (b + (c - b) * w, Feature::Edge(1));
    }
    let denom = 1.0 / (va + vb + vc);
    (a + ab * (vb * denom) + ac * (vc * denom), Feature::Face)
}

/// Number of cells in the inclusive range `[lo, hi]`.
fn cell_count(lo: [i32; 3], hi: [i32; 3]) -> i64 {
    (0..3)
        .map(|a| i64::from(hi[a]) - i64::from(lo[a]) + 1)
        .fold(1, i64::saturating_mul)
}

/// Calls `visit` for every cell of the inclusive range `[lo, hi]`.
fn for_cells(lo: [i32; 3], hi: [i32; 3], mut visit: impl FnMut([i32; 3])) {
    for x in lo[0]..=hi[0] {
        for y in lo[1]..=hi[1] {
            for z in lo[2]..=hi[2] {
                visit([x, y, z]);
            }
        }
    }
}

/// A multiplicative hash of a cell's three indices (the std hasher's DoS resistance buys nothing for keys
/// computed from our own geometry, and costs more than the rest of a probe's lookup).
#[derive(Default, Clone, Copy)]
pub(crate) struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_i32(&mut self, i: i32) {
        self.write_u64(u64::from(i as u32));
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parry3d_f64::query::PointQueryWithLocation;
    use parry3d_f64::shape::TriMeshFlags;

    /// A wavy grid with steps, as a level's floor and stairs: every query's answer is parry's own.
    #[test]
    fn the_grid_answers_as_parrys_hierarchy() {
        let n = 40;
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        for i in 0..=n {
            for j in 0..=n {
                let (x, z) = (i as f64 * 0.2, j as f64 * 0.2);
                let step = if x > 3.0 { 0.15 } else { 0.0 };
                vertices.push(Vector::new(x, 0.05 * (x * 1.3).sin() * z.cos() + step, z));
            }
        }
        for i in 0..n {
            for j in 0..n {
                let a = (i * (n + 1) + j) as u32;
                let (b, d) = (a + 1, a + n as u32 + 1);
                indices.push([a, b, d + 1]);
                indices.push([a, d + 1, d]);
            }
        }
        let flags = TriMeshFlags::ORIENTED
            | TriMeshFlags::MERGE_DUPLICATE_VERTICES
            | TriMeshFlags::FIX_INTERNAL_EDGES;
        for mesh in [
            TriMesh::with_flags(vertices.clone(), indices.clone(), flags).unwrap(),
            TriMesh::new(vertices, indices).unwrap(),
        ] {
            let grid = MeshGrid::new(&mesh);
            let mut rnd = super::super::tests::uniform(7);
            let (mut found, mut inside) = (0, 0);
            for k in 0..4000 {
                let p = Vector::new(rnd() * 8.4 - 0.2, rnd() * 0.5 - 0.15, rnd() * 8.4 - 0.2);
                let max = [0.03, 0.1, 0.4, 2.0][k % 4];
                let ours = grid.closest(&mesh, p, max);
                let theirs = mesh.project_local_point_and_get_location_with_max_dist(p, false, max);
                match (ours, theirs) {
                    (None, None) => {}
                    (Some((a, _)), Some((b, _))) => {
                        found += 1;
                        inside += usize::from(a.is_inside);
                        assert!(
                            (a.point - p).length() - (b.point - p).length() <= 1e-12,
                            "{p:?} within {max}: {:?} against {:?}",
                            a.point,
                            b.point
                        );
                        assert!((a.point - b.point).length() < 1e-9, "{p:?}: {a:?} {b:?}");
                        assert_eq!(a.is_inside, b.is_inside, "{p:?}");
                    }
                    (a, b) => panic!("{p:?} within {max}: {a:?} against {b:?}"),
                }
            }
            assert!(found > 1500, "{found} found");
            assert!(
                mesh.pseudo_normals_if_oriented().is_none() || inside > 100,
                "{inside} inside"
            );
        }
    }

    #[test]
    fn a_non_finite_point_finds_nothing() {
        let mesh = TriMesh::new(vec![Vector::ZERO, Vector::X, Vector::Z], vec![[0, 1, 2]]).unwrap();
        let grid = MeshGrid::new(&mesh);
        assert!(
            grid.closest(&mesh, Vector::new(f64::NAN, 0.0, 0.0), 0.1)
                .is_none()
        );
        assert!(
            grid.closest(&mesh, Vector::new(0.2, 0.01, 0.2), 0.1)
                .is_some()
        );
    }
}
