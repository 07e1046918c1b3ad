//! The level part of the C++ bridge: colliders added, moved and removed, a level file loaded, ray casts and
//! sphere sweeps (the same checks and messages as the C ABI's `flinch_world_*_collider` and casts).

use std::path::Path;
use std::sync::Arc;

use flinch_core::control::PreparedClip;
use flinch_core::level::{ColliderKey, load_level_file};
use flinch_core::scene::{CharacterKey, RayTarget, SceneRayHit};
use nalgebra::Vector3;

use super::ffi::{ColliderDesc, RayHit, Transform};
use super::{ClipData, PreparedData, WorldData, given, vector};
use crate::clip::parse_config;
use crate::level::{ColliderParts, build_collider, isometry};
use crate::query::FlinchTransform;

/// The C transform of a bridge one.
fn transform(t: &Transform) -> FlinchTransform {
    FlinchTransform {
        position: t.position,
        rotation: t.rotation,
    }
}

/// A velocity argument: empty (`None`) or 3 finite numbers.
fn optional_vector(what: &str, v: &[f64]) -> Result<Option<Vector3<f64>>, String> {
    match v {
        [] => Ok(None),
        v => vector(what, v).map(Some),
    }
}

/// A ray's direction and distance, checked like the C ABI's (`finite`: a sweep's distance).
fn cast_arguments(
    what: &str,
    origin: &[f64],
    direction: &[f64],
    max_distance: f64,
    finite: bool,
) -> Result<(Vector3<f64>, Vector3<f64>), String> {
    let origin = vector(&format!("{what}: origin"), origin)?;
    let direction = vector(&format!("{what}: direction"), direction)?;
    if direction.norm_squared() == 0.0 {
        return Err(format!("{what}: direction is zero"));
    }
    if max_distance.is_nan() || max_distance < 0.0 || (finite && max_distance.is_infinite()) {
        return Err(format!(
            "{what}: max_distance must be {}≥ 0, got {max_distance}",
            if finite { "finite and " } else { "" }
        ));
    }
    Ok((origin, direction))
}

/// The bridge's hit of a scene hit.
fn ray_hit(hit: Option<SceneRayHit>) -> RayHit {
    let Some(h) = hit else {
        return RayHit {
            hit: false,
            character: 0,
            bone: String::new(),
            collider: 0,
            point: [0.0; 3],
            normal: [0.0; 3],
            distance: 0.0,
        };
    };
    let (character, bone, collider) = match h.target {
        RayTarget::Character { key, bone, .. } => (key.to_raw(), bone, 0),
        RayTarget::Collider(key) => (0, String::new(), key.to_raw()),
    };
    RayHit {
        hit: true,
        character,
        bone,
        collider,
        point: h.point.into(),
        normal: h.normal.into(),
        distance: h.distance,
    }
}

impl WorldData {
    pub(super) fn add_collider(
        &mut self,
        desc: &ColliderDesc,
        points: &[f64],
        triangles: &[u32],
    ) -> Result<u64, String> {
        const F: &str = "add_collider";
        // A shared enum crossing from C++ may hold any value of its representation: checked as the C one.
        let shape = i32::try_from(desc.shape.repr).unwrap_or(-1);
        let core = build_collider(
            F,
            ColliderParts {
                shape,
                size: desc.size,
                points,
                triangles,
                rows: desc.rows,
                cols: desc.cols,
                size_x: desc.size_x,
                size_z: desc.size_z,
                pose: transform(&desc.pose),
                friction: desc.friction,
                restitution: desc.restitution,
                layers: desc.layers,
                mask: desc.mask,
                kinematic: desc.kinematic,
                name: desc.name.clone(),
            },
        )
        .map_err(|e| e.message)?;
        self.0
            .add_collider(core)
            .map(ColliderKey::to_raw)
            .map_err(|e| format!("{F}: {e}"))
    }

    pub(super) fn remove_collider(&mut self, key: u64) -> Result<(), String> {
        self.0
            .remove_collider(ColliderKey::from_raw(key))
            .map_err(|e| format!("remove_collider: {e}"))
    }

    pub(super) fn move_collider(
        &mut self,
        key: u64,
        pose: &Transform,
        linear: &[f64],
        angular: &[f64],
    ) -> Result<(), String> {
        const F: &str = "move_collider";
        let pose = isometry(F, "pose", &transform(pose)).map_err(|e| e.message)?;
        let linear = optional_vector("move_collider: linear velocity", linear)?;
        let angular = optional_vector("move_collider: angular velocity", angular)?;
        let velocity = match (linear, angular) {
            (None, None) => None,
            (l, a) => Some((l.unwrap_or_default(), a.unwrap_or_default())),
        };
        self.0
            .move_collider(ColliderKey::from_raw(key), pose, velocity)
            .map_err(|e| format!("{F}: {e}"))
    }

    pub(super) fn load_level(&mut self, path: &str, pose: &Transform) -> Result<Vec<u64>, String> {
        const F: &str = "load_level";
        let pose = isometry(F, "pose", &transform(pose)).map_err(|e| e.message)?;
        let file = load_level_file(Path::new(path), None).map_err(|e| format!("{F}: {e}"))?;
        let keys = self
            .0
            .add_level(&file, &pose)
            .map_err(|e| format!("{F}: {e}"))?;
        Ok(keys.into_iter().map(ColliderKey::to_raw).collect())
    }

    pub(super) fn prepare_on_level(
        &self,
        clip: &ClipData,
        config_json: &str,
    ) -> Result<Box<PreparedData>, String> {
        const F: &str = "prepare_on_level";
        let config = parse_config(F, given(config_json)).map_err(|e| e.message)?;
        let ground = self
            .0
            .level()
            .static_ground()
            .map_err(|e| format!("{F}: {e}"))?;
        PreparedClip::from_imported_on_terrain(clip.0.clone(), &config, Arc::new(ground))
            .map(|p| Box::new(PreparedData(Arc::new(p))))
            .map_err(|e| format!("{F}: {e}"))
    }

    pub(super) fn cast_ray(
        &self,
        origin: &[f64],
        direction: &[f64],
        max_distance: f64,
        mask: u32,
    ) -> Result<RayHit, String> {
        let (origin, direction) =
            cast_arguments("cast_ray", origin, direction, max_distance, false)?;
        Ok(ray_hit(self.0.cast_ray(
            &origin,
            &direction,
            max_distance,
            mask,
        )))
    }

    pub(super) fn cast_sphere(
        &self,
        origin: &[f64],
        radius: f64,
        direction: &[f64],
        max_distance: f64,
        mask: u32,
    ) -> Result<RayHit, String> {
        if !(radius.is_finite() && radius > 0.0) {
            return Err(format!(
                "cast_sphere: radius must be positive and finite, got {radius}"
            ));
        }
        let (origin, direction) =
            cast_arguments("cast_sphere", origin, direction, max_distance, true)?;
        Ok(ray_hit(self.0.cast_sphere(
            &origin,
            radius,
            &direction,
            max_distance,
            mask,
        )))
    }

    pub(super) fn set_level_layers(
        &mut self,
        key: u64,
        layers: u32,
        mask: u32,
    ) -> Result<(), String> {
        self.0
            .character_mut(CharacterKey::from_raw(key))
            .map_err(|_| {
                format!(
                    "set_level_layers: character {key:#x} is not in this world (removed or stale)"
                )
            })?
            .set_level_layers(layers, mask);
        Ok(())
    }
}
