//! Issue 38's runs in the sample level: a knock-down beside its wall, on its stairs and at its ledge, a
//! kinematic bat swung through a walking character's head, and the flat-ground walk over the stairs and the
//! ramp. Shared by `examples/knockdown_world.rs`, `examples/bat_swing.rs`, `examples/world_walk.rs`, the tests
//! and `flinch demo`.

use std::sync::Arc;

use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

use super::{KnockdownFigures, KnockdownHit, Scene, SceneError, run_knockdown_in};
use crate::control::{Character, CharacterConfig, FreeRootFigures, RETURN_BAND_DEG};
use crate::io::Imported;
use crate::level::sample::Spot;
use crate::level::{ColliderDesc, ColliderKey, Level, LevelFile, LevelShape};

/// The horizontal direction the clip's root travels at `time` (unit; +Z when it stands still).
pub fn walk_direction(c: &Character, time: f64) -> Vector3<f64> {
    let r = c.reference();
    let k = ((time / r.h).round() as usize).min(r.steps - 1);
    Vector3::new(r.root_vel[k].x, 0.0, r.root_vel[k].z)
        .try_normalize(1e-6)
        .unwrap_or_else(Vector3::z)
}

/// The pose of a level (in the scene) that puts `spot` under the character's clip root at `time`, on the
/// character's fitted floor, with the spot's facing along the walk (its feature behind the walker).
pub fn spot_pose(c: &Character, spot: &Spot, time: f64) -> Isometry3<f64> {
    let forward = walk_direction(c, time);
    let rotation = UnitQuaternion::face_towards(&forward, &Vector3::y())
        * UnitQuaternion::face_towards(&spot.facing, &Vector3::y()).inverse();
    let root = c.root_target(time).0;
    let floor = c.ground().map_or(0.0, |g| g.floor);
    Translation3::new(root.x, floor, root.z) * rotation * Translation3::from(-spot.position.coords)
}

/// A level of `file`'s colliders posed by `pose`.
pub fn posed_level(file: &LevelFile, pose: &Isometry3<f64>) -> Result<Level, SceneError> {
    let mut level = Level::new();
    for d in &file.colliders {
        let mut d = d.clone();
        d.pose = pose * d.pose;
        level.add(d)?;
    }
    Ok(level)
}

/// Where the walks over uneven ground start in the sample level (the clip's root there at t = 0, walking along
/// `facing`), and how long they last (s; 0 or less: the clip's own length), the CMU walk looped without a seam
/// ([`crate::skeleton::Clip::looped`]) to 5.6 s: `stairs_walk` 0.6 m before the stairs' first step (x = 1.9,
/// walking −x), up four 15 cm steps, over the 4 m landing and down the four on its far side; `slope_walk` 0.6 m
/// before the 10° ramp's foot (z = −4, walking +z), up its 3 m, over its 2 m top and down.
pub const TERRAIN_WALKS: [(Spot, f64); 2] = [
    (
        Spot {
            name: "stairs_walk",
            position: Point3::new(2.5, 0.0, 0.0),
            facing: Vector3::new(-1.0, 0.0, 0.0),
        },
        5.6,
    ),
    (
        Spot {
            name: "slope_walk",
            position: Point3::new(5.0, 0.0, -4.6),
            facing: Vector3::new(0.0, 0.0, 1.0),
        },
        5.6,
    ),
];

/// A walk over uneven ground beside the same clip on the flat floor.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainWalk {
    /// The clip adapted to the level's ground ([`crate::control::PreparedClip::on_terrain`]), walked on it.
    pub on_terrain: FreeRootFigures,
    /// The same clip on its fitted flat floor (no level).
    pub flat: FreeRootFigures,
}

/// Walks `imported`'s clip (without its leading T-pose, looped to `seconds` when that is longer) from `start`
/// over `file`'s level, and on the flat floor, both with `config`.
pub fn terrain_walk(
    file: &LevelFile,
    start: &Spot,
    config: &CharacterConfig,
    imported: &Imported,
    seconds: f64,
) -> Result<TerrainWalk, SceneError> {
    let mut imported = imported.clone();
    imported.drop_leading_tpose();
    if seconds > imported.clip.duration() {
        imported.clip = imported.clip.looped(seconds);
    }
    let mut flat = Character::from_imported(imported.clone(), config)?;
    let level = posed_level(file, &spot_pose(&flat, start, 0.0))?;
    let duration = flat.reference().duration();
    let flat_figures = flat.run_free_root(duration, |_| Ok(()))?;
    let mut on = Character::from_imported_on_terrain(imported, config, Arc::new(level.clone()))?;
    let on_terrain = on.run_free_root_in(duration, Some(&level), |_| Ok(()))?;
    Ok(TerrainWalk {
        on_terrain,
        flat: flat_figures,
    })
}

/// The time of the world knock-downs' hit (s): early in the walk, so the walker started 0.47 m from the feature
/// behind it ([`crate::level::sample::SPOTS`]).
pub const WORLD_HIT_TIME: f64 = 0.25;

/// The knock-down at a spot of a level: `hit` (its direction `None`: from the front) arriving when the clip's root
/// passes the spot, so the character falls back into the wall, down the stairs or off the ledge behind it.
/// Returns the figures and the level's pose.
pub fn knockdown_at(
    character: Character,
    file: &LevelFile,
    spot: &Spot,
    hit: &KnockdownHit,
    duration: f64,
    frame: impl FnMut(&Character),
) -> Result<(KnockdownFigures, Isometry3<f64>), SceneError> {
    let pose = spot_pose(&character, spot, hit.time);
    let level = posed_level(file, &pose)?;
    let f = run_knockdown_in(character, hit, duration, level, frame)?;
    Ok((f, pose))
}

/// How far the bat swings past the head before it is taken away (rad).
const FOLLOW_THROUGH_RAD: f64 = 0.25;

/// What a bat swing measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatFigures {
    /// Hit events of the bat (the collider's pushes), in order.
    pub hits: usize,
    /// The first hit: bone, point (world), impulse (N·s, world).
    pub first: Option<(String, Vector3<f64>, Vector3<f64>)>,
    /// The bat's total impulse on the character (N·s).
    pub impulse_ns: f64,
    /// Peak joint deviation from the clip after the first touch (degrees).
    pub hit_peak_deg: f64,
    /// Time from the first touch until every joint is back within 2° of the clip (s), if it came back.
    pub hit_return_s: Option<f64>,
    /// Whether a free root fell (entered `Falling`).
    pub fell: bool,
}

/// A bat: a capsule (0.45 m half length, 3.5 cm radius) swung horizontally about a vertical axis through a pivot
/// beside the walker, its point 0.2 m from the tip passing through the head's centre at `time` at `speed` (m/s).
/// The swing starts a quarter turn before and ends 0.25 rad after (the follow-through, ≈ 0.2 m past the head),
/// then the bat is parked 100 m away. Runs `duration` seconds and measures [`BatFigures`].
pub fn bat_swing(
    character: Character,
    speed: f64,
    time: f64,
    duration: f64,
    mut frame: impl FnMut(&Character, &Isometry3<f64>),
) -> Result<BatFigures, SceneError> {
    let h = character.step_size();
    let head = character
        .model()
        .bodies
        .iter()
        .position(|b| b.name.to_ascii_lowercase().contains("head"))
        .ok_or_else(|| SceneError::Argument("the character has no head bone".into()))?;
    // Where the head will be at the hit: the clip's, from its reference pose.
    let forward = walk_direction(&character, time);
    let side = Vector3::y().cross(&forward);
    let r = character.reference();
    let k = ((time / r.h).round() as usize).min(r.steps - 1);
    let mut poses = Vec::new();
    r.poses(k, &mut poses);
    let head_at = poses[head].com;
    // The bat spans 0.35–1.25 m from the pivot; the head is 1.05 m from it (0.2 m from the tip), so the swing's
    // angular speed is speed / 1.05.
    let (reach, middle) = (1.05, 0.8);
    let pivot = head_at + side * reach;
    let omega = speed / reach;
    let angle_at = |t: f64| (t - time) * omega;
    let pose_at = |t: f64| -> Isometry3<f64> {
        let a = angle_at(t);
        if a > FOLLOW_THROUGH_RAD {
            return Isometry3::translation(pivot.x, pivot.y + 100.0, pivot.z);
        }
        let a = a.max(-std::f64::consts::FRAC_PI_2);
        let spin = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), a);
        // The bat lies along `-side` from the pivot (its axis horizontal through the head at a = 0).
        let dir = spin * (-side);
        let centre = pivot + dir * middle;
        let lying = UnitQuaternion::rotation_between(&Vector3::y(), &dir)
            .unwrap_or_else(UnitQuaternion::identity);
        Isometry3::from_parts(Translation3::from(centre), lying)
    };
    let mut scene = Scene::new();
    let bat: ColliderKey = scene.add_collider(
        ColliderDesc::new(
            LevelShape::Capsule {
                half_height: 0.45,
                radius: 0.035,
            },
            pose_at(time - 1.0),
        )
        .kinematic()
        .named("bat"),
    )?;
    let key = scene.add_character(character);
    let mut figures = BatFigures::default();
    let mut first_touch: Option<f64> = None;
    let steps = (duration / h).round() as usize;
    for _ in 0..steps {
        let t1 = scene.time() + h;
        scene.move_collider(bat, pose_at(t1), None)?;
        scene.step(h)?;
        let c = scene.character(key)?;
        for e in scene
            .events()
            .iter()
            .filter(|e| e.collider == Some(bat) && e.impulse.norm() > 1e-6)
        {
            figures.hits += 1;
            figures.impulse_ns += e.impulse.norm();
            if figures.first.is_none() {
                figures.first = Some((e.bone.clone(), e.point, e.impulse));
                first_touch = Some(e.time);
            }
        }
        if let Some(t0) = first_touch {
            let worst = (1..c.model().bodies.len())
                .map(|b| c.joint_deviation(b).to_degrees())
                .fold(0.0, f64::max);
            figures.hit_peak_deg = figures.hit_peak_deg.max(worst);
            if figures.hit_return_s.is_none() && c.time() > t0 + 0.05 && worst < RETURN_BAND_DEG {
                figures.hit_return_s = Some(c.time() - t0);
            }
        }
        frame(c, &scene.level().pose(bat)?);
    }
    let c = scene.character(key)?;
    figures.fell = c
        .root_events()
        .iter()
        .any(|e| e.to == crate::control::RootState::Falling);
    Ok(figures)
}
