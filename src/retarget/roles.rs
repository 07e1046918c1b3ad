//! The humanoid roles the retargeter keys on, and which joint of a skeleton plays each.
//!
//! The role vocabulary is the semantic humanoid map's (`left_upper_arm`, `right_shin`, ...). TEMPORARY: until the
//! bone-map module lands, [`find_roles`] recognises roles by a minimal exact-name table covering the shared-data
//! pair only (CMU/SFU BVH names, RobotExpressive); it is replaced by the bone map's name + structure recogniser.

use std::collections::BTreeMap;

use crate::skeleton::Skeleton;

/// Roles the retargeter needs on both skeletons (legs, arms, head): without them there is nothing to carry.
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

/// Roles used when both skeletons have them (finer alignment of hands and toes).
pub const OPTIONAL_ROLES: [&str; 4] = ["left_hand", "right_hand", "left_toe", "right_toe"];

/// Which joint plays each role on one skeleton (role name → joint index).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoleMap {
    /// Role name → joint index.
    pub joints: BTreeMap<String, usize>,
}

impl RoleMap {
    /// The joint playing `role`, if any.
    pub fn get(&self, role: &str) -> Option<usize> {
        self.joints.get(role).copied()
    }

    /// The required roles this map lacks, in [`REQUIRED_ROLES`] order.
    pub fn missing(&self) -> Vec<&'static str> {
        REQUIRED_ROLES
            .iter()
            .copied()
            .filter(|r| !self.joints.contains_key(*r))
            .collect()
    }
}

/// Whether `role` is a name the retargeter knows.
pub fn is_known_role(role: &str) -> bool {
    REQUIRED_ROLES.contains(&role) || OPTIONAL_ROLES.contains(&role)
}

/// TEMPORARY minimal name table (see the module docs): role → accepted exact joint names.
const NAMES: [(&str, &[&str]); 15] = [
    ("left_thigh", &["LeftUpLeg", "UpperLegL"]),
    ("right_thigh", &["RightUpLeg", "UpperLegR"]),
    ("left_shin", &["LeftLeg", "LowerLegL"]),
    ("right_shin", &["RightLeg", "LowerLegR"]),
    ("left_foot", &["LeftFoot", "FootL"]),
    ("right_foot", &["RightFoot", "FootR"]),
    ("left_toe", &["LeftToeBase"]),
    ("right_toe", &["RightToeBase"]),
    ("left_upper_arm", &["LeftArm", "UpperArmL"]),
    ("right_upper_arm", &["RightArm", "UpperArmR"]),
    ("left_forearm", &["LeftForeArm", "LowerArmL"]),
    ("right_forearm", &["RightForeArm", "LowerArmR"]),
    ("left_hand", &["LeftHand"]),
    ("right_hand", &["RightHand"]),
    ("head", &["Head"]),
];

/// The roles recognised on `skeleton` (TEMPORARY name table, see the module docs).
pub fn find_roles(skeleton: &Skeleton) -> RoleMap {
    let mut map = RoleMap::default();
    for (role, names) in NAMES {
        if let Some(j) = names.iter().find_map(|n| skeleton.find(n)) {
            map.joints.insert(role.to_string(), j);
        }
    }
    map
}
