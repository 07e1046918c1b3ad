//! The hits file of `flinch bake`: scripted impulses and balls, JSON (see `samples/hits.json`).
//!
//! ```json
//! { "restitution": 0.0,
//!   "hits": [
//!     { "type": "impulse", "time": 1.0, "bone": "RightForeArm", "impulse": [6.75, 0, 0] },
//!     { "type": "impulse", "time": 2.0, "bone": "Head", "impulse": [0, 0, -3], "point": [0, 0.1, 0], "space": "bone" },
//!     { "type": "ball", "time": 0.8, "radius": 0.11, "mass": 0.45, "start": [-3, 1.3, 0], "velocity": [15, 0, 0] },
//!     { "type": "aimed_ball", "bone": "RightForeArm", "arrival": 1.0, "velocity": [15, 0, 0] }
//!   ] }
//! ```
//! Units: seconds, metres, kilograms, N·s; world axes are flinch's (Y up, metres), whatever the clip's file used.
//! With `"scale": "body"` the hits are stated for a 1.75 m, 70 kg performer and scaled to the character
//! ([`crate::bake::scale_hits`]).

use nalgebra::Vector3;
use serde::{Deserialize, Serialize};

use crate::model::{ConfigError, parse_json, parse_toml, read_config_file};

/// Where a scripted impulse's point is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointSpace {
    /// World coordinates (m) at the hit time.
    #[default]
    World,
    /// The bone's joint frame (m), moving with the bone.
    Bone,
}

/// One scripted event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ScriptedHit {
    /// An impulse on a bone's body.
    Impulse {
        /// When (s).
        time: f64,
        /// Bone reference (exact joint name, `role:NAME`, or a name read as a role; see
        /// [`crate::skeleton::roles::resolve_bone`]); its body is hit.
        bone: String,
        /// Impulse (N·s, world).
        impulse: [f64; 3],
        /// Point of application; absent: the body's centre of mass.
        #[serde(default)]
        point: Option<[f64; 3]>,
        /// Frame of `point`.
        #[serde(default)]
        space: PointSpace,
    },
    /// A ball launched at `time` from `start` with `velocity`.
    Ball {
        /// Launch time (s).
        time: f64,
        /// Radius (m).
        radius: f64,
        /// Mass (kg).
        mass: f64,
        /// Centre at launch (m, world).
        start: [f64; 3],
        /// Velocity at launch (m/s, world).
        velocity: [f64; 3],
    },
    /// A ball aimed so its centre would pass through a bone's centre of mass at `arrival` with `velocity`.
    AimedBall {
        /// Target bone (a bone reference, like [`ScriptedHit::Impulse`]'s `bone`).
        bone: String,
        /// Arrival time (s).
        arrival: f64,
        /// Velocity at arrival (m/s, world).
        velocity: [f64; 3],
        /// Radius (m); default 0.11 (a size-5 football).
        #[serde(default = "default_radius")]
        radius: f64,
        /// Mass (kg); default 0.45.
        #[serde(default = "default_mass")]
        mass: f64,
        /// Flight time before arrival (s); default 0.2.
        #[serde(default = "default_flight")]
        flight: f64,
    },
}

fn default_radius() -> f64 {
    0.11
}
fn default_mass() -> f64 {
    0.45
}
fn default_flight() -> f64 {
    0.2
}

/// What a hits file's numbers mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitScale {
    /// As stated: N·s, m/s, kg, m (the default).
    #[default]
    Absolute,
    /// Stated for a 1.75 m, 70 kg performer; each hit becomes the same blow in the character's scale
    /// (momenta × m·√s, aimed balls' radii × s; see [`crate::bake::scale_hits`]). A retarget scales by its
    /// per-bone lever ratio against the clip's performer.
    Body,
}

/// A hits file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HitScript {
    /// The events, in any order.
    pub hits: Vec<ScriptedHit>,
    /// Newton restitution of ball hits in [0, 1] (default 0).
    pub restitution: f64,
    /// `absolute` (default) or `body`: the hits stated for a reference performer, scaled to the character.
    pub scale: HitScale,
}

impl HitScript {
    /// Parses the JSON text of a hits file; syntax errors give line and column, content errors the event
    /// (`hits[2]: unknown field ...`).
    pub fn from_json(text: &str) -> Result<HitScript, ConfigError> {
        HitScript::from_value(parse_json(text)?, "<json>")
    }

    /// Parses the TOML text of a hits file (the same content as the JSON form).
    pub fn from_toml(text: &str) -> Result<HitScript, ConfigError> {
        HitScript::from_value(parse_toml(text)?, "<toml>")
    }

    /// Reads a hits file (JSON, or TOML by extension); errors name the file.
    pub fn from_file(path: &std::path::Path) -> Result<HitScript, ConfigError> {
        let value: serde_json::Value = read_config_file(path)?;
        HitScript::from_value(value, &path.display().to_string())
    }

    /// Deserializes event by event, so an error names the event it is in (serde's internally tagged enums
    /// otherwise report the end of the whole document).
    fn from_value(mut value: serde_json::Value, path: &str) -> Result<HitScript, ConfigError> {
        let error = |message: String| ConfigError::Parse {
            path: path.to_string(),
            message,
        };
        let hits = match value.as_object_mut() {
            Some(o) => o
                .remove("hits")
                .unwrap_or(serde_json::Value::Array(Vec::new())),
            None => return Err(error("expected an object with a `hits` list".into())),
        };
        let mut script: HitScript =
            serde_json::from_value(value).map_err(|e| error(e.to_string()))?;
        let serde_json::Value::Array(hits) = hits else {
            return Err(error("`hits` must be a list".into()));
        };
        for (i, hit) in hits.into_iter().enumerate() {
            script
                .hits
                .push(serde_json::from_value(hit).map_err(|e| error(format!("hits[{i}]: {e}")))?);
        }
        if !(0.0..=1.0).contains(&script.restitution) {
            return Err(error(format!(
                "restitution must be in [0, 1], got {}",
                script.restitution
            )));
        }
        Ok(script)
    }

    /// The script with the single scripted impulse of `flinch eval --hit`.
    pub fn impulse(bone: &str, time: f64, impulse: Vector3<f64>) -> HitScript {
        HitScript {
            hits: vec![ScriptedHit::Impulse {
                time,
                bone: bone.to_string(),
                impulse: impulse.into(),
                point: None,
                space: PointSpace::World,
            }],
            restitution: 0.0,
            scale: HitScale::Absolute,
        }
    }
}
