//! The structural pass: roles from the tree and the rest pose alone, names ignored.
//!
//! The feet are the two lowest leaves on different legs, the head the highest leaf outside the legs, the hips the
//! joint where feet and head meet; the hands are the two leaves farthest sideways outside the legs, meeting on the
//! trunk at the chest branch. Along each limb the joints are told apart by the rest pose: the ankle is the first
//! joint near the floor, the knee the joint halfway up the leg, the elbow about a third of the way from the wrist
//! to the chest; twist bones inside a segment (in line with it and nearer to its end than the next segment is
//! long) are passed over. Left and right come from the lateral offset, with
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
/// A joint nearer to the knee than this fraction of the shin's length may be a twist bone inside the thigh (a
/// thigh is about as long as the shin; CMU subject 12's is 0.74 of it).
const THIGH_MIN: f64 = 0.9;
/// A joint nearer to the elbow than this fraction of the forearm's length may be a twist bone inside the upper
/// arm (a humerus is 1.0 to 1.3 forearms; MakeHuman's upper-arm twist joint is at 0.76).
const UPPER_ARM_MIN: f64 = 1.0;
/// Twist bones lie on their segment's line: within this angle (degrees) of the bone coming into them.
const TWIST_COLLINEAR_DEG: f64 = 10.0;
/// A clavicle starts within this fraction of the shoulder joint's sideways distance from the hips.
const CLAVICLE_INNER: f64 = 0.4;
/// A head joint branches into at least this many children (jaw, eyes, face) when it has a face.
const FACE_CHILDREN: usize = 3;
/// A leaf joint this long (fraction of the rest height) is a head-top marker (Mixamo's `HeadTop_End`) when its
/// own bone is empty: the head is the joint before it (a neck bone is about 5%).
const HEAD_TOP_MARKER: f64 = 0.08;

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
    let neck_path = tree.path(chest, head_leaf);
    let head = head_of(tree, &neck_path).ok_or("no head above the chest")?;
    set(Role::Head, head);
    if neck_path.first().is_some_and(|&n| n != head) {
        set(Role::Neck, neck_path[0]);
    }
    // Legs, "forward" from their feet to their toes (else +Z), then the arms measured sideways from the body.
    let legs = [leg(tree, hips, f1)?, leg(tree, hips, f2)?];
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
    let sideways = |p: &Vector3<f64>| (p - axis).dot(&left).abs();
    let arms = [
        arm(tree, chest, h1, &sideways)?,
        arm(tree, chest, h2, &sideways)?,
    ];
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

/// The head on the path from the chest branch to the highest leaf: the first joint branching into a face, else
/// the leaf, unless the leaf is an empty end marker a whole head above its parent.
fn head_of(tree: &RestTree, path: &[usize]) -> Option<usize> {
    if let Some(&face) = path
        .iter()
        .find(|&&j| tree.children[j].len() >= FACE_CHILDREN)
    {
        return Some(face);
    }
    let (&leaf, before) = path.split_last()?;
    let own = tree.tips[leaf]
        .iter()
        .map(|t| (t - tree.pos[leaf]).norm())
        .fold(0.0, f64::max);
    let into = tree.parent[leaf].map_or(0.0, |p| (tree.pos[leaf] - tree.pos[p]).norm());
    match before.last() {
        Some(&p) if own < 0.01 * tree.height && into >= HEAD_TOP_MARKER * tree.height => Some(p),
        _ => Some(leaf),
    }
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

/// The leg from the hips to foot leaf `leaf`: ankle near the floor, knee halfway up, thigh the first joint above
/// the knee that is no twist bone, toe the ankle's only child.
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
    let thigh = proximal(tree, &path[..ki], knee, THIGH_MIN * shin_len)
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
/// the elbow about a third of the way back to the chest, the upper arm the first joint before the elbow that is
/// no twist bone, the clavicle the last joint near the body's axis before it.
fn arm(
    tree: &RestTree,
    chest: usize,
    leaf: usize,
    sideways: &dyn Fn(&Vector3<f64>) -> f64,
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
    let upper = proximal(tree, &path[..ei], elbow, UPPER_ARM_MIN * forearm_len)
        .ok_or("an arm without an upper arm")?;
    let ui = path.iter().position(|&j| j == upper).unwrap_or(0);
    let inner = CLAVICLE_INNER * sideways(&tree.pos[upper]);
    let clavicle = path[..ui]
        .iter()
        .rev()
        .copied()
        .find(|&j| sideways(&tree.pos[j]) <= inner)
        .or(if ui > 0 { Some(path[ui - 1]) } else { None })
        .unwrap_or(usize::MAX);
    Ok(Chain {
        joints: [clavicle, upper, elbow, wrist],
        end: leaf,
    })
}

/// The proximal joint of the segment ending at `next`, walking back over `before` (the joints before it, root
/// first): a joint is passed over as a twist bone inside the segment when it is nearer to `next` than `min_len`
/// and lies on a straight line with the bone coming into it (within [`TWIST_COLLINEAR_DEG`]). A clavicle in line
/// with a T-pose arm is not passed over because it is farther from the elbow than a forearm is long.
fn proximal(tree: &RestTree, before: &[usize], next: usize, min_len: f64) -> Option<usize> {
    let mut i = before.len().checked_sub(1)?;
    loop {
        let j = before[i];
        let near = (tree.pos[next] - tree.pos[j]).norm() < min_len;
        let collinear = i > 0 && {
            let into = tree.pos[j] - tree.pos[before[i - 1]];
            let out = tree.pos[next] - tree.pos[j];
            into.norm() > 1e-9
                && out.norm() > 1e-9
                && into.angle(&out) < TWIST_COLLINEAR_DEG.to_radians()
        };
        if !(near && collinear) {
            return Some(j);
        }
        i -= 1;
    }
}
