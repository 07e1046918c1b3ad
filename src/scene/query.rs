//! Ray casts and sphere sweeps against a scene's characters (their capsules) and its level: where a bullet
//! meets a bone, so the game can put its impulse on that point (`Character::apply_body_impulse`).

use nalgebra::{Isometry3, Vector3};
use parry3d_f64::query::{Ray, RayCast};
use parry3d_f64::shape::Capsule;

use super::capsules::world_capsules;
use super::sweep::sweep_sphere_capsule;
use super::{CharacterKey, Scene};
use crate::contact::collision::shape::{from_vec, to_pose, to_vec};
use crate::control::Character;
use crate::level::{ColliderKey, LevelRayHit, checked_ray, checked_sweep};

/// What a ray or a sweep hit.
#[derive(Debug, Clone, PartialEq)]
pub enum RayTarget {
    /// A character's body.
    Character {
        /// The character.
        key: CharacterKey,
        /// The model body index.
        body: usize,
        /// The body's bone name.
        bone: String,
    },
    /// A collider of the level.
    Collider(ColliderKey),
}

/// A ray or sweep hit in a scene.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneRayHit {
    /// What was hit.
    pub target: RayTarget,
    /// Distance along the ray (m), or the sphere centre's travel for a sweep.
    pub distance: f64,
    /// The point on the hit surface (world).
    pub point: Vector3<f64>,
    /// The surface normal there (unit, facing the ray).
    pub normal: Vector3<f64>,
}

impl From<LevelRayHit> for SceneRayHit {
    fn from(h: LevelRayHit) -> SceneRayHit {
        SceneRayHit {
            target: RayTarget::Collider(h.collider),
            distance: h.distance,
            point: h.point,
            normal: h.normal,
        }
    }
}

/// A character's bounding sphere (centre, radius): every collidable capsule inside it. Centred on the root, it
/// reaches each body's centre of mass plus the farthest point of its capsules from it (a distance in the body,
/// the same in every pose): one distance per body instead of two transformed points per capsule, and never
/// smaller than the sphere through the capsules themselves.
fn bounding_sphere(c: &Character) -> (Vector3<f64>, f64) {
    let root = c.world().body(0).position;
    let com = &c.reference().topology.com;
    let mut r: f64 = 0.0;
    for (b, body) in c.model().bodies.iter().enumerate() {
        if !body.collides || body.capsules.is_empty() {
            continue;
        }
        let reach = body
            .capsules
            .iter()
            .map(|cap| {
                (cap.a.coords - com[b])
                    .norm()
                    .max((cap.b.coords - com[b]).norm())
                    + cap.radius
            })
            .fold(0.0, f64::max);
        r = r.max((c.world().body(b).position - root).norm() + reach);
    }
    (root, r)
}

/// Whether a ray from `origin` along unit `dir` may meet the sphere (`centre`, `radius`) within `max` (m): false
/// only when it surely does not (a ray starting inside meets it).
fn may_meet_sphere(
    origin: &Vector3<f64>,
    dir: &Vector3<f64>,
    max: f64,
    centre: &Vector3<f64>,
    radius: f64,
) -> bool {
    let to = centre - origin;
    let along = to.dot(dir);
    let off2 = to.norm_squared() - along * along;
    !(off2 > radius * radius || along + radius < 0.0 || along - radius > max)
}

/// The first hit of a ray (unit `dir`) on a character's capsules within `max` (m). With `cull`, a capsule whose
/// bounding sphere the ray misses is not cast against (the brute-force reference casts against every one).
fn ray_character(
    key: CharacterKey,
    c: &Character,
    (origin, dir): (&Vector3<f64>, &Vector3<f64>),
    max: f64,
    cull: bool,
) -> Option<SceneRayHit> {
    let ray = Ray::new(to_vec(origin), to_vec(dir));
    let identity = to_pose(&Isometry3::identity());
    // The best (body, time, normal); the hit, with its bone's name, is made once at the end.
    let mut best: Option<(usize, f64, Vector3<f64>)> = None;
    for cap in world_capsules(c) {
        let (a, z) = (cap.a, cap.b);
        let limit = best.map_or(max, |h| h.1);
        if cull {
            let half = 0.5 * (z - a).norm();
            if !may_meet_sphere(origin, dir, limit, &((a + z) * 0.5), half + cap.radius) {
                continue;
            }
        }
        let capsule = Capsule::new(to_vec(&a), to_vec(&z), cap.radius);
        if let Some(hit) = capsule.cast_ray_and_get_normal(&identity, &ray, limit, true) {
            best = Some((cap.body, hit.time_of_impact, from_vec(hit.normal)));
        }
    }
    let (b, distance, normal) = best?;
    Some(SceneRayHit {
        target: RayTarget::Character {
            key,
            body: b,
            bone: c.model().bodies[b].name.clone(),
        },
        distance,
        point: origin + dir * distance,
        normal,
    })
}

impl Scene {
    /// The first character body or collider a ray from `origin` along `direction` meets within
    /// `max_distance` (m); colliders are filtered by `mask` against their layers. `None` for no hit or a zero or
    /// non-finite ray.
    pub fn cast_ray(
        &self,
        origin: &Vector3<f64>,
        direction: &Vector3<f64>,
        max_distance: f64,
        mask: u32,
    ) -> Option<SceneRayHit> {
        self.cast_ray_with(origin, direction, max_distance, mask, true)
    }

    /// [`Scene::cast_ray`] testing every capsule and every collider, without bounding spheres or the level's
    /// hierarchy (the reference the tests and the `raycast` example check against).
    pub fn cast_ray_brute(
        &self,
        origin: &Vector3<f64>,
        direction: &Vector3<f64>,
        max_distance: f64,
        mask: u32,
    ) -> Option<SceneRayHit> {
        self.cast_ray_with(origin, direction, max_distance, mask, false)
    }

    fn cast_ray_with(
        &self,
        origin: &Vector3<f64>,
        direction: &Vector3<f64>,
        max_distance: f64,
        mask: u32,
        fast: bool,
    ) -> Option<SceneRayHit> {
        let dir = checked_ray(origin, direction, max_distance)?;
        let level = if fast {
            self.level.cast_ray(origin, &dir, max_distance, mask)
        } else {
            self.level.cast_ray_brute(origin, &dir, max_distance, mask)
        };
        let mut best = level.map(SceneRayHit::from);
        for (k, c) in self.characters.iter() {
            let limit = best.as_ref().map_or(max_distance, |h| h.distance);
            if fast {
                // Skip a character whose bounding sphere the ray misses (or meets beyond the best hit).
                let (centre, r) = bounding_sphere(c);
                if !may_meet_sphere(origin, &dir, limit, &centre, r) {
                    continue;
                }
            }
            if let Some(h) = ray_character(CharacterKey(k), c, (origin, &dir), limit, fast) {
                best = Some(h);
            }
        }
        best
    }

    /// The first character body or collider a sphere of `radius` moving from `origin` along `direction` touches
    /// within `max_distance` (m) of travel.
    pub fn cast_sphere(
        &self,
        origin: &Vector3<f64>,
        radius: f64,
        direction: &Vector3<f64>,
        max_distance: f64,
        mask: u32,
    ) -> Option<SceneRayHit> {
        let dir = checked_sweep(origin, radius, direction, max_distance)?;
        let mut best = self
            .level
            .cast_sphere(origin, radius, &dir, max_distance, mask)
            .map(SceneRayHit::from);
        let end = origin + dir * max_distance;
        for (k, c) in self.characters.iter() {
            for cap in world_capsules(c) {
                let Some(t) =
                    sweep_sphere_capsule(origin, &end, &cap.a, &cap.b, radius + cap.radius)
                else {
                    continue;
                };
                let distance = t.s * max_distance;
                if best.as_ref().is_some_and(|h| h.distance <= distance) {
                    continue;
                }
                let normal = (t.centre - t.axis_point)
                    .try_normalize(1e-12)
                    .unwrap_or(-dir);
                best = Some(SceneRayHit {
                    target: RayTarget::Character {
                        key: CharacterKey(k),
                        body: cap.body,
                        bone: c.model().bodies[cap.body].name.clone(),
                    },
                    distance,
                    point: t.axis_point + normal * cap.radius,
                    normal,
                });
            }
        }
        best
    }
}
