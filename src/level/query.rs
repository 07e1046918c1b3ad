//! Ray casts and sphere sweeps against a level's colliders.

use nalgebra::Vector3;
use parry3d_f64::bounding_volume::Aabb;
use parry3d_f64::query::{Ray, ShapeCastOptions};
use parry3d_f64::shape::Ball;

use super::{ColliderKey, Entry, Level};
use crate::contact::collision::shape::{from_vec, to_pose, to_vec};
use crate::control::ground::Terrain;
use crate::control::ground::terrain::{
    DROP_REACH_M, MAX_CLIMB_M, MIN_GROUND_NORMAL_Y, STEP_REACH_M,
};

/// Where a ray or a swept sphere first meets a collider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelRayHit {
    /// The collider.
    pub collider: ColliderKey,
    /// Distance along the ray (m): the hit point is `origin + distance · direction`; for a sweep, the sphere's
    /// centre travel until it touches.
    pub distance: f64,
    /// The hit point on the collider's surface (world).
    pub point: Vector3<f64>,
    /// The surface normal there (unit, world, facing the ray).
    pub normal: Vector3<f64>,
    /// The ray started inside a solid collider (a box, a sphere, a capsule, a convex hull, a plane's half-space):
    /// it meets it at distance 0. A mesh is a surface: a ray inside a closed mesh meets its far side. Always
    /// false for a sweep.
    pub from_inside: bool,
}

/// The unit direction of a ray query, or `None` (no hit) for a non-finite origin, a zero or non-finite direction,
/// or a negative or NaN length.
pub(crate) fn checked_ray(
    origin: &Vector3<f64>,
    direction: &Vector3<f64>,
    max_distance: f64,
) -> Option<Vector3<f64>> {
    (origin.iter().all(|x| x.is_finite()) && max_distance >= 0.0).then_some(())?;
    direction
        .try_normalize(1e-300)
        .filter(|d| d.iter().all(|x| x.is_finite()))
}

/// [`checked_ray`] for a swept sphere: also a finite positive radius and a finite length.
pub(crate) fn checked_sweep(
    origin: &Vector3<f64>,
    radius: f64,
    direction: &Vector3<f64>,
    max_distance: f64,
) -> Option<Vector3<f64>> {
    (radius.is_finite() && radius > 0.0 && max_distance.is_finite()).then_some(())?;
    checked_ray(origin, direction, max_distance)
}

impl Level {
    fn ray_hit(
        &self,
        index: u32,
        entry: &Entry,
        ray: &Ray,
        max_distance: f64,
    ) -> Option<LevelRayHit> {
        let hit =
            entry
                .shape
                .cast_ray_and_get_normal(&to_pose(&entry.pose), ray, max_distance, true)?;
        let mut normal = from_vec(hit.normal);
        let dir = from_vec(ray.dir);
        if normal.dot(&dir) > 0.0 {
            normal = -normal;
        }
        Some(LevelRayHit {
            collider: self.key_of(index),
            distance: hit.time_of_impact,
            point: from_vec(ray.origin) + dir * hit.time_of_impact,
            normal,
            from_inside: hit.time_of_impact <= 0.0,
        })
    }

    /// The first collider a ray from `origin` along `direction` (normalised here) meets within `max_distance`
    /// (m), among those whose layers meet `mask`; `None` for no hit or a zero or non-finite ray. A ray starting
    /// inside a solid shape hits it at distance 0.
    pub fn cast_ray(
        &self,
        origin: &Vector3<f64>,
        direction: &Vector3<f64>,
        max_distance: f64,
        mask: u32,
    ) -> Option<LevelRayHit> {
        let dir = checked_ray(origin, direction, max_distance)?;
        let ray = Ray::new(to_vec(origin), to_vec(&dir));
        let planes = self
            .planes
            .iter()
            .filter_map(|&i| Some((i, self.entries.get_by_index(i)?)));
        let mut best = self.nearest(&ray, planes, mask, max_distance);
        let limit = best.map_or(max_distance, |b| b.distance);
        let found = self.bvh.cast_ray(&ray, limit, |i, so_far| {
            let e = self
                .entries
                .get_by_index(i)
                .filter(|e| e.layers & mask != 0)?;
            e.shape.cast_ray(&to_pose(&e.pose), &ray, so_far, true)
        });
        if let Some((i, toi)) = found
            && best.is_none_or(|b| toi < b.distance)
            && let Some(e) = self.entries.get_by_index(i)
        {
            best = self
                .ray_hit(i, e, &ray, toi * (1.0 + 1e-12) + 1e-12)
                .or(best);
        }
        best
    }

    /// [`Level::cast_ray`] without the hierarchy: every collider tested (the reference the tests and the
    /// `raycast` example check the hierarchy against).
    pub fn cast_ray_brute(
        &self,
        origin: &Vector3<f64>,
        direction: &Vector3<f64>,
        max_distance: f64,
        mask: u32,
    ) -> Option<LevelRayHit> {
        let dir = checked_ray(origin, direction, max_distance)?;
        let ray = Ray::new(to_vec(origin), to_vec(&dir));
        let all = self.entries.iter().map(|(k, e)| (k.index, e));
        self.nearest(&ray, all, mask, max_distance)
    }

    /// The nearest hit of `ray` within `max_distance` on the `candidates` (slot, collider) whose layers meet
    /// `mask`.
    fn nearest<'a>(
        &self,
        ray: &Ray,
        candidates: impl Iterator<Item = (u32, &'a Entry)>,
        mask: u32,
        max_distance: f64,
    ) -> Option<LevelRayHit> {
        let mut best: Option<LevelRayHit> = None;
        for (i, e) in candidates.filter(|(_, e)| e.layers & mask != 0) {
            let limit = best.map_or(max_distance, |b| b.distance);
            if let Some(h) = self.ray_hit(i, e, ray, limit) {
                best = Some(h);
            }
        }
        best
    }

    /// The first collider a sphere of `radius` moving from `origin` along `direction` (normalised here) touches
    /// within `max_distance` (m) of centre travel; the hit's point and normal are at the touch. A sphere that
    /// starts inside a collider hits it at distance 0.
    pub fn cast_sphere(
        &self,
        origin: &Vector3<f64>,
        radius: f64,
        direction: &Vector3<f64>,
        max_distance: f64,
        mask: u32,
    ) -> Option<LevelRayHit> {
        let dir = checked_sweep(origin, radius, direction, max_distance)?;
        let end = origin + dir * max_distance;
        let lo = origin.inf(&end) - Vector3::repeat(radius);
        let hi = origin.sup(&end) + Vector3::repeat(radius);
        let swept = Aabb::new(to_vec(&lo), to_vec(&hi));
        let ball = Ball::new(radius);
        let start = to_pose(&nalgebra::Isometry3::translation(
            origin.x, origin.y, origin.z,
        ));
        let mut best: Option<LevelRayHit> = None;
        self.near(&swept, |i, e| {
            if e.layers & mask == 0 {
                return;
            }
            let limit = best.map_or(max_distance, |b| b.distance);
            let options = ShapeCastOptions {
                max_time_of_impact: limit,
                stop_at_penetration: true,
                ..ShapeCastOptions::default()
            };
            let Ok(Some(hit)) = parry3d_f64::query::cast_shapes(
                &start,
                to_vec(&dir),
                &ball,
                &to_pose(&e.pose),
                parry3d_f64::math::Vector::ZERO,
                e.shape.as_ref(),
                options,
            ) else {
                return;
            };
            if best.is_some_and(|b| hit.time_of_impact >= b.distance) {
                return;
            }
            // Witnesses and normals are in each shape's local frame.
            let point = e.pose * nalgebra::Point3::from(from_vec(hit.witness2));
            let mut normal = e.pose.rotation * from_vec(hit.normal2);
            if normal.dot(&dir) > 0.0 {
                normal = -normal;
            }
            best = Some(LevelRayHit {
                collider: self.key_of(i),
                distance: hit.time_of_impact,
                point: point.coords,
                normal: normal.try_normalize(1e-12).unwrap_or(-dir),
                from_inside: false,
            });
        });
        best
    }
}

/// The ground under a point is the nearest collider face below a vertical ray from [`STEP_REACH_M`] above it,
/// walkable (its normal's up part at least [`MIN_GROUND_NORMAL_Y`]). A ray starting inside a solid collider
/// (the ground is higher still: a ledge above a flat clip's foot) starts again a reach higher, up to
/// [`MAX_CLIMB_M`] above the point; a ray inside a closed mesh cannot tell (it meets the far side), so the
/// adaptation searches from the feet's last stance height. Every collider counts, kinematic ones where they are when asked; all layers.
impl Terrain for Level {
    fn ground_height(&self, p: &Vector3<f64>) -> Option<f64> {
        let mut up = STEP_REACH_M;
        loop {
            let from = p + Vector3::new(0.0, up, 0.0);
            let hit = self.cast_ray(&from, &-Vector3::y(), up + DROP_REACH_M, u32::MAX)?;
            if !hit.from_inside {
                return (hit.normal.y >= MIN_GROUND_NORMAL_Y).then_some(hit.point.y);
            }
            if up >= MAX_CLIMB_M {
                return None;
            }
            up += STEP_REACH_M;
        }
    }
}
