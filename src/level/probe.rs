//! Probing a level: the contacts of a character's probe spheres with the colliders near them, and how deep a
//! probe sits inside them (`docs/world.md`, "How a character meets it").

use nalgebra::{Isometry3, Point3, Vector3};
use parry3d_f64::bounding_volume::Aabb;
use parry3d_f64::query::PointQueryWithLocation;
use parry3d_f64::shape::Ball;

use super::probe_memory::{MeshMemory, Owner, ProbeMemory};
use super::{Entry, Level, LevelTouch, Motion};
use crate::contact::collision::shape::{from_vec, to_pose, to_vec};

/// The smallest probe radius given to parry (m): a sole point (radius 0) is probed as a sphere this small and the
/// contact moved back onto the point, which is exact (the closest point to the centre does not depend on it).
const MIN_PROBE_RADIUS: f64 = 1e-4;

/// How deep inside a collider [`Level::probe_depth`] looks (m): a probe is found by [`Level::probe`] within its
/// margin of a surface, on either side (a mesh tells the sides by its pseudo-normals), and speculative margins keep
/// bodies from getting deeper.
pub(super) const MAX_DEPTH: f64 = 0.1;

impl Level {
    /// The contacts of a probe sphere (centre `centre`, world; `radius` ≥ 0, 0 for a point) with the colliders
    /// within `margin` of it whose layers meet the character's (`layers`, `mask`): for each collider, its closest
    /// point to the probe. This is the flat floor's contact generalised: against a horizontal plane at height y it
    /// gives the point below the centre, the point (x, y, z) and the normal +Y.
    ///
    /// A kinematic collider is probed `h` seconds further out, by how far it can move in a step of `h`
    /// (speculative contacts: a swung bat is met before it passes through).
    pub fn probe(
        &self,
        centre: &Vector3<f64>,
        radius: f64,
        margin: f64,
        h: f64,
        layers: (u32, u32),
        out: impl FnMut(LevelTouch),
    ) {
        self.probe_remembering(centre, radius, margin, h, layers, None, out);
    }

    /// [`Level::probe`] for a probe that keeps a [`ProbeMemory`] from step to step (a character's probe): the
    /// same contacts (ties between equally close triangles of a mesh to the lowest index), found among the
    /// colliders and triangles it remembers while it stays near them and the level is unchanged.
    #[allow(clippy::too_many_arguments)]
    pub fn probe_remembering(
        &self,
        centre: &Vector3<f64>,
        radius: f64,
        margin: f64,
        h: f64,
        (layers, mask): (u32, u32),
        memory: Option<&mut ProbeMemory>,
        mut out: impl FnMut(LevelTouch),
    ) {
        let r = radius.max(MIN_PROBE_RADIUS);
        let reach = r + margin + self.max_speed * h;
        let c = to_vec(centre);
        let aabb = Aabb::new(
            c - parry3d_f64::math::Vector::splat(reach),
            c + parry3d_f64::math::Vector::splat(reach),
        );
        let mut visit = |i: u32, e: &Entry, meshes: Option<&mut MeshMemory>| {
            if e.layers & mask == 0 || e.mask & layers == 0 {
                return;
            }
            if let Some(t) = self.probe_entry(i, e, (centre, radius), margin, h, meshes) {
                out(t);
            }
        };
        match memory {
            Some(ProbeMemory { near, meshes }) => {
                self.near_remembering(&aabb, near, |i, e| visit(i, e, Some(meshes)))
            }
            None => self.near(&aabb, |i, e| visit(i, e, None)),
        }
    }

    /// The contact of a probe sphere with the collider in slot `index` (see [`Level::probe`]).
    pub(crate) fn probe_entry(
        &self,
        index: u32,
        e: &Entry,
        (centre, radius): (&Vector3<f64>, f64),
        margin: f64,
        h: f64,
        memory: Option<&mut MeshMemory>,
    ) -> Option<LevelTouch> {
        let r = radius.max(MIN_PROBE_RADIUS);
        let prediction = margin + (r - radius) + e.speed * h;
        let key = self.key_of(index);
        let remembered = memory.map(|m| (m, (key.to_raw(), shape_address(e))));
        let (other_point, normal) = surface_near(e, centre, r, r + prediction, remembered)?;
        let point = centre - normal * radius;
        Some(LevelTouch {
            collider: key,
            point,
            other_point,
            normal,
            gap: normal.dot(&(point - other_point)),
            friction: e.friction,
            restitution: e.restitution,
            velocity: e.point_velocity(&other_point),
            kinematic: e.motion != Motion::Static,
        })
    }

    /// The deepest a probe sphere sits inside the colliders it may touch (m, ≥ 0).
    pub fn probe_depth(&self, centre: &Vector3<f64>, radius: f64, layers: (u32, u32)) -> f64 {
        self.probe_depth_remembering(centre, radius, layers, None)
    }

    /// [`Level::probe_depth`] for a probe with a [`ProbeMemory`] (see [`Level::probe_remembering`]).
    pub fn probe_depth_remembering(
        &self,
        centre: &Vector3<f64>,
        radius: f64,
        layers: (u32, u32),
        memory: Option<&mut ProbeMemory>,
    ) -> f64 {
        let mut depth: f64 = 0.0;
        self.probe_remembering(centre, radius, MAX_DEPTH, 0.0, layers, memory, |t| {
            depth = depth.max(-t.gap)
        });
        depth
    }
}

/// The address of a collider's shape (with its key, which mesh a [`ProbeMemory`] was taken from).
fn shape_address(e: &Entry) -> usize {
    std::sync::Arc::as_ptr(&e.shape.0).cast::<()>() as usize
}

/// The closest point of a collider to a probe sphere (centre `centre`, `radius` > 0) within `reach` of the
/// centre, and the unit normal there from the collider toward the probe.
fn surface_near(
    e: &Entry,
    centre: &Vector3<f64>,
    radius: f64,
    reach: f64,
    memory: Option<(&mut MeshMemory, Owner)>,
) -> Option<(Vector3<f64>, Vector3<f64>)> {
    if let Some(plane) = e.shape.as_halfspace() {
        // A plane, analytically: the flat floor's arithmetic (the foot of the centre, the normal).
        let n = e.pose.rotation * from_vec(plane.normal);
        let d = n.dot(&(centre - e.pose.translation.vector));
        return (d <= reach).then(|| (centre - n * d, n));
    }
    let pose = to_pose(&e.pose);
    if let Some(mesh) = e.shape.as_trimesh() {
        // parry's contact with a triangle takes the side the centre is on; an oriented mesh is solid behind its
        // faces, so a probe under a floor is pushed up, not through.
        let local = e
            .pose
            .inverse_transform_point(&Point3::from(*centre))
            .coords;
        // Within reach on either side; else, a centre that may be under the surface (in the mesh's box, grown by
        // `MAX_DEPTH`) is looked for deeper, and kept only if inside: one query as deep as either asks.
        let oriented = mesh.pseudo_normals_if_oriented().is_some();
        let deeper = oriented
            && reach < MAX_DEPTH
            && e.aabb
                .is_some_and(|b| b.contains_local_point(to_vec(centre)));
        let max = if deeper { MAX_DEPTH } else { reach };
        let (proj, (tri, _)) = match memory {
            Some((memory, owner)) => memory.project(mesh, owner, to_vec(&local), max),
            None => {
                mesh.project_local_point_and_get_location_with_max_dist(to_vec(&local), false, max)
            }
        }?;
        let foot = from_vec(proj.point);
        let d = local - foot;
        let dist = d.norm();
        let inside = oriented && proj.is_inside;
        if !inside && (proj.point - to_vec(&local)).length() >= reach {
            return None;
        }
        let face = from_vec(mesh.triangle(tri).normal()?);
        let n = if dist > 1e-9 * (1.0 + local.norm()) {
            if inside { -d / dist } else { d / dist }
        } else {
            face
        };
        return Some(((e.pose * Point3::from(foot)).coords, e.pose.rotation * n));
    }
    let ball = Ball::new(radius);
    let ball_pose = to_pose(&Isometry3::translation(centre.x, centre.y, centre.z));
    let hit =
        parry3d_f64::query::contact(&pose, e.shape.as_ref(), &ball_pose, &ball, reach - radius)
            .ok()??;
    let normal = from_vec(hit.normal1);
    (normal.iter().all(|x| x.is_finite()) && normal.norm_squared() > 0.5)
        .then(|| (from_vec(hit.point1), normal))
}
