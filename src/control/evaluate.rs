//! The evaluation runs: a character over its clip (or a streamed clip), hit as scripted, measured by a
//! [`Recorder`] into an [`Evaluation`] (`metrics.rs`, the figures; `recorder.rs`, the measuring).

use super::character::{Character, CharacterError};
use super::metrics::{EvalOptions, Evaluation};
use super::recorder::Recorder;
use crate::skeleton::Clip;

/// Runs `character` from its current state to the end of its reference (or `options.duration`) with the hits,
/// and measures.
pub fn evaluate(
    character: &mut Character,
    options: &EvalOptions,
) -> Result<Evaluation, CharacterError> {
    let end = options
        .duration
        .unwrap_or(f64::INFINITY)
        .min(character.reference().duration());
    run(character, options, end, |_, _| Ok(()))
}

/// Streams `clip` to `character` (built with [`Character::streamed`] on the clip's skeleton) as an engine would:
/// before each step, the clip sampled at the end of the step is the target pose; hits as in [`evaluate`].
/// Errors are measured against the streamed targets. Runs to the end of the clip (or `options.duration`).
pub fn evaluate_streamed(
    character: &mut Character,
    clip: &Clip,
    options: &EvalOptions,
) -> Result<Evaluation, CharacterError> {
    let end = options
        .duration
        .unwrap_or(f64::INFINITY)
        .min(clip.duration());
    run(character, options, end, |c, t_next| {
        c.set_target_pose(&clip.sample(t_next.min(clip.duration())), None)
    })
}

/// The evaluation loop: `before_step(character, t + h)` runs before each step.
fn run(
    character: &mut Character,
    options: &EvalOptions,
    end: f64,
    mut before_step: impl FnMut(&mut Character, f64) -> Result<(), CharacterError>,
) -> Result<Evaluation, CharacterError> {
    character.set_control_terms(options.terms);
    let h = character.step_size();
    let steps = ((end - character.time()) / h + 1e-9).floor().max(0.0) as usize;
    let mut hits = options.hits.clone();
    hits.sort_by(|a, b| a.time.total_cmp(&b.time));
    let mut recorder = Recorder::new(character);
    if let Some(first) = hits.first() {
        recorder.hit_at(first.time);
    }
    let mut next_hit = 0;
    for _ in 0..steps {
        let t = character.time();
        while next_hit < hits.len() && hits[next_hit].time <= t + 0.5 * h {
            let hit = &hits[next_hit];
            let body = character.body_of_bone(&hit.bone)?;
            let point = hit.point.unwrap_or(character.world().body(body).position);
            character.apply_body_impulse(body, point, hit.impulse)?;
            recorder.impulse_applied(character, body, &point, hit.impulse);
            next_hit += 1;
        }
        before_step(character, t + h)?;
        let report = character.step(h)?;
        recorder.after_step(character, report.max_separation);
    }
    Ok(recorder.finish(end))
}
