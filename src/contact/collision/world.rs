//! The collision world: broad phase (all pairs, AABB rejection) and narrow phase (parry contact manifolds kept
//! per pair between calls).

use std::collections::HashMap;

use nalgebra::{Isometry3, Point3};
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::query::details::contact_manifold_pfm_pfm;
use parry3d_f64::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};

use super::shape::{Geom, finite_isometry, from_vec, to_pose};
use super::{Collider, CollisionError, Contact, Feature, PairFilter};

/// The parry manifold type kept per pair: no per-manifold data, a persistent contact id per point (0: new).
type Manifold = ContactManifold<(), u64>;

/// What is kept for one collider pair between calls.
struct PairCache {
    /// The two colliders when the manifolds were computed: a changed collider restarts the pair (parry would
    /// otherwise update the old contact points of the old shape).
    colliders: (Collider, Collider),
    /// parry's manifolds for the pair (one for convex–convex pairs).
    manifolds: Vec<Manifold>,
    /// parry's workspace for composite shapes (unused by the convex shapes here, kept for parry's API).
    workspace: Option<ContactManifoldsWorkspace>,
    /// The call that last used the entry.
    stamp: u64,
}

/// Per-collider data of one call: the parry shape, its world pose and bounding box.
struct Placed {
    geom: Geom,
    pose: Isometry3<f64>,
    aabb: Option<Aabb>,
}

/// Collision detection between colliders, keeping parry's contact manifolds per pair from call to call so that
/// contacts persist (same feature ids, same [`Contact::id`]) while the pair stays in contact.
///
/// Broad phase: all pairs, O(n²), rejected by filtering, then by AABB overlap (boxes grown by the tolerance);
/// pairs with a half-space skip the AABB test. At 20 colliders that is 190 cheap tests; a sweep-and-prune can
/// replace it behind the same interface when scenes grow.
pub struct CollisionWorld {
    pairs: HashMap<(usize, usize), PairCache>,
    dispatcher: DefaultQueryDispatcher,
    placed: Vec<Placed>,
    stamp: u64,
    next_id: u64,
}

impl Default for CollisionWorld {
    fn default() -> Self {
        CollisionWorld::new()
    }
}

impl CollisionWorld {
    /// An empty world (no cached manifolds).
    pub fn new() -> CollisionWorld {
        CollisionWorld {
            pairs: HashMap::new(),
            dispatcher: DefaultQueryDispatcher,
            placed: Vec::new(),
            stamp: 0,
            next_id: 1,
        }
    }

    /// Number of collider pairs whose manifolds are kept (the pairs that passed the broad phase last call).
    pub fn cached_pairs(&self) -> usize {
        self.pairs.len()
    }

    /// Forgets every cached manifold (the next call starts cold).
    pub fn clear(&mut self) {
        self.pairs.clear();
    }

    /// The contacts between `colliders` with bodies at `body_frames` (world frame of each body's frame), within
    /// `tolerance` ε ≥ 0 of touching: every point with separation ≤ ε is reported (depth ≥ −ε).
    ///
    /// Pairs are tested in collider index order and each pair's contacts have `a` = the lower collider index.
    /// Skipped: two static colliders, two colliders of one body, body pairs excluded by `filter`, and pairs
    /// rejected by group/mask.
    pub fn detect(
        &mut self,
        body_frames: &[Isometry3<f64>],
        colliders: &[Collider],
        filter: &PairFilter,
        tolerance: f64,
    ) -> Result<Vec<Contact>, CollisionError> {
        let mut out = Vec::new();
        self.detect_into(body_frames, colliders, filter, tolerance, &mut out)?;
        Ok(out)
    }

    /// [`Self::detect`] into `out` (cleared first), reusing its allocation.
    pub fn detect_into(
        &mut self,
        body_frames: &[Isometry3<f64>],
        colliders: &[Collider],
        filter: &PairFilter,
        tolerance: f64,
        out: &mut Vec<Contact>,
    ) -> Result<(), CollisionError> {
        out.clear();
        if !(tolerance.is_finite() && tolerance >= 0.0) {
            return Err(CollisionError::InvalidTolerance(tolerance));
        }
        self.place(body_frames, colliders)?;
        self.stamp += 1;
        let n = colliders.len();
        for i in 0..n {
            for j in i + 1..n {
                if !broad_phase(&colliders[i], &colliders[j], filter) {
                    continue;
                }
                let (pi, pj) = (&self.placed[i], &self.placed[j]);
                if let (Some(bi), Some(bj)) = (&pi.aabb, &pj.aabb) {
                    if !bi.loosened(tolerance).intersects(bj) {
                        continue;
                    }
                }
                self.narrow_phase(i, j, colliders, tolerance, out);
            }
        }
        let stamp = self.stamp;
        self.pairs.retain(|_, p| p.stamp == stamp);
        Ok(())
    }

    /// Validates the input and computes every collider's parry shape, world pose and bounding box.
    fn place(
        &mut self,
        body_frames: &[Isometry3<f64>],
        colliders: &[Collider],
    ) -> Result<(), CollisionError> {
        self.placed.clear();
        for (c, col) in colliders.iter().enumerate() {
            col.shape.validate().map_err(|_| CollisionError::Shape(c))?;
            if !finite_isometry(&col.local_pose) {
                return Err(CollisionError::NonFinitePose { collider: c });
            }
            let frame = match col.body {
                Some(b) => {
                    let f = body_frames.get(b).ok_or(CollisionError::BodyOutOfRange {
                        collider: c,
                        body: b,
                        bodies: body_frames.len(),
                    })?;
                    if !finite_isometry(f) {
                        return Err(CollisionError::NonFinitePose { collider: c });
                    }
                    *f
                }
                None => Isometry3::identity(),
            };
            let (geom, offset) = Geom::new(&col.shape);
            let pose = frame * col.local_pose * offset;
            let aabb = if geom.is_unbounded() {
                None
            } else {
                Some(geom.as_dyn().compute_aabb(&to_pose(&pose)))
            };
            self.placed.push(Placed { geom, pose, aabb });
        }
        Ok(())
    }

    /// parry's manifolds for the pair (i, j), updated from the cached ones, appended to `out` as contacts.
    fn narrow_phase(
        &mut self,
        i: usize,
        j: usize,
        colliders: &[Collider],
        tolerance: f64,
        out: &mut Vec<Contact>,
    ) {
        let (pi, pj) = (&self.placed[i], &self.placed[j]);
        let key = (colliders[i], colliders[j]);
        let cache = self.pairs.entry((i, j)).or_insert_with(|| PairCache {
            colliders: key,
            manifolds: Vec::new(),
            workspace: None,
            stamp: 0,
        });
        if cache.colliders != key {
            cache.colliders = key;
            cache.manifolds.clear();
            cache.workspace = None;
        }
        cache.stamp = self.stamp;
        let pos12 = to_pose(&(pi.pose.inverse() * pj.pose));
        let result = if let (Geom::Capsule(c1), Geom::Capsule(c2)) = (&pi.geom, &pj.geom) {
            capsule_capsule(&pos12, c1, c2, tolerance, &mut cache.manifolds);
            Ok(())
        } else {
            self.dispatcher.contact_manifolds(
                &pos12,
                pi.geom.as_dyn(),
                pj.geom.as_dyn(),
                tolerance,
                &mut cache.manifolds,
                &mut cache.workspace,
            )
        };
        if result.is_err() {
            // An unsupported pair (two half-spaces): no contacts, nothing cached.
            cache.manifolds.clear();
            return;
        }
        for (m, manifold) in cache.manifolds.iter_mut().enumerate() {
            let normal = pi.pose.rotation * from_vec(manifold.local_n1);
            for point in manifold.points.iter_mut() {
                if point.dist > tolerance || !point.dist.is_finite() {
                    continue;
                }
                if point.data == 0 {
                    point.data = self.next_id;
                    self.next_id += 1;
                }
                let point_a = pi.pose * Point3::from(from_vec(point.local_p1));
                let point_b = pj.pose * Point3::from(from_vec(point.local_p2));
                out.push(Contact {
                    a: colliders[i].body,
                    b: colliders[j].body,
                    colliders: (i, j),
                    manifold: m,
                    point: Point3::from((point_a.coords + point_b.coords) * 0.5),
                    point_a,
                    point_b,
                    normal,
                    depth: -point.dist,
                    feature_a: Feature::from_packed(point.fid1),
                    feature_b: Feature::from_packed(point.fid2),
                    id: point.data,
                });
            }
        }
    }
}

/// Capsule–capsule manifold through parry's polygonal-feature-map generator (the one parry uses for
/// cuboid–capsule): GJK/EPA on the two axes, then the axes clipped against each other, so parallel capsules get
/// the 2 ends of their overlap. parry 0.31's dedicated 3D capsule–capsule generator returns only the closest
/// pair of points, which lets a forearm lying along a thigh rock about one point. The generator also appends
/// the GJK closest point itself (unknown features); it is dropped when the clipped features gave points, which
/// span it.
fn capsule_capsule(
    pos12: &parry3d_f64::math::Pose,
    c1: &parry3d_f64::shape::Capsule,
    c2: &parry3d_f64::shape::Capsule,
    tolerance: f64,
    manifolds: &mut Vec<Manifold>,
) {
    if manifolds.is_empty() {
        manifolds.push(Manifold::new());
    }
    let m = &mut manifolds[0];
    contact_manifold_pfm_pfm(
        pos12,
        &c1.segment,
        c1.radius,
        None,
        &c2.segment,
        c2.radius,
        None,
        tolerance,
        m,
    );
    let unknown =
        |p: &parry3d_f64::query::TrackedContact<u64>| p.fid1.is_unknown() && p.fid2.is_unknown();
    if m.points.iter().any(|p| !unknown(p)) {
        m.points.retain(|p| !unknown(p));
    }
}

/// Filtering before any geometry: static–static, same body, excluded body pairs, group/mask.
fn broad_phase(a: &Collider, b: &Collider, filter: &PairFilter) -> bool {
    match (a.body, b.body) {
        (None, None) => return false,
        (Some(x), Some(y)) if x == y || filter.excludes(x, y) => return false,
        _ => {}
    }
    a.groups_interact(b)
}
