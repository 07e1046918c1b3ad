//! The name pass: roles from bone names (see [`super::names`]), with the skeleton's tree settling the ambiguous
//! words and the places: the hips are where the legs and the spine meet, the trunk roles are spread over the
//! joints between the hips and the neck.

use super::names::{NameClass, classify};
use super::role::{Limb, ROLE_COUNT, Role, Side};
use super::tree::RestTree;
use super::{Found, RoleBone};
use crate::skeleton::Skeleton;

/// What a joint's name says once the tree has settled ambiguous words.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Said {
    Hips,
    Trunk,
    Neck,
    Head,
    Limb { side: Side, limb: Limb, weak: bool },
}

/// Roles recognised from names. Trunk joints between the hips and the neck get their trunk role from their place
/// (named ones count as found by name); the hips are the lowest common ancestor of the thighs and the trunk.
pub(super) fn by_name(sk: &Skeleton, tree: &RestTree) -> [Option<RoleBone>; ROLE_COUNT] {
    let raw: Vec<Option<(NameClass, Option<Side>)>> =
        sk.joints.iter().map(|j| classify(&j.name)).collect();
    let said = settle(&raw, tree);
    let mut out = [None; ROLE_COUNT];
    let name = |j: usize| {
        Some(RoleBone {
            joint: j,
            found: Found::Name,
        })
    };
    for side in [Side::Left, Side::Right] {
        for chain in [Limb::ARM, Limb::LEG] {
            let mut prev: Option<usize> = None;
            for limb in chain {
                let pick = pick(
                    tree,
                    &said,
                    prev,
                    |j| matches!(said[j], Some(Said::Limb { side: sd, limb: l, .. }) if sd == side && l == limb),
                );
                if let Some(j) = pick {
                    out[Role::Limb(side, limb).index()] = name(j);
                    prev = Some(j);
                }
            }
        }
    }
    let get = |r: Role| out[r.index()].map(|b| b.joint);
    let thighs = (
        get(Role::Limb(Side::Left, Limb::Thigh)),
        get(Role::Limb(Side::Right, Limb::Thigh)),
    );
    // Where the legs branch: the hips, whatever joint the file made its root.
    let legs_meet = match thighs {
        (Some(l), Some(r)) => Some(tree.lca(l, r)),
        _ => None,
    };
    let head = pick(tree, &said, None, |j| said[j] == Some(Said::Head));
    // A skeleton rooted at the head end (a VR tracking recording: HMD → Head → Neck → Chest → Waist → Hip → legs)
    // has the head above the legs' branching point in the tree: the trunk runs up the tree from the hips.
    let inverted =
        matches!((head, legs_meet), (Some(h), Some(m)) if h != m && tree.is_ancestor_or_self(h, m));
    // The neck is on the way from the hips to the head when there is one.
    let neck = pick(tree, &said, None, |j| {
        said[j] == Some(Said::Neck)
            && head.is_none_or(|h| {
                if inverted {
                    tree.is_ancestor_or_self(h, j)
                        && legs_meet.is_none_or(|m| tree.is_ancestor_or_self(j, m))
                } else {
                    tree.is_ancestor_or_self(j, h)
                }
            })
    });
    // A named neck ending the chain carries the head (DeepMimic's `neck` link is its head).
    let (head, neck) = match (head, neck) {
        (None, Some(n)) if tree.children[n].is_empty() => (Some(n), None),
        other => other,
    };
    out[Role::Head.index()] = head.and_then(name);
    out[Role::Neck.index()] = neck.and_then(name);
    // The top of the trunk: below the neck, else where the arms meet, else below the head.
    let get = |r: Role| out[r.index()].map(|b| b.joint);
    if inverted && let (Some(m), Some(upper)) = (legs_meet, neck.or(head)) {
        // "Below" is toward the hips, down the tree: the trunk is the path from the neck (or head, exclusive)
        // down to the hips, and bottom to top is its reverse.
        let mut chain = tree.path(upper, m);
        chain.reverse();
        place_trunk(&mut out, &said, m, &chain);
        return out;
    }
    let arm_top =
        |s: Side| get(Role::Limb(s, Limb::Shoulder)).or(get(Role::Limb(s, Limb::UpperArm)));
    let arms_meet = match (arm_top(Side::Left), arm_top(Side::Right)) {
        (Some(l), Some(r)) => Some(tree.lca(l, r)),
        _ => None,
    };
    let top = neck
        .and_then(|n| tree.parent[n])
        .or(arms_meet)
        .or_else(|| head.and_then(|h| tree.parent[h]));
    let named_hips = pick(tree, &said, None, |j| said[j] == Some(Said::Hips));
    // Where the legs and the trunk meet; a joint named `Hips` elsewhere (MakeHuman's walk rig hangs the legs
    // under a `Hips` beside the spine) is not the hips.
    let hips = match (thighs, top) {
        ((Some(l), Some(r)), Some(t)) => Some(tree.lca(tree.lca(l, r), t)),
        _ => named_hips,
    };
    if let Some(h) = hips {
        let chain = top.map(|t| tree.path(h, t)).unwrap_or_default();
        place_trunk(&mut out, &said, h, &chain);
    }
    out
}

/// Places the hips at `hips` and the trunk roles over `chain` (the joints from the hips up to the top of the
/// trunk, bottom to top; the hips and joints named as hips skipped), each found by name when its name says so.
fn place_trunk(
    out: &mut [Option<RoleBone>; ROLE_COUNT],
    said: &[Option<Said>],
    hips: usize,
    chain: &[usize],
) {
    let found = |j: usize, named: Said| {
        if said[j] == Some(named) {
            Found::Name
        } else {
            Found::Structure
        }
    };
    out[Role::Hips.index()] = Some(RoleBone {
        joint: hips,
        found: found(hips, Said::Hips),
    });
    let trunk: Vec<usize> = chain
        .iter()
        .copied()
        .filter(|&j| j != hips && said[j] != Some(Said::Hips))
        .collect();
    for (role, j) in spread_trunk(&trunk) {
        out[role.index()] = Some(RoleBone {
            joint: j,
            found: found(j, Said::Trunk),
        });
    }
}

/// The trunk roles over the joints between the hips and the neck, bottom to top: one joint is the spine; two are
/// spine and chest; three or more: the first is the spine, the last the upper chest, the middle one the chest.
pub(super) fn spread_trunk(chain: &[usize]) -> Vec<(Role, usize)> {
    match chain {
        [] => Vec::new(),
        [s] => vec![(Role::Spine, *s)],
        [s, c] => vec![(Role::Spine, *s), (Role::Chest, *c)],
        _ => vec![
            (Role::Spine, chain[0]),
            (Role::Chest, chain[chain.len() / 2]),
            (Role::UpperChest, chain[chain.len() - 1]),
        ],
    }
}

/// The joint for a role among the `wanted` ones: strong names before weak (`Palm`), descendants of
/// `below` (the previous bone of the limb) before others, then the one nearest the root, then the first.
fn pick(
    tree: &RestTree,
    said: &[Option<Said>],
    below: Option<usize>,
    wanted: impl Fn(usize) -> bool,
) -> Option<usize> {
    (0..tree.len()).filter(|&j| wanted(j)).min_by_key(|&j| {
        let weak = matches!(said[j], Some(Said::Limb { weak: true, .. }));
        let detached = below.is_some_and(|b| b == j || !tree.is_ancestor_or_self(b, j));
        (weak, detached, tree.depth[j], j)
    })
}

/// Settles the ambiguous words with the tree: a sided `Shoulder` is the clavicle when an upper-arm word (`Arm`,
/// `UpperArm`) of its side is below it, else the upper arm; a sided `Hip` is the thigh unless a thigh word is
/// below it; a bare `Leg` is the thigh when a shin word is below it, else the shin.
fn settle(raw: &[Option<(NameClass, Option<Side>)>], tree: &RestTree) -> Vec<Option<Said>> {
    let below = |j: usize, side: Option<Side>, f: &dyn Fn(NameClass) -> bool| {
        (j + 1..raw.len()).any(|d| {
            raw[d].is_some_and(|(c, s)| s == side && f(c)) && tree.is_ancestor_or_self(j, d)
        })
    };
    raw.iter()
        .enumerate()
        .map(|(j, r)| {
            let (class, side) = (*r)?;
            let limb = |limb: Limb, weak: bool| side.map(|side| Said::Limb { side, limb, weak });
            match class {
                NameClass::Hips => Some(Said::Hips),
                NameClass::Trunk(_) => Some(Said::Trunk),
                NameClass::Neck => Some(Said::Neck),
                NameClass::Head => Some(Said::Head),
                NameClass::Limb { limb: l, weak } => limb(l, weak),
                NameClass::Arm => limb(Limb::UpperArm, false),
                NameClass::Shoulder => {
                    let upper = |c| {
                        matches!(
                            c,
                            NameClass::Arm
                                | NameClass::Limb {
                                    limb: Limb::UpperArm,
                                    ..
                                }
                        )
                    };
                    if below(j, side, &upper) {
                        limb(Limb::Shoulder, false)
                    } else {
                        limb(Limb::UpperArm, false)
                    }
                }
                NameClass::SidedHip => {
                    let thigh = |c| {
                        matches!(
                            c,
                            NameClass::Limb {
                                limb: Limb::Thigh,
                                ..
                            }
                        )
                    };
                    if below(j, side, &thigh) {
                        None
                    } else {
                        limb(Limb::Thigh, false)
                    }
                }
                NameClass::Leg => {
                    let shin = |c| {
                        matches!(
                            c,
                            NameClass::Limb {
                                limb: Limb::Shin,
                                ..
                            }
                        )
                    };
                    if below(j, side, &shin) {
                        limb(Limb::Thigh, false)
                    } else {
                        limb(Limb::Shin, false)
                    }
                }
            }
        })
        .collect()
}
