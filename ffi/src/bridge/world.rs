//! The world part of the C++ bridge: characters, balls, steps, hits and queries on a `flinch::World`.

use flinch_core::control::PoseVelocities;
use flinch_core::scene::{Ball, BallKey, CharacterKey};
use nalgebra::Vector3;

use super::ffi::{HitEvent, Transform};
use super::{ClipData, PreparedData, WorldData, given, vector};
use crate::clip::build_character;
use crate::query::joint_deviations;
use crate::stream::{build_streamed, pose_of};

impl WorldData {
    pub(super) fn character(&self, key: u64) -> Result<&flinch_core::control::Character, String> {
        self.0
            .character(CharacterKey::from_raw(key))
            .map_err(|_| format!("character {key:#x} is not in this world (removed or stale)"))
    }

    pub(super) fn add_character(
        &mut self,
        clip: &ClipData,
        config_json: &str,
    ) -> Result<u64, String> {
        let json = given(config_json);
        let c = build_character("add_character", &clip.0, json).map_err(|e| e.message)?;
        Ok(self.0.add_character(c).to_raw())
    }

    pub(super) fn set_character_contacts(&mut self, enabled: bool) {
        self.0.set_character_contacts(enabled);
    }

    pub(super) fn add_prepared(&mut self, prepared: &PreparedData) -> u64 {
        self.0.add_prepared(&prepared.0).to_raw()
    }

    pub(super) fn add_streamed_character(
        &mut self,
        clip: &ClipData,
        config_json: &str,
    ) -> Result<u64, String> {
        let c = build_streamed("add_streamed_character", &clip.0, given(config_json))
            .map_err(|e| e.message)?;
        Ok(self.0.add_character(c).to_raw())
    }

    pub(super) fn set_target_pose(
        &mut self,
        key: u64,
        pose: &[Transform],
        velocities: &[f64],
    ) -> Result<(), String> {
        let target = pose_of(pose.iter().map(|t| (t.position, t.rotation)));
        let velocities = match velocities.len() {
            0 => None,
            n if n == 6 * pose.len() => Some(PoseVelocities {
                root_linear: Vector3::new(velocities[0], velocities[1], velocities[2]),
                angular: velocities
                    .chunks(6)
                    .map(|v| Vector3::new(v[3], v[4], v[5]))
                    .collect(),
            }),
            n => {
                return Err(format!(
                    "set_target_pose: {n} velocity numbers for {} joints (expected 0 or 6 per joint)",
                    pose.len()
                ));
            }
        };
        self.0
            .set_target_pose(CharacterKey::from_raw(key), &target, velocities.as_ref())
            .map_err(|e| format!("set_target_pose: {e}"))
    }

    pub(super) fn remove_character(&mut self, key: u64) -> Result<(), String> {
        self.0
            .remove_character(CharacterKey::from_raw(key))
            .map(drop)
            .map_err(|_| {
                format!(
                    "remove_character: character {key:#x} is not in this world (removed or stale)"
                )
            })
    }

    pub(super) fn step(&mut self, dt: f64) -> Result<(), String> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(format!("step: dt must be positive and finite, got {dt}"));
        }
        self.0.step(dt).map_err(|e| format!("step: {e}"))
    }

    pub(super) fn time(&self) -> f64 {
        self.0.time()
    }

    pub(super) fn apply_impulse(
        &mut self,
        key: u64,
        bone: &str,
        point: &[f64],
        impulse: &[f64],
    ) -> Result<(), String> {
        let impulse = vector("apply_impulse: impulse", impulse)?;
        let point = match point {
            [] => None,
            p => Some(vector("apply_impulse: point", p)?),
        };
        let c = self
            .0
            .character_mut(CharacterKey::from_raw(key))
            .map_err(|_| {
                format!("apply_impulse: character {key:#x} is not in this world (removed or stale)")
            })?;
        let body = c
            .body_of_bone(bone)
            .map_err(|e| format!("apply_impulse: {e}"))?;
        let point = point.unwrap_or(c.world().body(body).position);
        c.apply_impulse(bone, point, impulse)
            .map_err(|e| format!("apply_impulse: {e}"))
    }

    pub(super) fn joint_names(&self, key: u64) -> Result<Vec<String>, String> {
        Ok(self
            .character(key)?
            .skeleton()
            .joints
            .iter()
            .map(|j| j.name.clone())
            .collect())
    }

    pub(super) fn joint_deviations(&self, key: u64) -> Result<Vec<f64>, String> {
        Ok(joint_deviations(self.character(key)?))
    }

    pub(super) fn world_transforms(&self, key: u64) -> Result<Vec<Transform>, String> {
        Ok(self
            .character(key)?
            .world_transforms()
            .iter()
            .map(|t| Transform {
                position: t.translation.vector.into(),
                rotation: t.rotation.coords.into(),
            })
            .collect())
    }

    pub(super) fn local_pose(&self, key: u64) -> Result<Vec<Transform>, String> {
        let pose = self.character(key)?.pose();
        Ok(pose
            .rotations
            .iter()
            .zip(&pose.translations)
            .map(|(r, t)| Transform {
                position: (*t).into(),
                rotation: r.coords.into(),
            })
            .collect())
    }

    pub(super) fn spawn_ball(
        &mut self,
        radius: f64,
        mass: f64,
        position: &[f64],
        velocity: &[f64],
    ) -> Result<u64, String> {
        for (what, x) in [("radius", radius), ("mass", mass)] {
            if !(x.is_finite() && x > 0.0) {
                return Err(format!(
                    "spawn_ball: {what} must be positive and finite, got {x}"
                ));
            }
        }
        let ball = Ball {
            radius,
            mass,
            position: vector("spawn_ball: position", position)?,
            velocity: vector("spawn_ball: velocity", velocity)?,
        };
        self.0
            .spawn_ball(ball)
            .map(BallKey::to_raw)
            .map_err(|e| format!("spawn_ball: {e}"))
    }

    pub(super) fn events(&self) -> Vec<HitEvent> {
        self.0
            .events()
            .iter()
            .map(|e| HitEvent {
                time: e.time,
                character: e.character.to_raw(),
                bone: e.bone.clone(),
                point: e.point.into(),
                normal: e.normal.into(),
                impulse: e.impulse.into(),
                ball: e.ball.map_or(0, BallKey::to_raw),
                collider: e.collider.map_or(0, |c| c.to_raw()),
            })
            .collect()
    }
}
