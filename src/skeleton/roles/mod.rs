//! The semantic humanoid bone map: which joint of a skeleton is the hips, the spine, the head, each upper arm,
//! forearm, hand, thigh, shin, foot..., whatever the rig calls them.
//!
//! [`BoneMap::new`] reads roles from names first ([`role_of_name`]: a normaliser for case, separators, rig
//! prefixes and side words, then a synonym table covering CMU, SFU, Mixamo, MakeHuman, Rigify, Unreal, VRM,
//! Unity, 3ds Max Biped, Xsens and Biovision names), lets the tree settle ambiguous words (`Shoulder`, `Hip`,
//! `Leg`) and places (hips, trunk), fills what names leave open from the structure and rest pose alone, and
//! drops roles that contradict a standing humanoid (a "hand" on the floor). [`RoleOverrides`] replace entries
//! from a JSON/TOML file. [`resolve_bone`] is the one rule by which every bone reference (hits files, CLI, C ABI)
//! becomes a joint: `role:NAME`, an exact name, or a name read as a role. See `docs/roles.md`.

mod by_name;
mod map;
mod names;
mod overrides;
mod resolve;
mod role;
mod structure;
mod tree;

pub use map::{BoneMap, BoneMapError, Found, RoleBone};
pub use names::{NormalisedName, normalise, role_of_name};
pub use overrides::RoleOverrides;
pub use resolve::{BoneLookupError, ROLE_PREFIX, resolve_bone, resolve_bone_in};
pub use role::{Limb, ROLE_COUNT, Role, Side};
