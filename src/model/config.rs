//! The serde build configuration: shapes, masses, merging, joint kinds and gains, overridable by bone name.
//!
//! Read from JSON (`.json`) or TOML (`.toml`). Every field has a default; unknown fields are errors so typos are
//! caught. Example (TOML):
//!
//! ```toml
//! total_mass = 72.0
//! [bones.LeftForeArm]
//! radius = 0.04
//! joint = { kind = "hinge", axis = [0.0, 0.0, 1.0] }
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// How a physical model is built from a skeleton.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BuildConfig {
    /// Density of every body (kg/m³). Default 1000, water: average human density is close to it (Cline §5.1).
    pub density: f64,
    /// When set, all masses (and inertias) are scaled so the total equals this (kg).
    pub total_mass: Option<f64>,
    /// A joint closer than this to its parent joint (m) is merged into the parent's body (zero-length helpers
    /// such as CMU's `LHipJoint`, finger and thumb bases). Default 0.05 m.
    pub min_bone_length: f64,
    /// Capsule radius rules, first match on the bone name wins (case-insensitive substring).
    pub radius_rules: Vec<RadiusRule>,
    /// Radius of bones no rule matches, as a fraction of the bone's length. Default 0.15.
    pub default_radius_ratio: f64,
    /// Conditioning (Jolt-style): the largest allowed mass ratio between a parent and a child body; `None` keeps
    /// the physical masses. Heavier-than-allowed neighbours make the lighter body heavier.
    pub max_mass_ratio: Option<f64>,
    /// Conditioning: each principal moment is raised to at least this fraction of the body's largest (0 = off).
    pub min_inertia_fraction: f64,
    /// Per-bone overrides, by exact skeleton joint name.
    pub bones: BTreeMap<String, BoneConfig>,
}

/// A capsule radius for bones whose name contains one of `names`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RadiusRule {
    /// Case-insensitive substrings of the bone name.
    pub names: Vec<String>,
    /// Radius as a fraction of the skeleton's standing height.
    pub height_fraction: f64,
}

/// Overrides for one bone.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BoneConfig {
    /// Capsule radius (m) for this bone's segments.
    pub radius: Option<f64>,
    /// Mass of the body (kg), replacing the density-based value (inertia scales with it).
    pub mass: Option<f64>,
    /// Force merging into the parent (true) or keeping a separate body (false).
    pub merge: Option<bool>,
    /// The joint between this body and its parent.
    pub joint: Option<JointKindConfig>,
    /// Feedback gain overrides for this joint.
    pub gains: Option<GainConfig>,
    /// Whether the body's capsules collide with balls, other characters and the floor (default true). A rig's
    /// placement handle (an IK rig's floor-level root) is not flesh.
    pub collide: Option<bool>,
}

/// Joint kind by configuration; axes are in the child bone's rest frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum JointKindConfig {
    /// 3 rotational DOF (the default).
    Ball,
    /// 1 rotational DOF about `axis`.
    Hinge {
        /// Hinge axis.
        axis: [f64; 3],
    },
    /// 2 rotational DOF about two axes.
    Universal {
        /// The two rotation axes.
        axes: [[f64; 3]; 2],
    },
}

/// Feedback gains of one joint: stiffness k = k_s·|τ_ff| + k_min, damping d = k_d·|τ_ff| + d_min.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GainConfig {
    /// Stiffness per unit feedforward torque (1/rad).
    pub k_s: Option<f64>,
    /// Minimum stiffness (N·m/rad).
    pub k_min: Option<f64>,
    /// Damping per unit feedforward torque (s/rad).
    pub k_d: Option<f64>,
    /// Minimum damping (N·m·s/rad).
    pub d_min: Option<f64>,
    /// Margin of the automatic stiffness floor over the joint's gravity moment (see `Gains::load_factor`).
    pub load_factor: Option<f64>,
    /// Lowest natural frequency of the automatic stiffness floor, rad/s (see `Gains::min_frequency`).
    pub min_frequency: Option<f64>,
}

impl Default for BuildConfig {
    fn default() -> BuildConfig {
        let rule = |names: &[&str], f: f64| RadiusRule {
            names: names.iter().map(|s| s.to_string()).collect(),
            height_fraction: f,
        };
        BuildConfig {
            density: 1000.0,
            total_mass: None,
            min_bone_length: 0.05,
            // Fractions of standing height, tuned so that segment masses of a cgspeed CMU skeleton land near
            // anthropometric tables (trunk ≈ half the body, thigh ≈ 10 %, head ≈ 7 %); "shoulder" segments stand
            // for the upper chest, which CMU-like skeletons otherwise lack. Order matters:
            // the more specific names come first ("forearm" before "arm", "upleg" before "leg").
            radius_rules: vec![
                rule(&["forearm", "lowerarm", "elbow"], 0.024),
                rule(&["hand", "wrist", "finger", "thumb", "index"], 0.017),
                rule(&["shoulder", "clavicle", "collar"], 0.040),
                rule(&["upperarm", "arm"], 0.030),
                rule(&["upleg", "upperleg", "thigh"], 0.050),
                rule(&["toe", "foot", "ankle", "metatarsal"], 0.024),
                rule(&["lowerleg", "leg", "shin", "calf", "knee"], 0.036),
                rule(&["head", "skull"], 0.060),
                rule(&["neck"], 0.030),
                rule(
                    &[
                        "hips", "hipjoint", "pelvis", "spine", "back", "chest", "torso", "abdomen",
                        "ab", "root",
                    ],
                    0.075,
                ),
            ],
            default_radius_ratio: 0.15,
            max_mass_ratio: None,
            min_inertia_fraction: 0.0,
            bones: BTreeMap::new(),
        }
    }
}

/// Why a configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The file.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
    /// The text is not valid for the format, or has unknown fields / wrong types.
    #[error("{path}: {message}")]
    Parse {
        /// The file (or `<json>` / `<toml>` for strings).
        path: String,
        /// The parser's message, with line and column.
        message: String,
    },
}

impl BuildConfig {
    /// Parses JSON text.
    pub fn from_json(text: &str) -> Result<BuildConfig, ConfigError> {
        parse_json(text)
    }

    /// Parses TOML text.
    pub fn from_toml(text: &str) -> Result<BuildConfig, ConfigError> {
        parse_toml(text)
    }

    /// Reads a `.json` or `.toml` file (anything else is parsed as JSON).
    pub fn from_file(path: &Path) -> Result<BuildConfig, ConfigError> {
        read_config_file(path)
    }

    /// The radius of a bone's segments: the per-bone override, else the first matching rule (× standing height),
    /// else `default_radius_ratio × length`.
    pub fn radius_for(&self, bone: &str, length: f64, standing_height: f64) -> f64 {
        if let Some(r) = self.bones.get(bone).and_then(|b| b.radius) {
            return r;
        }
        let lower = bone.to_ascii_lowercase();
        self.radius_rules
            .iter()
            .find(|rule| {
                rule.names
                    .iter()
                    .any(|n| lower.contains(&n.to_ascii_lowercase()))
            })
            .map(|rule| rule.height_fraction * standing_height)
            .unwrap_or(self.default_radius_ratio * length)
    }
}

/// Parses a serde configuration from JSON text.
pub fn parse_json<T: DeserializeOwned>(text: &str) -> Result<T, ConfigError> {
    serde_json::from_str(text).map_err(|e| ConfigError::Parse {
        path: "<json>".into(),
        message: e.to_string(),
    })
}

/// Parses a serde configuration from TOML text.
pub fn parse_toml<T: DeserializeOwned>(text: &str) -> Result<T, ConfigError> {
    toml::from_str(text).map_err(|e| {
        // One line, like every other flinch error: "line L, column C: message" (toml's own Display draws a
        // multi-line source excerpt).
        let at = e.span().map(|span| {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            format!("line {line}, column {column}: ")
        });
        ConfigError::Parse {
            path: "<toml>".into(),
            message: format!("{}{}", at.unwrap_or_default(), e.message()),
        }
    })
}

/// Reads a serde configuration from a `.json` or `.toml` file (anything else is parsed as JSON).
pub fn read_config_file<T: DeserializeOwned>(path: &Path) -> Result<T, ConfigError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: name.clone(),
        source,
    })?;
    let is_toml = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
    let parsed = if is_toml {
        parse_toml(&text)
    } else {
        parse_json(&text)
    };
    parsed.map_err(|e| match e {
        ConfigError::Parse { message, .. } => ConfigError::Parse {
            path: name,
            message,
        },
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_toml_agree_and_unknown_fields_fail() {
        let toml_cfg = BuildConfig::from_toml(
            "total_mass = 70.0\n[bones.LeftForeArm]\nradius = 0.04\njoint = { kind = \"hinge\", axis = [0.0, 0.0, 1.0] }\n",
        )
        .unwrap();
        let json_cfg = BuildConfig::from_json(
            r#"{"total_mass": 70.0, "bones": {"LeftForeArm": {"radius": 0.04, "joint": {"kind": "hinge", "axis": [0, 0, 1]}}}}"#,
        )
        .unwrap();
        assert_eq!(toml_cfg, json_cfg);
        assert_eq!(toml_cfg.density, 1000.0);
        let err = BuildConfig::from_json(r#"{"densty": 900}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("densty") && err.contains("line 1"), "{err}");
    }

    #[test]
    fn radius_rules_match_specific_names_first() {
        let c = BuildConfig::default();
        assert!((c.radius_for("LeftForeArm", 0.3, 1.0) - 0.024).abs() < 1e-12);
        assert!((c.radius_for("LeftArm", 0.3, 1.0) - 0.030).abs() < 1e-12);
        assert!((c.radius_for("RightUpLeg", 0.3, 1.0) - 0.050).abs() < 1e-12);
        assert!((c.radius_for("RightLeg", 0.3, 1.0) - 0.036).abs() < 1e-12);
        assert!((c.radius_for("Tail", 0.2, 1.0) - 0.03).abs() < 1e-12);
    }
}
