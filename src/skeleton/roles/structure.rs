//! The structural pass: roles from the tree and the rest pose alone, names ignored.
//!
//! The feet are the two lowest leaves on different legs, the head the highest leaf outside the legs, the hips the
//! joint where feet and head meet; the hands are the two leaves farthest sideways outside the legs, meeting on the
//! trunk at the chest branch. Along each limb the joints are told apart by the rest pose: the ankle is the first
//! joint near the floor, the knee the joint halfway up the leg, the elbow about a third of the way from the wrist
//! to the chest; twist bones inside a segment are passed over because a segment's proximal joint must be at least
//! about as far from the next joint as the next segment is long. Left and right come from the lateral offset, with
//! "forward" read from the feet (toes point forward).

use nalgebra::Vector3;

use super::by_name::spread_trunk;
use super::map::{BoneMap, Found, RoleBone};
use super::role::{Limb, ROLE_COUNT, Role, Side};
use super::tree::RestTree;

/// A joint whose height is below this fraction of the rest height is at the floor (an ankle: about 4%).
const ANKLE_LEVEL: f64 = 0.1;
/// Two feet (or a foot and the head) belong to different limbs when their branch point is this high.
const BRANCH_LEVEL: f64 = 0.3;
/// The knee is halfway between the ankle and the hips (by height).
const KNEE_RATIO: f64 = 0.5;
/// The elbow's distance from the wrist, as a fraction of the distance from the arm's first joint to the wrist.
const ELBOW_RATIO: f64 = 0.34;
/// A segment's proximal joint is at least this fraction of the next segment's length from the next joint
/// (thigh ≈ shin, upper arm ≈ 1.27 forearm; a twist bone halfway is at 0.5 or 0.64).
const SEGMENT_MIN: f64 = 0.75;
/// A clavicle starts within this fraction of the shoulder joint's distance from the body's axis.
const CLAVICLE_INNER: f64 = 0.4;
/// The head joint is at least this far below the top of the head (fraction of the rest height; a head is 13%).
const HEAD_MIN_BELOW_TOP: f64 = 0.06;

/// Roles from the structure (all [`Found::Structure`]); notes say where the structure did not read as a humanoid.
pub(super) fn by_structure(tree: &RestTree) -> BoneMap {
    let mut bones = [None; ROLE_COUNT];
    let mut notes = Vec::new();
    if let Err(why) = fill(tree, &mut bones) {
        notes.push(format!("structure: {why}"));
    }
    BoneMap::from_parts(bones, notes)
}

fn fill(tree: &RestTree, bones: &mut [Option<RoleBone>; ROLE_COUNT]) -> Result<(), String> {
    let h = tree.height;
    let mut set = |role: Role, joint: usize| {
        bones[role.index()] = Some(RoleBone {
            joint,
            found: Found::Structure,
        })
    };
    let leaves: Vec<usize> = (0..tree.len())
        .filter(|&j| tree.children[j].is_empty())
        .collect();
    let low = |j: usize| {
        tree.tips[j]
            .iter()
            .map(|p| p.y)
            .fold(f64::INFINITY, f64::min)
    };
    let high = |j: usize| {
        tree.tips[j]
            .iter()
            .map(|p| p.y)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let apart = |a: usize, b: usize| tree.height_of(tree.lca(a, b)) >= BRANCH_LEVEL * h;
    // The leaf with the least (or most) `score` among those `keep` accepts.
    let best = |keep: &dyn Fn(usize) -> bool, score: &dyn Fn(usize) -> f64, most: bool| {
        leaves
            .iter()
            .copied()
            .filter(|&l| keep(l))
            .min_by(|&a, &b| {
                let o = score(a).total_cmp(&score(b));
                if most { o.reverse() } else { o }
            })
    };

    // Feet: the lowest leaf, and the lowest one on another limb.
    let f1 = best(&|_| true, &low, false).ok_or("no joints")?;
    let f2 = best(&|l| apart(f1, l), &low, false)
        .ok_or("no second leg (every low leaf branches off near the floor)")?;
    // Head: the highest leaf on neither leg. Hips: where it meets the legs.
    let head_leaf =
        best(&|l| apart(f1, l) && apart(f2, l), &high, true).ok_or("nothing above the legs")?;
    let hips = tree.lca(tree.lca(f1, f2), head_leaf);
    set(Role::Hips, hips);
    let axis = tree.pos[hips];
    let horizontal = |p: &Vector3<f64>| ((p.x - axis.x).powi(2) + (p.z - axis.z).powi(2)).sqrt();
    let reach = |j: usize| tree.tips[j].iter().map(horizontal).fold(0.0, f64::max);
    // Hands: the leaves farthest sideways off the trunk (not in a leg), on two arms meeting on the trunk.
    let on_trunk = |l: usize| {
        tree.is_ancestor_or_self(tree.lca(l, f1), hips)
            && tree.is_ancestor_or_self(tree.lca(l, f2), hips)
    };
    let h1 = best(&|l| on_trunk(l) && l != head_leaf, &reach, true).ok_or("no arms")?;
    let second = |l: usize| {
        on_trunk(l) && l != head_leaf && tree.is_ancestor_or_self(tree.lca(h1, l), head_leaf)
    };
    let h2 = best(&second, &reach, true).ok_or("no second arm")?;
    let chest = tree.lca(h1, h2);
    if chest == hips || !tree.is_ancestor_or_self(hips, chest) {
        return Err("the arms do not branch off a trunk above the hips".into());
    }
    for (role, j) in spread_trunk(&tree.path(hips, chest)) {
        set(role, j);
    }
    // Neck and head, above the chest branch.
    let top = high(head_leaf);
    let neck_path = tree.path(chest, head_leaf);
    let head = neck_path
        .iter()
        .rev()
        .copied()
        .find(|&j| top - tree.pos[j].y >= HEAD_MIN_BELOW_TOP * h)
        .or(neck_path.first().copied())
        .ok_or("no head above the chest")?;
    set(Role::Head, head);
    if neck_path.first().is_some_and(|&n| n != head) {
        set(Role::Neck, neck_path[0]);
    }
    // Limbs, then their sides.
    let legs = [leg(tree, hips, f1)?, leg(tree, hips, f2)?];
    let arms = [
        arm(tree, chest, h1, &horizontal)?,
        arm(tree, chest, h2, &horizontal)?,
    ];
    let mut forward: Vector3<f64> = legs
        .iter()
        .map(|l| {
            let tip = tree.tips[l.end]
                .iter()
                .copied()
                .min_by(|a, b| a.y.total_cmp(&b.y));
            tip.map_or(Vector3::zeros(), |t| t - tree.pos[l.joints[2]])
        })
        .sum();
    forward.y = 0.0;
    let forward = forward.try_normalize(1e-9 * h).unwrap_or(Vector3::z());
    let left = Vector3::y().cross(&forward);
    let lateral = |j: usize| (tree.pos[j] - axis).dot(&left);
    let leg_sides = sides(lateral(legs[0].joints[0]), lateral(legs[1].joints[0]));
    let arm_sides = sides(lateral(arms[0].joints[1]), lateral(arms[1].joints[1]));
    for (l, side) in legs.iter().zip(leg_sides) {
        for (limb, j) in Limb::LEG.into_iter().zip(l.joints) {
            if j != usize::MAX {
                set(Role::Limb(side, limb), j);
            }
        }
    }
    for (a, side) in arms.iter().zip(arm_sides) {
        for (limb, j) in Limb::ARM.into_iter().zip(a.joints) {
            if j != usize::MAX {
                set(Role::Limb(side, limb), j);
            }
        }
    }
    Ok(())
}

/// The sides of two limbs from their lateral offsets (positive = left): the more leftward one is the left.
fn sides(a: f64, b: f64) -> [Side; 2] {
    if a >= b {
        [Side::Left, Side::Right]
    } else {
        [Side::Right, Side::Left]
    }
}

/// One limb's joints in [`Limb::ARM`] or [`Limb::LEG`] order (`usize::MAX` for an absent shoulder or toe), and the
/// leaf it was traced to.
struct Chain {
    joints: [usize; 4],
    end: usize,
}

/// The leg from the hips to foot leaf `leaf`: ankle near the floor, knee halfway up, thigh the deepest joint far
/// enough above the knee, toe the ankle's only child.
fn leg(tree: &RestTree, hips: usize, leaf: usize) -> Result<Chain, String> {
    let h = tree.height;
    let path = tree.path(hips, leaf);
    let fi = path
        .iter()
        .position(|&j| tree.height_of(j) < ANKLE_LEVEL * h)
        .unwrap_or(path.len().saturating_sub(1));
    let foot = *path.get(fi).ok_or("a leg without joints")?;
    let above = &path[..fi];
    let span = tree.pos[hips].y - tree.pos[foot].y;
    let knee = *above
        .iter()
        .min_by(|&&a, &&b| {
            let r = |j: usize| ((tree.pos[j].y - tree.pos[foot].y) / span - KNEE_RATIO).abs();
            r(a).total_cmp(&r(b))
        })
        .ok_or("a leg without a knee")?;
    let shin_len = (tree.pos[knee] - tree.pos[foot]).norm();
    let ki = path.iter().position(|&j| j == knee).unwrap_or(0);
    let thigh = proximal(tree, &path[..ki], knee, SEGMENT_MIN * shin_len)
        .ok_or("a leg without a thigh above the knee")?;
    let toe = match (tree.children[foot].as_slice(), path.get(fi + 1)) {
        ([only], Some(&next)) if *only == next => next,
        _ => usize::MAX,
    };
    Ok(Chain {
        joints: [thigh, knee, foot, toe],
        end: leaf,
    })
}

/// The arm from the chest branch to hand leaf `leaf`: the hand where the fingers branch (else the last joint),
/// the elbow about a third of the way back to the chest, the upper arm the deepest joint far enough from the
/// elbow, the clavicle the last joint near the body's axis before it.
fn arm(
    tree: &RestTree,
    chest: usize,
    leaf: usize,
    horizontal: &dyn Fn(&Vector3<f64>) -> f64,
) -> Result<Chain, String> {
    let path = tree.path(chest, leaf);
    let wi = path
        .iter()
        .rposition(|&j| tree.children[j].len() >= 2)
        .filter(|&i| i >= 2)
        .unwrap_or(path.len().saturating_sub(1));
    if wi < 2 {
        return Err("an arm with fewer than three joints".into());
    }
    let wrist = path[wi];
    let reach = (tree.pos[path[0]] - tree.pos[wrist]).norm();
    let ei = (1..wi)
        .min_by(|&a, &b| {
            let r = |i: usize| {
                ((tree.pos[path[i]] - tree.pos[wrist]).norm() / reach - ELBOW_RATIO).abs()
            };
            r(a).total_cmp(&r(b))
        })
        .ok_or("an arm without an elbow")?;
    let elbow = path[ei];
    let forearm_len = (tree.pos[elbow] - tree.pos[wrist]).norm();
    let upper = proximal(tree, &path[..ei], elbow, SEGMENT_MIN * forearm_len)
        .ok_or("an arm without an upper arm")?;
    let ui = path.iter().position(|&j| j == upper).unwrap_or(0);
    let inner = CLAVICLE_INNER * horizontal(&tree.pos[upper]);
    let clavicle = path[..ui]
        .iter()
        .rev()
        .copied()
        .find(|&j| horizontal(&tree.pos[j]) <= inner)
        .or(if ui > 0 { Some(path[ui - 1]) } else { None })
        .unwrap_or(usize::MAX);
    Ok(Chain {
        joints: [clavicle, upper, elbow, wrist],
        end: leaf,
    })
}

/// The deepest of `before` at least `min_len` from `next` (skips twist bones inside the segment).
fn proximal(tree: &RestTree, before: &[usize], next: usize, min_len: f64) -> Option<usize> {
    before
        .iter()
        .rev()
        .copied()
        .find(|&j| (tree.pos[j] - tree.pos[next]).norm() >= min_len)
}
