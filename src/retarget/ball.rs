//! The demo's ball hit, aimed at a retargeted character and scaled to its size: the hit behind the figures of
//! `examples/retarget_walk.rs` and `tests/retarget.rs`.

use nalgebra::Vector3;

use crate::bake::{HitScript, ScriptedHit};
use crate::skeleton::{Clip, Skeleton};

/// Ball mass of the demo (kg): a size-5 football.
pub const BALL_MASS: f64 = 0.45;
/// Ball radius of the demo (m).
pub const BALL_RADIUS: f64 = 0.11;
/// Ball speed of the demo at arrival (m/s).
pub const BALL_SPEED: f64 = 15.0;
/// Arrival time of the demo's ball (s).
pub const BALL_ARRIVAL: f64 = 1.0;

/// The horizontal direction of the root's travel over `clip` (unit; +Z when it hardly moves), as the demo
/// measures it.
pub fn travel_direction(skeleton: &Skeleton, clip: &Clip) -> Vector3<f64> {
    let root = |f: usize| {
        clip.frames.get(f).map_or(Vector3::zeros(), |p| {
            p.world_transforms(skeleton)[0].translation.vector
        })
    };
    let d = root(clip.frames.len().saturating_sub(1)) - root(0);
    Vector3::new(d.x, 0.0, d.z)
        .try_normalize(0.05)
        .unwrap_or(Vector3::z())
}

/// The demo's ball (0.45 kg, 0.11 m, 15 m/s, arriving at 1 s on `bone`'s centre of mass) for a character `size`
/// times the performer's size (the retarget's leg ratio), with `kick` times the demo's impulse (1 and 1 give the
/// demo's ball exactly):
/// - **aimed across the path**, from the character's right side (velocity along up × travel direction, the
///   demo's rule), whichever way the clip walks: a fixed world direction runs along a walk that heads along it
///   and meets a thigh first;
/// - **radius × `size`**: the ball keeps its size relative to the body;
/// - **speed × `kick`**, mass kept, so the impulse it gives is the demo's × `kick` (the share of its momentum a
///   limb takes depends on the mass ratio, which stays). [`hit_scale`](super::hit_scale) gives the `kick` under
///   which the target's segment turns as fast as the performer's under the demo's ball: the retargeted character
///   has the performer's segment masses on longer segments, and an impulse J at a segment's centre of mass turns
///   it at J·d/I.
pub fn scaled_ball(
    skeleton: &Skeleton,
    clip: &Clip,
    bone: &str,
    size: f64,
    kick: f64,
) -> HitScript {
    let across = Vector3::y().cross(&travel_direction(skeleton, clip));
    HitScript {
        hits: vec![ScriptedHit::AimedBall {
            bone: bone.into(),
            arrival: BALL_ARRIVAL,
            velocity: (across * BALL_SPEED * kick).into(),
            radius: BALL_RADIUS * size,
            mass: BALL_MASS,
            flight: 0.2,
        }],
        restitution: 0.0,
        ..HitScript::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::{Joint, Pose};
    use nalgebra::UnitQuaternion;

    #[test]
    fn the_ball_comes_from_the_right_of_the_travel() {
        let sk =
            Skeleton::new(vec![Joint::new("root", None, Vector3::zeros(), Vec::new())]).unwrap();
        let pose = |x: f64, z: f64| Pose {
            translations: vec![Vector3::new(x, 1.0, z)],
            rotations: vec![UnitQuaternion::identity()],
        };
        // Walking along −X (the SFU walk): the ball flies along +Z; along +Z (the CMU walk): along +X.
        for ((x1, z1), want) in [((-3.0, 0.2), Vector3::z()), ((0.1, 4.0), Vector3::x())] {
            let clip = Clip {
                frame_time: 0.1,
                frames: vec![pose(0.0, 0.0), pose(x1, z1)],
            };
            let script = scaled_ball(&sk, &clip, "root", 2.0, 2.0);
            let ScriptedHit::AimedBall {
                velocity, radius, ..
            } = &script.hits[0]
            else {
                panic!("not an aimed ball")
            };
            let v = Vector3::from(*velocity);
            assert!((v.norm() - 30.0).abs() < 1e-9 && (radius - 0.22).abs() < 1e-12);
            assert!(v.normalize().dot(&want) > 0.99, "{v:?}");
        }
    }
}
