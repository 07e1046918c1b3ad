//! Aiming a ball: where to launch it so that, flying ballistically, its centre reaches a bone's centre of mass
//! (on the character's reference motion) at a chosen time.

use nalgebra::Vector3;

use super::{Ball, SceneError};
use crate::control::{Character, GRAVITY};

/// A ball launched `flight` seconds before `arrival` so that its centre would pass through the reference
/// centre of mass of `bone`'s body at `arrival` (it touches the body's surface slightly earlier). Returns the
/// launch time and the ball at launch.
pub fn aimed_ball(
    character: &Character,
    bone: &str,
    arrival: f64,
    velocity: Vector3<f64>,
    radius: f64,
    mass: f64,
    flight: f64,
) -> Result<(f64, Ball), SceneError> {
    if !(flight.is_finite() && flight > 0.0 && arrival.is_finite() && arrival >= flight) {
        return Err(SceneError::Argument(format!(
            "an aimed ball needs a positive flight time no longer than its arrival time, got flight {flight} s, \
             arrival {arrival} s"
        )));
    }
    let body = character.body_of_bone(bone)?;
    let reference = character.reference();
    let k = ((arrival / reference.h).round() as usize).min(reference.steps.saturating_sub(1));
    let mut kin = Vec::new();
    reference.poses(k, &mut kin);
    let target = kin[body].com;
    // Ballistic: target = start + v₀·T + ½gT², with v₀ chosen so the ball has `velocity` at arrival.
    let launch_velocity = velocity - GRAVITY * flight;
    let start = target - launch_velocity * flight - 0.5 * GRAVITY * flight * flight;
    Ok((
        arrival - flight,
        Ball {
            radius,
            mass,
            position: start,
            velocity: launch_velocity,
        },
    ))
}
