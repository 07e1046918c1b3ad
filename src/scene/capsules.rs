//! A character's colliding capsules in world coordinates: what balls, rays, sweeps, other characters and the
//! level's colliders are tested against.

use nalgebra::Vector3;

use crate::control::Character;

/// A colliding capsule of a character in world coordinates: its body, its axis `a`–`b` and its radius.
#[derive(Debug, Clone, Copy)]
pub(super) struct WorldCapsule {
    pub(super) body: usize,
    pub(super) a: Vector3<f64>,
    pub(super) b: Vector3<f64>,
    pub(super) radius: f64,
}

/// Every capsule of `c`'s colliding bodies at their simulated poses, body by body (each body's frame made once).
pub(super) fn world_capsules(c: &Character) -> impl Iterator<Item = WorldCapsule> + '_ {
    c.model()
        .bodies
        .iter()
        .enumerate()
        .filter(|(_, body)| body.collides)
        .flat_map(move |(b, body)| {
            let frame = c.body_frame(b);
            body.capsules.iter().map(move |cap| WorldCapsule {
                body: b,
                a: (frame * cap.a).coords,
                b: (frame * cap.b).coords,
                radius: cap.radius,
            })
        })
}
