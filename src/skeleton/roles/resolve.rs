//! Bone references: the one rule every place that names a bone (hits files, `flinch eval --hit`, the C ABI and
//! C++ API) follows.

use super::map::BoneMap;
use super::names::role_of_name;
use super::role::Role;
use crate::skeleton::Skeleton;

/// The prefix of a role reference: `role:right_forearm`.
pub const ROLE_PREFIX: &str = "role:";

/// Why a bone reference does not name a joint.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BoneLookupError {
    /// No joint has the name, and the name reads as no role.
    #[error("no bone named `{0}` in the skeleton (and the name is no humanoid role)")]
    NoBone(String),
    /// `role:NAME` with a NAME that is no role.
    #[error("`{0}`: unknown role (roles: {list})", list = Role::ALL.map(|r| r.name()).join(", "))]
    UnknownRole(String),
    /// The reference names a role (directly or through a name that reads as one) that the skeleton's bone map
    /// does not have.
    #[error(
        "`{reference}`: no bone named so, and this skeleton has no {role} in its bone map{why}"
    )]
    RoleNotMapped {
        /// The reference as given.
        reference: String,
        /// The role it stands for.
        role: Role,
        /// Why the map lacks it (the map's notes), empty if nothing resembled it.
        why: String,
    },
}

impl BoneLookupError {
    /// The reference that failed, as given.
    pub fn reference(&self) -> &str {
        match self {
            BoneLookupError::NoBone(r) | BoneLookupError::UnknownRole(r) => r,
            BoneLookupError::RoleNotMapped { reference, .. } => reference,
        }
    }
}

/// The joint a bone reference names. The rule:
/// 1. `role:NAME` names the joint playing role NAME ([`Role::name`], e.g. `role:right_forearm`) in the skeleton's
///    [`BoneMap`];
/// 2. otherwise a joint with exactly this name;
/// 3. otherwise, when the name reads as a role ([`role_of_name`]: `RightForeArm`, `mixamorig:RightForeArm`,
///    `lowerarm_r`...), the joint playing that role, so a hits file written for one rig works on another.
pub fn resolve_bone(sk: &Skeleton, reference: &str) -> Result<usize, BoneLookupError> {
    resolve_with(sk, reference, || BoneMap::new(sk))
}

/// [`resolve_bone`] with a bone map computed once by the caller.
pub fn resolve_bone_in(
    sk: &Skeleton,
    map: &BoneMap,
    reference: &str,
) -> Result<usize, BoneLookupError> {
    resolve_with(sk, reference, || map.clone())
}

fn resolve_with(
    sk: &Skeleton,
    reference: &str,
    map: impl FnOnce() -> BoneMap,
) -> Result<usize, BoneLookupError> {
    let role = if let Some(name) = reference.strip_prefix(ROLE_PREFIX) {
        Role::ALL
            .into_iter()
            .find(|r| r.name() == name.trim())
            .ok_or_else(|| BoneLookupError::UnknownRole(reference.to_string()))?
    } else if let Some(j) = sk.find(reference) {
        return Ok(j);
    } else {
        role_of_name(reference).ok_or_else(|| BoneLookupError::NoBone(reference.to_string()))?
    };
    let map = map();
    map.get(role).ok_or_else(|| {
        let notes = map.notes();
        let why = match (map.partial_humanoid(), map.require_humanoid()) {
            (Some(partial), Err(_)) => {
                format!(": the skeleton is {partial}, hits go to the bones it has")
            }
            (None, Err(e)) => format!(": {e}"),
            (_, Ok(())) if notes.is_empty() => String::new(),
            (_, Ok(())) => format!(" ({})", notes.join("; ")),
        };
        BoneLookupError::RoleNotMapped {
            reference: reference.to_string(),
            role,
            why,
        }
    })
}
