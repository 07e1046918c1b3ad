//! The wire protocol of `flinch view` (the live viewer in the browser, `docs/view.md`): the client's JSON control
//! messages, parsed and checked here; the binary pose frames the server sends ([`frame`]); the request guards
//! (session token, `Host` and `Origin`, message rate) ([`guard`]).
//!
//! Everything here is pure (no sockets, no clock, no simulation): the server (`src/bin/flinch/view/`) and the
//! fuzz target `view_message` call the same [`parse_client_message`].

pub mod frame;
pub mod guard;

use serde::{Deserialize, Serialize};

use crate::control::RootPolicy;

/// The protocol's version: the `scene` message's `protocol` field, and the frame magic's digit (`FLV2`). Version 2
/// added the skin: the rigs and each character's `skin` in the scene message, the bones in the frames.
pub const PROTOCOL_VERSION: u32 = 2;

/// The largest client message accepted (bytes): a larger one is answered with an error and dropped.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;
/// The most client messages accepted in one second; the rest of that second's messages are dropped (one error
/// message says so).
pub const MAX_MESSAGES_PER_SECOND: u32 = 1000;
/// The most characters a view scene holds.
pub const MAX_CHARACTERS: usize = 64;
/// The most physics steps one `step` message asks for (10 s at 120 Hz).
pub const MAX_STEPS_PER_MESSAGE: u32 = 1200;
/// The largest hit impulse a click may give (N·s): the 5 kg knock-down ball carries 60.
pub const MAX_HIT_IMPULSE: f64 = 100.0;
/// The time scale's range (simulated seconds per real second).
pub const TIME_SCALE_RANGE: (f64, f64) = (0.05, 4.0);
/// The largest coordinate a position in a message may have (m).
pub const MAX_COORDINATE: f64 = 1.0e4;

fn one() -> u32 {
    1
}

fn default_ball_mass() -> f64 {
    0.45
}

fn default_ball_radius() -> f64 {
    0.11
}

fn default_drag_stiffness() -> f64 {
    400.0
}

/// A control message from the page (JSON text, `{"type": "...", ...}`; unknown types and fields are refused).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Send the next pose frame (one per rendered frame; the server answers when a newer frame exists).
    Frame {},
    /// Run the simulation.
    Play {},
    /// Stop the simulation clock.
    Pause {},
    /// Pause and advance by `count` physics steps (default 1).
    Step {
        /// Steps to take, 1..=[`MAX_STEPS_PER_MESSAGE`].
        #[serde(default = "one")]
        count: u32,
    },
    /// Simulated seconds per real second, in [`TIME_SCALE_RANGE`].
    TimeScale {
        /// The scale.
        scale: f64,
    },
    /// Back to time 0 with the scene's characters as they were added.
    Restart {},
    /// Pause and go back to the latest state snapshot at or before `time` (s).
    Scrub {
        /// Scene time (s), ≥ 0.
        time: f64,
    },
    /// Replace the scene by one character of clip `clip` (an index into the clips given on the command line).
    Load {
        /// The clip's index.
        clip: usize,
    },
    /// Add a character of clip `clip` beside the others.
    AddCharacter {
        /// The clip's index (default 0).
        #[serde(default)]
        clip: usize,
    },
    /// An impulse along a ray (a click): the first body the ray meets takes `strength` N·s along `direction` at
    /// the point it is met.
    Hit {
        /// Ray origin (m, world): the camera.
        origin: [f64; 3],
        /// Ray direction (world; normalised by the server).
        direction: [f64; 3],
        /// Impulse (N·s), in (0, [`MAX_HIT_IMPULSE`]].
        strength: f64,
    },
    /// A ball shot from `origin` along `direction`.
    Throw {
        /// Launch point (m, world).
        origin: [f64; 3],
        /// Direction (world; normalised by the server).
        direction: [f64; 3],
        /// Speed (m/s), in (0, 100].
        speed: f64,
        /// Mass (kg), in (0, 100]; default 0.45.
        #[serde(default = "default_ball_mass")]
        mass: f64,
        /// Radius (m), in [0.01, 1]; default 0.11.
        #[serde(default = "default_ball_radius")]
        radius: f64,
    },
    /// Pull a point of a body toward `target` with a spring (held until `drag_end`; the latest message wins).
    Drag {
        /// The character's index.
        character: usize,
        /// The model body index.
        body: usize,
        /// The grabbed point in the body's frame (m).
        local: [f64; 3],
        /// Where the mouse is (m, world).
        target: [f64; 3],
        /// Spring stiffness (N/m), in (0, 1e5]; default 400 (critically damped for the body's mass).
        #[serde(default = "default_drag_stiffness")]
        stiffness: f64,
    },
    /// Let go of the dragged body.
    DragEnd {},
    /// Switch a character's root policy and, for an assisted root, its assist weight.
    Root {
        /// The character's index.
        character: usize,
        /// `kinematic`, `free` or `assisted`.
        policy: RootPolicy,
        /// Assist weight in [0, 1].
        #[serde(default)]
        assist: Option<f64>,
    },
    /// The knock-down: the 5 kg ball at 12 m/s into the character's chest (its root made assisted first).
    Knockdown {
        /// The character's index.
        character: usize,
    },
    /// Start (`on`) or stop recording the simulated motion; stopping offers the recording for download.
    Record {
        /// Start or stop.
        on: bool,
    },
    /// Plot this character (the deviation of its hit chain, its contact forces, its balance state).
    Focus {
        /// The character's index.
        character: usize,
    },
    /// Ask for the server's timing statistics.
    Stats {},
}

/// Why a client message was refused (the session goes on; the text is sent back as an error message).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProtocolError {
    /// Over [`MAX_MESSAGE_BYTES`].
    #[error("message of {0} bytes refused: the limit is {MAX_MESSAGE_BYTES} bytes")]
    TooLarge(usize),
    /// Not a JSON message of a known type.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// A known message with a value out of range.
    #[error("invalid message: {0}")]
    Invalid(String),
    /// Over [`MAX_MESSAGES_PER_SECOND`].
    #[error(
        "too many messages: at most {MAX_MESSAGES_PER_SECOND} per second are read, the rest of this second's are dropped"
    )]
    Flood,
}

fn finite_vec(v: &[f64; 3], what: &str) -> Result<(), ProtocolError> {
    if v.iter().all(|x| x.is_finite() && x.abs() <= MAX_COORDINATE) {
        Ok(())
    } else {
        Err(ProtocolError::Invalid(format!(
            "{what} must be finite, within ±{MAX_COORDINATE}"
        )))
    }
}

fn direction(v: &[f64; 3], what: &str) -> Result<(), ProtocolError> {
    finite_vec(v, what)?;
    if v.iter().map(|x| x * x).sum::<f64>() > 1e-18 {
        Ok(())
    } else {
        Err(ProtocolError::Invalid(format!("{what} must be nonzero")))
    }
}

fn within(x: f64, lo: f64, hi: f64, lo_open: bool, what: &str) -> Result<(), ProtocolError> {
    let low_ok = if lo_open { x > lo } else { x >= lo };
    if x.is_finite() && low_ok && x <= hi {
        Ok(())
    } else {
        let open = if lo_open { "(" } else { "[" };
        Err(ProtocolError::Invalid(format!(
            "{what} must be in {open}{lo}, {hi}], got {x}"
        )))
    }
}

fn index(i: usize, limit: usize, what: &str) -> Result<(), ProtocolError> {
    if i < limit {
        Ok(())
    } else {
        Err(ProtocolError::Invalid(format!(
            "{what} {i} is out of range (< {limit})"
        )))
    }
}

impl ClientMessage {
    /// Checks the values a message carries (finite, in range); indices are checked against the scene later.
    pub fn validate(&self) -> Result<(), ProtocolError> {
        match self {
            ClientMessage::Step { count } => {
                if !(1..=MAX_STEPS_PER_MESSAGE).contains(count) {
                    return Err(ProtocolError::Invalid(format!(
                        "step count must be in 1..={MAX_STEPS_PER_MESSAGE}, got {count}"
                    )));
                }
            }
            ClientMessage::TimeScale { scale } => within(
                *scale,
                TIME_SCALE_RANGE.0,
                TIME_SCALE_RANGE.1,
                false,
                "time scale",
            )?,
            ClientMessage::Scrub { time } => within(*time, 0.0, 1e6, false, "scrub time")?,
            ClientMessage::Load { clip } | ClientMessage::AddCharacter { clip } => {
                index(*clip, 1000, "clip")?
            }
            ClientMessage::Hit {
                origin,
                direction: d,
                strength,
            } => {
                finite_vec(origin, "hit origin")?;
                direction(d, "hit direction")?;
                within(*strength, 0.0, MAX_HIT_IMPULSE, true, "hit strength (N·s)")?;
            }
            ClientMessage::Throw {
                origin,
                direction: d,
                speed,
                mass,
                radius,
            } => {
                finite_vec(origin, "throw origin")?;
                direction(d, "throw direction")?;
                within(*speed, 0.0, 100.0, true, "ball speed (m/s)")?;
                within(*mass, 0.0, 100.0, true, "ball mass (kg)")?;
                within(*radius, 0.01, 1.0, false, "ball radius (m)")?;
            }
            ClientMessage::Drag {
                character,
                body,
                local,
                target,
                stiffness,
            } => {
                index(*character, MAX_CHARACTERS, "character")?;
                index(*body, 10_000, "body")?;
                finite_vec(local, "drag point")?;
                finite_vec(target, "drag target")?;
                within(*stiffness, 0.0, 1e5, true, "drag stiffness (N/m)")?;
            }
            ClientMessage::Root {
                character, assist, ..
            } => {
                index(*character, MAX_CHARACTERS, "character")?;
                if let Some(w) = assist {
                    within(*w, 0.0, 1.0, false, "assist weight")?;
                }
            }
            ClientMessage::Knockdown { character } | ClientMessage::Focus { character } => {
                index(*character, MAX_CHARACTERS, "character")?
            }
            ClientMessage::Frame {}
            | ClientMessage::Play {}
            | ClientMessage::Pause {}
            | ClientMessage::Restart {}
            | ClientMessage::DragEnd {}
            | ClientMessage::Record { .. }
            | ClientMessage::Stats {} => {}
        }
        Ok(())
    }
}

/// Parses and checks one client message: at most [`MAX_MESSAGE_BYTES`], JSON of a known type without unknown
/// fields, values in range. Never panics, whatever the bytes.
pub fn parse_client_message(bytes: &[u8]) -> Result<ClientMessage, ProtocolError> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(ProtocolError::TooLarge(bytes.len()));
    }
    let message: ClientMessage = serde_json::from_slice(bytes).map_err(|e| {
        let mut text = e.to_string();
        text.truncate(200);
        ProtocolError::Malformed(text)
    })?;
    message.validate()?;
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_known_messages_with_defaults() {
        assert_eq!(
            parse_client_message(br#"{"type":"step"}"#),
            Ok(ClientMessage::Step { count: 1 })
        );
        let hit = parse_client_message(
            br#"{"type":"hit","origin":[0,1,3],"direction":[0,0,-1],"strength":6.75}"#,
        );
        assert!(matches!(hit, Ok(ClientMessage::Hit { strength, .. }) if strength == 6.75));
        assert_eq!(
            parse_client_message(br#"{"type":"root","character":0,"policy":"assisted"}"#),
            Ok(ClientMessage::Root {
                character: 0,
                policy: RootPolicy::Assisted,
                assist: None
            })
        );
    }

    #[test]
    fn refuses_bad_messages() {
        for bad in [
            &br#"{"type":"warp"}"#[..],
            br#"{"type":"play","x":1}"#,
            br#"{"type":"hit","origin":[0,1],"direction":[0,0,-1],"strength":1}"#,
            br#"{"type":"hit","origin":[0,1,2],"direction":[0,0,0],"strength":1}"#,
            br#"{"type":"hit","origin":[0,1,2],"direction":[0,0,1],"strength":1e9}"#,
            br#"{"type":"time_scale","scale":-1}"#,
            br#"{"type":"step","count":0}"#,
            br#"not json"#,
            br#""#,
        ] {
            assert!(
                parse_client_message(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        let big = vec![b' '; MAX_MESSAGE_BYTES + 1];
        assert_eq!(
            parse_client_message(&big),
            Err(ProtocolError::TooLarge(MAX_MESSAGE_BYTES + 1))
        );
    }
}
