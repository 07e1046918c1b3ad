//! The humanoid roles the retargeter keys on, read from the semantic bone map ([`crate::skeleton::roles`]):
//! names first, the structure for what names leave open, map-file overrides on top.

use std::collections::BTreeMap;

use super::RetargetError;
use crate::skeleton::Skeleton;
use crate::skeleton::roles::{BoneMap, RoleOverrides};

/// Roles the retargeter itself needs on both skeletons (legs, arms, head): without them there is nothing to
/// carry. Without a map file a skeleton must also be a full humanoid for the bone map
/// ([`crate::skeleton::roles::Role::REQUIRED`]).
pub const REQUIRED_ROLES: [&str; 11] = [
    "left_thigh",
    "right_thigh",
    "left_shin",
    "right_shin",
    "left_foot",
    "right_foot",
    "left_upper_arm",
    "right_upper_arm",
    "left_forearm",
    "right_forearm",
    "head",
];

/// Roles used when both skeletons have them (finer alignment of hands and toes; hands can be planted).
pub const OPTIONAL_ROLES: [&str; 4] = ["left_hand", "right_hand", "left_toe", "right_toe"];

/// Which joint plays each role on one skeleton (role name → joint index).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoleMap {
    /// Role name → joint index.
    pub joints: BTreeMap<String, usize>,
    /// The bone map's required humanoid roles without a joint ([`crate::skeleton::roles::Role::REQUIRED`]).
    pub missing_humanoid: Vec<String>,
    /// Why the bone map rejected candidates (a hand on the floor is a front paw).
    pub notes: Vec<String>,
}

impl RoleMap {
    /// The joint playing `role`, if any.
    pub fn get(&self, role: &str) -> Option<usize> {
        self.joints.get(role).copied()
    }

    /// The retargeter's required roles this map lacks, in [`REQUIRED_ROLES`] order.
    pub fn missing(&self) -> Vec<&'static str> {
        REQUIRED_ROLES
            .iter()
            .copied()
            .filter(|r| !self.joints.contains_key(*r))
            .collect()
    }
}

fn from_bone_map(map: &BoneMap) -> RoleMap {
    RoleMap {
        joints: map.iter().map(|(r, b)| (r.name(), b.joint)).collect(),
        missing_humanoid: map.missing_required().iter().map(|r| r.name()).collect(),
        notes: map.notes().to_vec(),
    }
}

/// The roles the bone map recognises on `skeleton`.
pub fn find_roles(skeleton: &Skeleton) -> RoleMap {
    from_bone_map(&BoneMap::new(skeleton))
}

/// The roles of `skeleton` with a map file's `role = "bone"` entries applied (`side` names the table in errors).
pub fn roles_with_overrides(
    skeleton: &Skeleton,
    overrides: &BTreeMap<String, String>,
    side: &str,
) -> Result<RoleMap, RetargetError> {
    let at = |e: String| RetargetError::MapFile(format!("[{side}] {e}"));
    let o = RoleOverrides::from_pairs(overrides.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| at(e.to_string()))?;
    let map = BoneMap::new(skeleton)
        .with_overrides(skeleton, &o)
        .map_err(|e| at(e.to_string()))?;
    Ok(from_bone_map(&map))
}
