//! A streamed character driven by a [`ClipPlayer`]: the loop an engine runs, with its figures (tracking of the
//! blended targets and the largest joint speed), shared by the `blend_walk_jump` example and its test.

use super::library::{ClipLibrary, ClipPlayer};
use crate::control::{Character, CharacterError};

/// Figures of a [`run_player`] run.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRun {
    /// Steps run.
    pub steps: usize,
    /// RMS joint-angle error against the targets (degrees), all joints and steps.
    pub track_rms_deg: f64,
    /// Largest joint-angle error against the targets (degrees).
    pub track_max_deg: f64,
    /// Largest relative angular speed of any joint in any step (rad/s).
    pub max_joint_speed_rad_s: f64,
    /// When it happened (s) and the body's name.
    pub max_joint_speed_at: (f64, String),
}

/// Steps `character` (streamed, on the library's skeleton) by `h` until `end` (s), its target at the end of each
/// step sampled from `player`; `events(character, player, t)` runs before each step (to start clips, hit).
pub fn run_player(
    character: &mut Character,
    library: &ClipLibrary,
    player: &mut ClipPlayer,
    h: f64,
    end: f64,
    mut events: impl FnMut(&mut Character, &mut ClipPlayer, f64) -> Result<(), CharacterError>,
) -> Result<PlayerRun, CharacterError> {
    let steps = ((end - character.time()) / h + 1e-9).floor().max(0.0) as usize;
    let nb = character.model().bodies.len();
    let (mut sum_sq, mut max, mut speed) = (0.0f64, 0.0f64, 0.0f64);
    let mut at = (0.0, 0);
    for _ in 0..steps {
        let t = character.time();
        events(character, player, t)?;
        character.set_target_pose(&player.sample(library, t + h), None)?;
        character.step(h)?;
        let bodies = character.world().bodies();
        for b in 1..nb {
            let e = character.joint_deviation(b).to_degrees();
            sum_sq += e * e;
            max = max.max(e);
            let p = character.reference().topology.parent[b];
            let w = bodies[b].omega() - bodies[p].omega();
            if w.norm() > speed {
                speed = w.norm();
                at = (character.time(), b);
            }
        }
    }
    Ok(PlayerRun {
        steps,
        track_rms_deg: (sum_sq / (steps * (nb - 1)).max(1) as f64).sqrt(),
        track_max_deg: max,
        max_joint_speed_rad_s: speed,
        max_joint_speed_at: (at.0, character.model().bodies[at.1].name.clone()),
    })
}
