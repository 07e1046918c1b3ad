//! [`BoneMap`]: role → joint, with how each was found; assembly of the passes and the humanoid checks.

use super::by_name::by_name;
use super::role::{Limb, ROLE_COUNT, Role, Side};
use super::structure::by_structure;
use super::tree::RestTree;
use crate::skeleton::Skeleton;

/// How a role's joint was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Found {
    /// From the bone's name (synonym table), placed by the tree where the name alone is ambiguous.
    Name,
    /// From the skeleton's structure and rest pose (chains, branch points, lengths, sides), because no name said it.
    Structure,
    /// From an override map (role → bone name) given by the user.
    Override,
}

impl Found {
    /// `name`, `structure` or `override`.
    pub fn name(self) -> &'static str {
        match self {
            Found::Name => "name",
            Found::Structure => "structure",
            Found::Override => "override",
        }
    }
}

/// The joint playing one role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoleBone {
    /// Joint index in the skeleton.
    pub joint: usize,
    /// How it was found.
    pub found: Found,
}

/// Why a skeleton has no complete humanoid map.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BoneMapError {
    /// Required roles are missing.
    #[error(
        "not a humanoid skeleton: no bone found for {}{}",
        role_list(missing),
        note_list(notes)
    )]
    NotHumanoid {
        /// The required roles without a joint, in [`Role::REQUIRED`] order.
        missing: Vec<Role>,
        /// Why roles were rejected (empty when nothing resembled them).
        notes: Vec<String>,
    },
    /// An override names a role that does not exist.
    #[error("bone map: unknown role `{0}` (roles: {list})", list = role_list(&Role::ALL))]
    UnknownRole(String),
    /// An override names a bone the skeleton does not have.
    #[error("bone map: role {role} names bone `{bone}`, which the skeleton does not have")]
    UnknownBone {
        /// The role.
        role: Role,
        /// The bone name given.
        bone: String,
    },
    /// An override file could not be read or parsed.
    #[error("bone map file: {0}")]
    File(String),
}

fn role_list(roles: &[Role]) -> String {
    roles
        .iter()
        .map(|r| r.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn note_list(notes: &[String]) -> String {
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    }
}

/// Which joint of a skeleton plays each canonical humanoid [`Role`], and how it was found.
///
/// Built by [`BoneMap::new`] (names first, the structure for what names leave open, then the humanoid checks);
/// [`BoneMap::humanoid`] also requires every [`Role::REQUIRED`] role. See `docs/roles.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct BoneMap {
    bones: [Option<RoleBone>; ROLE_COUNT],
    notes: Vec<String>,
}

impl Default for BoneMap {
    fn default() -> BoneMap {
        BoneMap {
            bones: [None; ROLE_COUNT],
            notes: Vec::new(),
        }
    }
}

impl BoneMap {
    pub(super) fn from_parts(bones: [Option<RoleBone>; ROLE_COUNT], notes: Vec<String>) -> BoneMap {
        BoneMap { bones, notes }
    }

    /// The map of `sk`: roles from names, the gaps filled from the structure, then roles that contradict a
    /// standing humanoid rest pose dropped (with a note, see [`BoneMap::notes`]). Never fails; a non-humanoid
    /// gets a partial map.
    pub fn new(sk: &Skeleton) -> BoneMap {
        let tree = RestTree::new(sk);
        let mut map = BoneMap {
            bones: by_name(sk, &tree),
            notes: Vec::new(),
        };
        let structural = by_structure(&tree);
        for role in Role::ALL {
            if map.bones[role.index()].is_none()
                && let Some(b) = structural.bones[role.index()]
                && map.role_of(b.joint).is_none()
                && map.fits_limb(&tree, role, b.joint)
            {
                map.bones[role.index()] = Some(b);
            }
        }
        map.check(sk, &tree);
        if !map.missing_required().is_empty() {
            map.notes.extend(structural.notes);
        }
        map
    }

    /// Whether `joint` can play limb role `role` beside the limb's roles already mapped: below the ones before it
    /// in the limb, above the ones after it (a structural guess must not cross a chain the names laid out).
    fn fits_limb(&self, tree: &RestTree, role: Role, joint: usize) -> bool {
        let Role::Limb(side, limb) = role else {
            return true;
        };
        let chain = if Limb::ARM.contains(&limb) {
            Limb::ARM
        } else {
            Limb::LEG
        };
        let at = chain.iter().position(|&l| l == limb).unwrap_or(0);
        chain
            .iter()
            .enumerate()
            .all(|(i, &other)| match self.get(Role::Limb(side, other)) {
                None => true,
                Some(o) if i < at => o != joint && tree.is_ancestor_or_self(o, joint),
                Some(o) if i > at => o != joint && tree.is_ancestor_or_self(joint, o),
                Some(_) => true,
            })
    }

    /// Roles from names only (no structural fallback), checked like [`BoneMap::new`].
    pub fn from_names(sk: &Skeleton) -> BoneMap {
        let tree = RestTree::new(sk);
        let mut map = BoneMap {
            bones: by_name(sk, &tree),
            notes: Vec::new(),
        };
        map.check(sk, &tree);
        map
    }

    /// Roles from the structure and rest pose only, names ignored, checked like [`BoneMap::new`].
    pub fn from_structure(sk: &Skeleton) -> BoneMap {
        let tree = RestTree::new(sk);
        let mut map = by_structure(&tree);
        map.check(sk, &tree);
        map
    }

    /// [`BoneMap::new`], or an error naming the required roles it lacks (and why candidates were rejected).
    pub fn humanoid(sk: &Skeleton) -> Result<BoneMap, BoneMapError> {
        let map = BoneMap::new(sk);
        map.require_humanoid()?;
        Ok(map)
    }

    /// `Ok` when every [`Role::REQUIRED`] role has a joint; else the missing ones.
    pub fn require_humanoid(&self) -> Result<(), BoneMapError> {
        let missing = self.missing_required();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(BoneMapError::NotHumanoid {
                missing,
                notes: self.notes.clone(),
            })
        }
    }

    /// The joint playing `role`.
    pub fn get(&self, role: Role) -> Option<usize> {
        self.bones[role.index()].map(|b| b.joint)
    }

    /// The joint playing `role` and how it was found.
    pub fn bone(&self, role: Role) -> Option<RoleBone> {
        self.bones[role.index()]
    }

    /// Sets (or, with `None`, clears) the joint of `role`.
    pub fn set(&mut self, role: Role, bone: Option<RoleBone>) {
        self.bones[role.index()] = bone;
    }

    /// The mapped roles in [`Role::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Role, RoleBone)> + '_ {
        Role::ALL
            .into_iter()
            .filter_map(|r| self.bones[r.index()].map(|b| (r, b)))
    }

    /// Number of mapped roles.
    pub fn len(&self) -> usize {
        self.bones.iter().flatten().count()
    }

    /// Whether no role is mapped.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The [`Role::REQUIRED`] roles without a joint.
    pub fn missing_required(&self) -> Vec<Role> {
        Role::REQUIRED
            .into_iter()
            .filter(|r| self.bones[r.index()].is_none())
            .collect()
    }

    /// What a map that is not a full humanoid still has, when it is a **partial humanoid**: hips, spine and head
    /// with both legs or both arms (a VR full-body tracking recording has no arms). `None` for a full humanoid and
    /// for anything with less. Such a skeleton is simulated and takes hits on the bones it has; a hit naming a
    /// missing role is refused with this description.
    pub fn partial_humanoid(&self) -> Option<String> {
        let has = |roles: &[Role]| roles.iter().all(|r| self.get(*r).is_some());
        let sides = |limbs: &[Limb]| -> Vec<Role> {
            [Side::Left, Side::Right]
                .into_iter()
                .flat_map(|s| limbs.iter().map(move |&l| Role::Limb(s, l)))
                .collect()
        };
        let trunk = has(&[Role::Hips, Role::Spine, Role::Head]);
        let legs = has(&sides(&[Limb::Thigh, Limb::Shin, Limb::Foot]));
        let arms = has(&sides(&[Limb::UpperArm, Limb::Forearm, Limb::Hand]));
        match (trunk, legs, arms) {
            (true, true, false) => {
                Some("a partial humanoid without arms (trunk, head and legs mapped)".into())
            }
            (true, false, true) => {
                Some("a partial humanoid without legs (trunk, head and arms mapped)".into())
            }
            _ => None,
        }
    }

    /// The role joint `joint` plays, if any.
    pub fn role_of(&self, joint: usize) -> Option<Role> {
        self.iter().find(|(_, b)| b.joint == joint).map(|(r, _)| r)
    }

    /// Why roles were rejected or left open (e.g. "left_hand `b_LeftHand_011` rests on the floor").
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// All trunk joints from the hips (exclusive) up to the joint below the neck (or the upper chest, chest or
    /// spine, whichever is the highest mapped), bottom to top: the spine chain a retargeter spreads rotations
    /// over. Empty without hips or spine.
    pub fn spine_chain(&self, sk: &Skeleton) -> Vec<usize> {
        let (Some(hips), Some(_)) = (self.get(Role::Hips), self.get(Role::Spine)) else {
            return Vec::new();
        };
        let top = self
            .get(Role::Neck)
            .and_then(|n| sk.joints.get(n).and_then(|j| j.parent))
            .or_else(|| self.get(Role::UpperChest))
            .or_else(|| self.get(Role::Chest))
            .or_else(|| self.get(Role::Spine));
        let Some(top) = top else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut k = top;
        while k != hips {
            out.push(k);
            match sk.joints.get(k).and_then(|j| j.parent) {
                Some(p) => k = p,
                None => return Vec::new(),
            }
        }
        out.reverse();
        out
    }

    /// The map as JSON: `{"left_forearm": {"bone": "LeftForeArm", "joint": 18, "found": "name"}, ...}`, plus
    /// `"missing"` (required roles without a joint) and `"notes"`.
    pub fn to_json(&self, sk: &Skeleton) -> serde_json::Value {
        let mut roles = serde_json::Map::new();
        for (role, b) in self.iter() {
            roles.insert(
                role.name(),
                serde_json::json!({
                    "bone": sk.joints.get(b.joint).map(|j| j.name.as_str()).unwrap_or("?"),
                    "joint": b.joint,
                    "found": b.found.name(),
                }),
            );
        }
        serde_json::json!({
            "roles": roles,
            "missing": self.missing_required().iter().map(|r| r.name()).collect::<Vec<_>>(),
            "notes": self.notes,
        })
    }

    /// The map as text, one role a line: `  right_forearm    RightForeArm (name)`.
    pub fn to_text(&self, sk: &Skeleton) -> String {
        let mut out = String::new();
        for (role, b) in self.iter() {
            let bone = sk
                .joints
                .get(b.joint)
                .map(|j| j.name.as_str())
                .unwrap_or("?");
            out += &format!("  {:16} {bone} ({})\n", role.name(), b.found.name());
        }
        let missing = self.missing_required();
        if missing.is_empty() {
            out += "  humanoid: all required roles found\n";
        } else {
            out += &format!("  not a humanoid: missing {}\n", role_list(&missing));
        }
        for n in &self.notes {
            out += &format!("  note: {n}\n");
        }
        out
    }

    /// Drops roles that contradict a standing humanoid rest pose: a hand resting on the floor is a front leg (the
    /// Fox), a foot high above it is no foot, a head not above the hips is no upright head.
    fn check(&mut self, sk: &Skeleton, tree: &RestTree) {
        let name = |j: usize| sk.joints.get(j).map(|j| j.name.clone()).unwrap_or_default();
        let h = tree.height;
        for side in [Side::Left, Side::Right] {
            let hand = self.get(Role::Limb(side, Limb::Hand));
            if let Some(j) = hand
                && tree.height_of(j) < HAND_MIN_HEIGHT * h
            {
                self.notes.push(format!(
                    "{} `{}` rests on the floor in the rest pose ({:.0}% of the height): a front leg, not an arm",
                    Role::Limb(side, Limb::Hand),
                    name(j),
                    100.0 * tree.height_of(j) / h
                ));
                for limb in Limb::ARM {
                    self.set(Role::Limb(side, limb), None);
                }
            }
            if let Some(j) = self.get(Role::Limb(side, Limb::Foot))
                && tree.height_of(j) > FOOT_MAX_HEIGHT * h
            {
                self.notes.push(format!(
                    "{} `{}` is {:.0}% of the height above the floor in the rest pose: not a foot",
                    Role::Limb(side, Limb::Foot),
                    name(j),
                    100.0 * tree.height_of(j) / h
                ));
                self.set(Role::Limb(side, Limb::Foot), None);
                self.set(Role::Limb(side, Limb::Toe), None);
            }
        }
        if let (Some(head), Some(hips)) = (self.get(Role::Head), self.get(Role::Hips))
            && tree.pos[head].y - tree.pos[hips].y < HEAD_ABOVE_HIPS * h
        {
            self.notes.push(format!(
                "head `{}` is not above hips `{}` in the rest pose: not upright",
                name(head),
                name(hips)
            ));
            self.set(Role::Head, None);
            self.set(Role::Neck, None);
        }
    }
}

/// A hand lower than this fraction of the rest height stands on the floor (a human's wrists hang at about 45% of
/// the stature with the arms down, 80% in a T-pose).
const HAND_MIN_HEIGHT: f64 = 0.25;
/// A foot higher than this fraction of the rest height is not on the floor (ankles are at about 4%).
const FOOT_MAX_HEIGHT: f64 = 0.2;
/// A head must be this fraction of the rest height above the hips (about 35% on a human).
const HEAD_ABOVE_HIPS: f64 = 0.15;
