//! Override maps: role → bone name, from code or a JSON/TOML file, applied over a recognised [`BoneMap`].
//!
//! ```toml
//! left_thigh = "b_LeftLeg01_015"
//! right_thigh = "b_RightLeg01_019"
//! ```
//! JSON is the same table: `{"left_thigh": "b_LeftLeg01_015"}`. Keys are [`Role::name`]s.

use std::collections::BTreeMap;
use std::path::Path;

use super::map::{BoneMap, BoneMapError, Found, RoleBone};
use super::role::Role;
use crate::skeleton::Skeleton;

/// Role → bone name entries that replace what recognition found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoleOverrides {
    entries: BTreeMap<Role, String>,
}

impl RoleOverrides {
    /// No overrides.
    pub fn new() -> RoleOverrides {
        RoleOverrides::default()
    }

    /// Sets `role` to the bone named `bone` (exact name).
    pub fn insert(&mut self, role: Role, bone: impl Into<String>) {
        self.entries.insert(role, bone.into());
    }

    /// The entries, in role order.
    pub fn iter(&self) -> impl Iterator<Item = (Role, &str)> {
        self.entries.iter().map(|(r, b)| (*r, b.as_str()))
    }

    /// From `(role name, bone name)` pairs; a key that is no [`Role::name`] is an error listing the roles.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<RoleOverrides, BoneMapError> {
        let mut out = RoleOverrides::new();
        for (role, bone) in pairs {
            let r = Role::ALL
                .into_iter()
                .find(|r| r.name() == role.trim())
                .ok_or_else(|| BoneMapError::UnknownRole(role.to_string()))?;
            out.insert(r, bone);
        }
        Ok(out)
    }

    /// Parses a JSON object of role → bone name.
    pub fn from_json(text: &str) -> Result<RoleOverrides, BoneMapError> {
        let table: BTreeMap<String, String> = serde_json::from_str(text).map_err(|e| {
            BoneMapError::File(format!("<json>: {e} (expected {{\"role\": \"bone\"}})"))
        })?;
        RoleOverrides::from_pairs(table.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }

    /// Parses a TOML table of role = "bone name".
    pub fn from_toml(text: &str) -> Result<RoleOverrides, BoneMapError> {
        let table: BTreeMap<String, String> = toml::from_str(text).map_err(|e| {
            BoneMapError::File(format!(
                "<toml>: {} (expected role = \"bone\")",
                e.message()
            ))
        })?;
        RoleOverrides::from_pairs(table.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }

    /// Reads a `.toml` file as TOML, anything else as JSON.
    pub fn from_file(path: &Path) -> Result<RoleOverrides, BoneMapError> {
        let name = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| BoneMapError::File(format!("{name}: cannot read: {e}")))?;
        let is_toml = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
        let parsed = if is_toml {
            RoleOverrides::from_toml(&text)
        } else {
            RoleOverrides::from_json(&text)
        };
        parsed.map_err(|e| match e {
            BoneMapError::File(what) => BoneMapError::File(format!("{name}: {what}")),
            other => other,
        })
    }
}

impl BoneMap {
    /// This map with `overrides` applied ([`Found::Override`]); a bone the skeleton does not have is an error.
    /// A joint given a role by an override loses any other role recognition had given it.
    pub fn with_overrides(
        mut self,
        sk: &Skeleton,
        overrides: &RoleOverrides,
    ) -> Result<BoneMap, BoneMapError> {
        for (role, bone) in overrides.iter() {
            let joint = sk.find(bone).ok_or_else(|| BoneMapError::UnknownBone {
                role,
                bone: bone.to_string(),
            })?;
            if let Some(other) = self.role_of(joint)
                && !overrides.entries.contains_key(&other)
            {
                self.set(other, None);
            }
            self.set(
                role,
                Some(RoleBone {
                    joint,
                    found: Found::Override,
                }),
            );
        }
        Ok(self)
    }
}
