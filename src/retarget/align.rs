//! Rest-pose alignment: per target joint of the retarget tree, the world-space offset that carries the source
//! bone's rotation from the source rest pose (T-pose, A-pose, the clip's bind pose) onto the target's.
//!
//! With `S(t)` a source bone's world rotation, `S₀` its rest rotation, `T₀` the target bone's rest rotation
//! turned by the heading `H` (the target made to face where the source faces) and `O` the rotation taking the
//! source rest bone direction onto the target's, the target bone's world rotation is `S(t) S₀⁻¹ O⁻¹ H T₀`: in
//! the source rest pose the target's bone points where the source's does, and every rotation of the source
//! bone away from its rest is carried as is. Pelvis and chest align two directions (up the spine, and left to
//! right), the other bones one (shortest arc; the twist comes from the source).

use nalgebra::{Isometry3, Matrix3, Point3, Rotation3, UnitQuaternion, Vector3};

use super::chains::{Key, Tree};
use crate::skeleton::{Pose, Skeleton};

/// How one target joint of the tree is driven.
#[derive(Debug, Clone, PartialEq)]
pub struct Driven {
    /// Target joint index.
    pub joint: usize,
    /// Index of the key whose chain holds it.
    pub key: usize,
    /// Position along the chain, 0 (parent key's joint) … 1 (the key's joint), by rest length.
    pub fraction: f64,
    /// `O⁻¹ H T₀`: what the source's world rotation delta multiplies.
    pub offset: UnitQuaternion<f64>,
}

/// The rest-pose analysis of a retarget.
#[derive(Debug, Clone)]
pub struct Alignment {
    /// Every target joint of a chain, in target joint order.
    pub driven: Vec<Driven>,
    /// Per key: source chain joints with their fractions along the chain.
    pub source_fractions: Vec<Vec<(usize, f64)>>,
    /// Source rest world transforms.
    pub source_rest: Vec<Isometry3<f64>>,
    /// Target rest world transforms.
    pub target_rest: Vec<Isometry3<f64>>,
    /// The heading turn applied to the target rest pose (about +Y).
    pub heading: UnitQuaternion<f64>,
    /// Target leg length / source leg length (thigh + shin, mean of both sides).
    pub leg_ratio: f64,
    /// Source leg length (thigh + shin, mean of both sides; m).
    pub source_leg: f64,
    /// Per key: the source bone's [`rest_tip`] in the key joint's frame.
    pub source_tips: Vec<Option<Point3<f64>>>,
    /// Per key: the target bone's [`rest_tip`] in the key joint's frame.
    pub target_tips: Vec<Option<Point3<f64>>>,
}

/// A bone's rest direction (world): toward its [`rest_tip`].
fn key_direction(
    sk: &Skeleton,
    rest: &[Isometry3<f64>],
    joint: usize,
    child_key_joint: Option<usize>,
) -> Option<Vector3<f64>> {
    let tip = rest_tip(sk, rest, joint, child_key_joint)?;
    (tip - rest[joint].translation.vector).try_normalize(1e-9)
}

/// A bone's tip in the rest pose (world): the first child key's joint, else its skeleton children's mean, else its
/// end sites' mean; `None` for a bone with nothing below it.
pub fn rest_tip(
    sk: &Skeleton,
    rest: &[Isometry3<f64>],
    joint: usize,
    child_key_joint: Option<usize>,
) -> Option<Vector3<f64>> {
    let tip = match child_key_joint {
        Some(c) => rest[c].translation.vector,
        None => {
            let kids: Vec<Vector3<f64>> = sk
                .children(joint)
                .map(|c| rest[c].translation.vector)
                .collect();
            let ends: Vec<Vector3<f64>> = sk.joints[joint]
                .end_sites
                .iter()
                .map(|e| rest[joint] * Point3::from(*e))
                .map(|p| p.coords)
                .collect();
            let pts = if kids.is_empty() { ends } else { kids };
            if pts.is_empty() {
                return None;
            }
            pts.iter().sum::<Vector3<f64>>() / pts.len() as f64
        }
    };
    Some(tip)
}

/// Rotation whose columns are (lateral ⊥ up, up, lateral × up): a frame from two directions.
fn frame(up: &Vector3<f64>, lateral: &Vector3<f64>) -> Option<UnitQuaternion<f64>> {
    let y = up.try_normalize(1e-9)?;
    let x = (lateral - y * y.dot(lateral)).try_normalize(1e-9)?;
    let z = x.cross(&y);
    let m = Matrix3::from_columns(&[x, y, z]);
    Some(UnitQuaternion::from_rotation_matrix(
        &Rotation3::from_matrix_unchecked(m),
    ))
}

/// Rest lengths along a chain starting at `top`: the fraction of each chain joint (cumulative / total).
fn fractions(rest: &[Isometry3<f64>], top: usize, chain: &[usize]) -> Vec<f64> {
    let mut prev = rest[top].translation.vector;
    let mut acc = Vec::with_capacity(chain.len());
    let mut total = 0.0;
    for &j in chain {
        let p = rest[j].translation.vector;
        total += (p - prev).norm();
        acc.push(total);
        prev = p;
    }
    let n = chain.len() as f64;
    acc.iter()
        .enumerate()
        .map(|(i, a)| {
            if total > 1e-9 {
                a / total
            } else {
                (i + 1) as f64 / n
            }
        })
        .collect()
}

/// Left-minus-right vector between two keys' joints.
fn lateral(
    rest: &[Isometry3<f64>],
    tree: &Tree,
    left: &str,
    right: &str,
    target: bool,
) -> Option<Vector3<f64>> {
    let j = |k: &Key| if target { k.target } else { k.source };
    let l = j(tree.key(left)?);
    let r = j(tree.key(right)?);
    Some(rest[l].translation.vector - rest[r].translation.vector)
}

/// Facing direction (horizontal) from the thighs: forward = left × up.
fn forward(rest: &[Isometry3<f64>], tree: &Tree, target: bool) -> Vector3<f64> {
    let l = lateral(rest, tree, "left_thigh", "right_thigh", target).unwrap_or_else(Vector3::x);
    let f = l.cross(&Vector3::y());
    Vector3::new(f.x, 0.0, f.z)
        .try_normalize(1e-9)
        .unwrap_or_else(Vector3::z)
}

/// Sum of thigh and shin rest lengths, mean of the two legs.
fn leg_length(rest: &[Isometry3<f64>], tree: &Tree, target: bool) -> f64 {
    let j = |r: &str| {
        tree.key(r)
            .map(|k| if target { k.target } else { k.source })
    };
    let pos = |i: usize| rest[i].translation.vector;
    let mut sum = 0.0;
    for side in ["left", "right"] {
        if let (Some(a), Some(b), Some(c)) = (
            j(&format!("{side}_thigh")),
            j(&format!("{side}_shin")),
            j(&format!("{side}_foot")),
        ) {
            sum += (pos(b) - pos(a)).norm() + (pos(c) - pos(b)).norm();
        }
    }
    sum / 2.0
}

impl Alignment {
    /// Analyses both rest poses.
    pub fn new(source: &Skeleton, target: &Skeleton, tree: &Tree) -> Alignment {
        let source_rest = Pose::rest(source).world_transforms(source);
        let target_rest = Pose::rest(target).world_transforms(target);
        let fs = forward(&source_rest, tree, false);
        let ft = forward(&target_rest, tree, true);
        let heading = UnitQuaternion::rotation_between(&ft, &fs).unwrap_or_else(|| {
            // Opposite facings: half a turn about up.
            UnitQuaternion::from_axis_angle(&Vector3::y_axis(), std::f64::consts::PI)
        });
        let ls = leg_length(&source_rest, tree, false);
        let lt = leg_length(&target_rest, tree, true);
        let leg_ratio = if ls > 1e-9 && lt > 1e-9 { lt / ls } else { 1.0 };

        // Per key: the world offset O of its own joint (inherited by keys with no direction).
        let mut key_offset: Vec<UnitQuaternion<f64>> = Vec::with_capacity(tree.keys.len());
        let mut driven = Vec::new();
        let mut source_fractions: Vec<Vec<(usize, f64)>> = Vec::with_capacity(tree.keys.len());
        let mut source_tips = Vec::with_capacity(tree.keys.len());
        let mut target_tips = Vec::with_capacity(tree.keys.len());
        for (ki, key) in tree.keys.iter().enumerate() {
            let child = tree.keys.iter().find(|k| k.parent == Some(ki));
            let local = |rest: &[Isometry3<f64>], j: usize, tip: Option<Vector3<f64>>| {
                tip.map(|t| rest[j].inverse() * Point3::from(t))
            };
            source_tips.push(local(
                &source_rest,
                key.source,
                rest_tip(source, &source_rest, key.source, child.map(|c| c.source)),
            ));
            target_tips.push(local(
                &target_rest,
                key.target,
                rest_tip(target, &target_rest, key.target, child.map(|c| c.target)),
            ));
            let ds = key_direction(source, &source_rest, key.source, child.map(|c| c.source));
            let dt = key_direction(target, &target_rest, key.target, child.map(|c| c.target))
                .map(|d| heading * d);
            let lat = match key.role.as_str() {
                "pelvis" => Some(("left_thigh", "right_thigh")),
                "chest" => Some(("left_upper_arm", "right_upper_arm")),
                _ => None,
            };
            let inherited = key
                .parent
                .map_or(UnitQuaternion::identity(), |p| key_offset[p]);
            let offset = match (ds, dt, lat) {
                (Some(ds), Some(dt), Some((l, r))) => {
                    let fs_ = lateral(&source_rest, tree, l, r, false).and_then(|x| frame(&ds, &x));
                    let ft_ = lateral(&target_rest, tree, l, r, true)
                        .and_then(|x| frame(&dt, &(heading * x)));
                    match (fs_, ft_) {
                        (Some(a), Some(b)) => b * a.inverse(),
                        _ => arc(&ds, &dt),
                    }
                }
                (Some(ds), Some(dt), None) => arc(&ds, &dt),
                _ => inherited,
            };
            key_offset.push(offset);

            let top_s = key.parent.map(|p| tree.keys[p].source);
            let top_t = key.parent.map(|p| tree.keys[p].target);
            let fs_chain = match top_s {
                Some(top) if key.source_chain.len() > 1 => {
                    fractions(&source_rest, top, &key.source_chain)
                }
                _ => vec![1.0; key.source_chain.len()],
            };
            source_fractions.push(key.source_chain.iter().copied().zip(fs_chain).collect());
            let ft_chain = match top_t {
                Some(top) if key.target_chain.len() > 1 && !key.target_attached => {
                    fractions(&target_rest, top, &key.target_chain)
                }
                _ => vec![1.0; key.target_chain.len()],
            };
            for (i, (&j, &u)) in key.target_chain.iter().zip(&ft_chain).enumerate() {
                // Intermediate chain bones align to the source chain bone at the same fraction, toward the
                // next chain joint; the key bone uses the key offset.
                let o = if i + 1 == key.target_chain.len() {
                    offset
                } else {
                    let next = key.target_chain[i + 1];
                    let dt = (target_rest[next].translation.vector
                        - target_rest[j].translation.vector)
                        .try_normalize(1e-9)
                        .map(|d| heading * d);
                    let sj = source_at(&source_fractions[ki], u);
                    let ds = sj.and_then(|(sj, next_s)| {
                        let tip = match next_s {
                            Some(n) => source_rest[n].translation.vector,
                            None => source_rest[key.source].translation.vector,
                        };
                        (tip - source_rest[sj].translation.vector).try_normalize(1e-9)
                    });
                    match (ds, dt) {
                        (Some(ds), Some(dt)) => arc(&ds, &dt),
                        _ => offset,
                    }
                };
                driven.push(Driven {
                    joint: j,
                    key: ki,
                    fraction: u,
                    offset: o.inverse() * heading * target_rest[j].rotation,
                });
            }
        }
        driven.sort_by_key(|d| d.joint);
        driven.dedup_by_key(|d| d.joint);
        Alignment {
            driven,
            source_fractions,
            source_rest,
            target_rest,
            heading,
            leg_ratio,
            source_leg: ls,
            source_tips,
            target_tips,
        }
    }
}

/// Shortest-arc rotation taking `a` onto `b` (half a turn about any perpendicular axis when opposite).
fn arc(a: &Vector3<f64>, b: &Vector3<f64>) -> UnitQuaternion<f64> {
    UnitQuaternion::rotation_between(a, b).unwrap_or_else(|| {
        let axis = a
            .cross(&Vector3::x())
            .try_normalize(1e-6)
            .unwrap_or_else(|| a.cross(&Vector3::y()));
        UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), std::f64::consts::PI)
    })
}

/// The source chain joint at or after fraction `u`, and the chain joint after it (if any).
fn source_at(chain: &[(usize, f64)], u: f64) -> Option<(usize, Option<usize>)> {
    let i = chain
        .iter()
        .position(|&(_, v)| v >= u - 1e-9)
        .unwrap_or(chain.len().checked_sub(1)?);
    Some((chain[i].0, chain.get(i + 1).map(|c| c.0)))
}
