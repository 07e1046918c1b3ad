//! The feet of a character seen from its clip: sole points sized from the skeleton's foot capsules, the floor
//! height fitted from where those points rest, and which points are in stance at every sample.

use nalgebra::Vector3;

use super::{GroundConfig, GroundError};
use crate::control::kinematics::Placement;
use crate::control::reference::ReferenceMotion;
use crate::model::Model;
use crate::skeleton::Skeleton;
use crate::skeleton::roles::{BoneMap, Limb, Role, Side};

/// A contact point of a sole, fixed in a body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FootPoint {
    /// Model body carrying the point.
    pub body: usize,
    /// Position in the body frame (m; the frame of [`crate::model::Body`], origin at the joint).
    pub local: Vector3<f64>,
    /// Which foot.
    pub side: Side,
}

impl FootPoint {
    /// World position on the poses `kin`.
    pub fn world<P: Placement>(&self, kin: &[P]) -> Vector3<f64> {
        let k = &kin[self.body];
        k.origin() + k.rotation() * self.local
    }
}

/// World positions of every point at every sample (sample-major).
pub(super) fn point_tracks(reference: &ReferenceMotion, points: &[FootPoint]) -> Vec<Vector3<f64>> {
    let mut kin = Vec::new();
    let mut out = Vec::with_capacity(reference.steps * points.len());
    for k in 0..reference.steps {
        reference.poses(k, &mut kin);
        out.extend(points.iter().map(|p| p.world(&kin)));
    }
    out
}

/// The foot and toe bodies of each side, from the humanoid bone map.
fn foot_bodies(
    model: &Model,
    skeleton: &Skeleton,
) -> Result<Vec<(Side, usize, usize)>, GroundError> {
    let map = BoneMap::new(skeleton);
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for side in [Side::Left, Side::Right] {
        let Some(foot) = map.get(Role::Limb(side, Limb::Foot)) else {
            missing.push(Role::Limb(side, Limb::Foot).name());
            continue;
        };
        let foot = model.body_of_joint[foot];
        let toe = map
            .get(Role::Limb(side, Limb::Toe))
            .map_or(foot, |j| model.body_of_joint[j]);
        out.push((side, foot, toe));
    }
    if !missing.is_empty() {
        return Err(GroundError::NoFeet(format!(
            "the skeleton has no {} (an upper-body clip?): a free or assisted root needs both feet; use the \
             kinematic root",
            missing.join(" and ")
        )));
    }
    Ok(out)
}

/// The longest capsule of a body: `(near end, far end, radius)` with the near end the one closer to the joint.
fn main_capsule(model: &Model, body: usize) -> Option<(Vector3<f64>, Vector3<f64>, f64)> {
    let c = model.bodies[body]
        .capsules
        .iter()
        .max_by(|a, b| a.length().total_cmp(&b.length()))?;
    let (a, b) = (c.a.coords, c.b.coords);
    Some(if a.norm() <= b.norm() {
        (a, b, c.radius)
    } else {
        (b, a, c.radius)
    })
}

/// World down (−y) in `body`'s frame, averaged over the samples where the body is lowest (its stance, roughly).
fn stance_down(reference: &ReferenceMotion, body: usize) -> Vector3<f64> {
    let mut kin = Vec::new();
    let mut samples: Vec<(f64, Vector3<f64>)> = (0..reference.steps)
        .map(|k| {
            reference.poses(k, &mut kin);
            let down = kin[body].rotation.inverse() * Vector3::new(0.0, -1.0, 0.0);
            (kin[body].origin.y, down)
        })
        .collect();
    samples.sort_by(|a, b| a.0.total_cmp(&b.0));
    let low = samples.len().div_ceil(3).max(1);
    let sum: Vector3<f64> = samples[..low].iter().map(|s| s.1).sum();
    sum.try_normalize(1e-9)
        .unwrap_or(Vector3::new(0.0, -1.0, 0.0))
}

/// Two sole points under capsule end `center` (radius `r`): below it along `down`, `r` to either side.
fn sole_pair(
    center: Vector3<f64>,
    axis: Vector3<f64>,
    down: Vector3<f64>,
    r: f64,
) -> [Vector3<f64>; 2] {
    let side = down
        .cross(&axis)
        .try_normalize(1e-9)
        .unwrap_or_else(|| down.cross(&Vector3::x()).normalize());
    let base = center + down * r;
    [base + side * r, base - side * r]
}

/// Four sole points per foot: two under the heel (the foot capsule's ankle end, on the foot body) and two under
/// the toe tip (the toe capsule's far end, or the foot capsule's when the toes are merged into the foot).
pub(super) fn sole_points(
    model: &Model,
    skeleton: &Skeleton,
    reference: &ReferenceMotion,
) -> Result<Vec<FootPoint>, GroundError> {
    let mut points = Vec::new();
    for (side, foot, toe) in foot_bodies(model, skeleton)? {
        let (heel, ball, r_foot) = main_capsule(model, foot).ok_or_else(|| {
            GroundError::NoFeet(format!(
                "foot body `{}` has no shape",
                model.bodies[foot].name
            ))
        })?;
        let down = stance_down(reference, foot);
        for local in sole_pair(heel, ball - heel, down, r_foot) {
            points.push(FootPoint {
                body: foot,
                local,
                side,
            });
        }
        let (tip_body, near, tip, r_tip) = match main_capsule(model, toe) {
            Some((near, tip, r)) if toe != foot => (toe, near, tip, r),
            _ => (foot, heel, ball, r_foot),
        };
        let down = stance_down(reference, tip_body);
        for local in sole_pair(tip, tip - near, down, r_tip) {
            points.push(FootPoint {
                body: tip_body,
                local,
                side,
            });
        }
    }
    Ok(points)
}

/// Sole point positions over the clip: `points` sample-major, `np` per sample, `steps` samples `h` apart.
#[derive(Clone, Copy)]
pub(super) struct Tracks<'a> {
    pub points: &'a [Vector3<f64>],
    pub np: usize,
    pub steps: usize,
    pub h: f64,
}

impl Tracks<'_> {
    /// The same layout over other positions (`points`, as long as these).
    pub fn over<'b>(&self, points: &'b [Vector3<f64>]) -> Tracks<'b> {
        Tracks { points, ..*self }
    }

    /// Point `i` at sample `k`.
    pub fn at(&self, k: usize, i: usize) -> Vector3<f64> {
        self.points[k * self.np + i]
    }

    /// Horizontal speed (m/s) of point `i` at sample `k` (central differences).
    pub fn speed(&self, k: usize, i: usize) -> f64 {
        if self.steps < 2 {
            return 0.0;
        }
        let (a, b) = (k.saturating_sub(1), (k + 1).min(self.steps - 1));
        let d = self.at(b, i) - self.at(a, i);
        (d.x * d.x + d.z * d.z).sqrt() / ((b - a) as f64 * self.h)
    }

    /// Whether point `i` is slower than the stance speed at sample `k`.
    pub fn slow(&self, k: usize, i: usize, config: &GroundConfig) -> bool {
        self.speed(k, i) < config.stance_speed_mps
    }

    /// The lowest point at sample `k` and its index (`None` without points).
    pub fn lowest(&self, k: usize) -> Option<(usize, Vector3<f64>)> {
        (0..self.np)
            .map(|i| (i, self.at(k, i)))
            .min_by(|a, b| a.1.y.total_cmp(&b.1.y))
    }
}

/// The floor height (m): the median height of the lowest sole point over the samples where that point is slow
/// (a few frames of noise, a jump or a stumble move the median little), or `config.floor_m` when given.
pub(super) fn fit_floor(tracks: &Tracks<'_>, config: &GroundConfig) -> f64 {
    if let Some(f) = config.floor_m {
        return f;
    }
    let mut slow = Vec::new();
    let mut all = Vec::new();
    for k in 0..tracks.steps {
        let Some((i, p)) = tracks.lowest(k) else {
            continue;
        };
        all.push(p.y);
        if tracks.slow(k, i, config) {
            slow.push(p.y);
        }
    }
    let v = if slow.len() * 5 >= tracks.steps {
        &mut slow
    } else {
        &mut all
    };
    v.sort_by(f64::total_cmp);
    // No sole points or no samples (the callers refuse both earlier): the floor at 0.
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Stance flags (sample-major): a point is in stance when within `stance_height_m` of the floor and slower than
/// `stance_speed_mps` horizontally.
pub(super) fn detect_stance(tracks: &Tracks<'_>, floor: f64, config: &GroundConfig) -> Vec<bool> {
    let np = tracks.np;
    let mut stance = vec![false; tracks.steps * np];
    for (j, s) in stance.iter_mut().enumerate() {
        let (k, i) = (j / np, j % np);
        *s = tracks.at(k, i).y - floor < config.stance_height_m && tracks.slow(k, i, config);
    }
    stance
}
