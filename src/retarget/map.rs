//! The correspondence between a source skeleton and a target skeleton: which joint plays each humanoid role on
//! each side, from the recognised roles overridden by an optional map file (JSON or TOML).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::RetargetError;
use super::roles::{OPTIONAL_ROLES, REQUIRED_ROLES, roles_with_overrides};
use crate::model::{parse_json, parse_toml, read_config_file};
use crate::skeleton::Skeleton;

/// A map override file: role → bone name per side, and the effectors to plant besides the feet.
///
/// ```toml
/// plant = ["left_hand", "right_hand"]
/// [target]
/// left_thigh = "b_LeftLeg01_019"
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MapFile {
    /// Role → joint name on the clip's skeleton (overrides what was recognised).
    pub source: BTreeMap<String, String>,
    /// Role → joint name on the character's skeleton (overrides what was recognised).
    pub target: BTreeMap<String, String>,
    /// Extra effectors held on the floor during their stance and kept above it: `left_hand`, `right_hand`.
    pub plant: Vec<String>,
}

impl MapFile {
    /// Parses JSON text.
    pub fn from_json(text: &str) -> Result<MapFile, RetargetError> {
        parse_json(text).map_err(|e| RetargetError::MapFile(e.to_string()))
    }

    /// Parses TOML text.
    pub fn from_toml(text: &str) -> Result<MapFile, RetargetError> {
        parse_toml(text).map_err(|e| RetargetError::MapFile(e.to_string()))
    }

    /// Reads a `.json` or `.toml` file (anything else is parsed as JSON).
    pub fn from_file(path: &Path) -> Result<MapFile, RetargetError> {
        read_config_file(path).map_err(|e| RetargetError::MapFile(e.to_string()))
    }
}

/// One role played on both skeletons.
#[derive(Debug, Clone, PartialEq)]
pub struct BonePair {
    /// The role (`left_forearm`).
    pub role: String,
    /// Joint index on the source skeleton.
    pub source: usize,
    /// Joint index on the target skeleton.
    pub target: usize,
}

/// Source joint ↔ target joint, with roles, plus the effectors to plant.
#[derive(Debug, Clone, PartialEq)]
pub struct Correspondence {
    /// The roles both skeletons play, required roles first.
    pub pairs: Vec<BonePair>,
    /// Effectors planted besides the feet (`left_hand`, `right_hand`), from the map file.
    pub plant_hands: Vec<String>,
}

impl Correspondence {
    /// The pair of `role`, if both skeletons play it.
    pub fn pair(&self, role: &str) -> Option<&BonePair> {
        self.pairs.iter().find(|p| p.role == role)
    }

    /// Source and target joint of `role`.
    pub fn joints(&self, role: &str) -> Option<(usize, usize)> {
        self.pair(role).map(|p| (p.source, p.target))
    }

    /// Builds the correspondence: the bone map's roles on each side, overridden by `file`. Without a file both
    /// skeletons must be humanoids for the bone map (every [`crate::skeleton::roles::Role::REQUIRED`] role);
    /// with one, the roles the retargeter needs ([`REQUIRED_ROLES`]) are enough. The error names the side and
    /// the roles it lacks.
    pub fn build(
        source: &Skeleton,
        target: &Skeleton,
        file: Option<&MapFile>,
    ) -> Result<Correspondence, RetargetError> {
        let empty = MapFile::default();
        let given = file.is_some();
        let file = file.unwrap_or(&empty);
        let src = roles_with_overrides(source, &file.source, "source")?;
        let tgt = roles_with_overrides(target, &file.target, "target")?;
        for (side, map) in [("source (clip)", &src), ("target (character)", &tgt)] {
            let mut missing: Vec<String> = map.missing().iter().map(|r| r.to_string()).collect();
            if !given {
                for r in &map.missing_humanoid {
                    if !missing.contains(r) {
                        missing.push(r.clone());
                    }
                }
            }
            if !missing.is_empty() {
                return Err(RetargetError::MissingRoles {
                    side: side.to_string(),
                    roles: missing,
                    notes: map.notes.clone(),
                });
            }
        }
        for p in &file.plant {
            if p != "left_hand" && p != "right_hand" {
                return Err(RetargetError::MapFile(format!(
                    "plant: '{p}' is not a plantable effector (left_hand, right_hand; the feet always are)"
                )));
            }
            if tgt.get(p).is_none() || src.get(p).is_none() {
                return Err(RetargetError::MapFile(format!(
                    "plant: '{p}' is not mapped on both skeletons (name it under [source] and [target])"
                )));
            }
        }
        let pairs = REQUIRED_ROLES
            .iter()
            .chain(OPTIONAL_ROLES.iter())
            .filter_map(|role| {
                Some(BonePair {
                    role: role.to_string(),
                    source: src.get(role)?,
                    target: tgt.get(role)?,
                })
            })
            .collect();
        Ok(Correspondence {
            pairs,
            plant_hands: file.plant.clone(),
        })
    }
}
