//! The messages the simulation thread publishes: the binary pose frame, and the JSON scene description, status,
//! errors and notes (`docs/view.md`).

use flinch::control::Character;
use flinch::scene::{CharacterKey, Scene};
use flinch::skeleton::Pose;
use flinch::view_protocol::PROTOCOL_VERSION;
use flinch::view_protocol::frame::{
    BodyPose, CharacterFrame, FLAG_PAUSED, FLAG_RECORDING, Frame, FrameHeader,
};
use nalgebra::Isometry3;
use serde_json::json;

use super::super::setup::Setup;
use super::telemetry::Telemetry;

fn pose_of(f: &Isometry3<f64>) -> BodyPose {
    let p = f.translation.vector;
    let q = f.rotation.coords;
    [
        p.x as f32, p.y as f32, p.z as f32, q.x as f32, q.y as f32, q.z as f32, q.w as f32,
    ]
}

/// The simulated and the clip's body frames of a character, and with `skinned` the world transform of every
/// skeleton joint (the simulated bodies at their joints, the merged bones with the clip's local motion).
fn character_frame(c: &Character, skinned: bool) -> CharacterFrame {
    let model = c.model();
    let sim = (0..model.bodies.len())
        .map(|b| pose_of(&c.body_frame(b)))
        .collect();
    let world = c.animation_pose().world_transforms(c.skeleton());
    let ghost = model
        .bodies
        .iter()
        .map(|b| pose_of(&world[b.skeleton_joint]))
        .collect();
    let bones = if skinned {
        c.world_transforms().iter().map(pose_of).collect()
    } else {
        Vec::new()
    };
    CharacterFrame { sim, ghost, bones }
}

/// The pose frame of the scene now; `skinned[i]`: character `i` is drawn with a skin (its bones are sent).
pub fn frame(
    scene: &Scene,
    keys: &[CharacterKey],
    skinned: &[bool],
    version: u32,
    click_hits: u32,
    paused: bool,
    recording: bool,
) -> Frame {
    Frame {
        header: FrameHeader {
            scene_version: version,
            time: scene.time(),
            click_hits,
            flags: if paused { FLAG_PAUSED } else { 0 }
                | if recording { FLAG_RECORDING } else { 0 },
        },
        characters: keys
            .iter()
            .enumerate()
            .filter_map(|(i, k)| {
                let c = scene.character(*k).ok()?;
                Some(character_frame(c, skinned.get(i).copied().unwrap_or(false)))
            })
            .collect(),
        balls: scene
            .balls()
            .map(|(_, b)| {
                [
                    b.position.x as f32,
                    b.position.y as f32,
                    b.position.z as f32,
                    b.radius as f32,
                ]
            })
            .collect(),
    }
}

/// The floor height: the fitted floor of a character with feet, else its lowest capsule point now.
fn floor_of(c: &Character) -> f64 {
    if let Ok(g) = c.prepared().ground() {
        return g.floor;
    }
    let model = c.model();
    let mut low = f64::INFINITY;
    for (b, body) in model.bodies.iter().enumerate() {
        let f = c.body_frame(b);
        for cap in &body.capsules {
            for p in [cap.a, cap.b] {
                low = low.min((f * p).y - cap.radius);
            }
        }
    }
    if low.is_finite() { low } else { 0.0 }
}

/// A skinned character's `skin`: its rig, the glTF node of each skeleton joint and the joints' rest world
/// transforms (the page maps the rig's bind of each node onto the joint's frame with them).
fn skin_of(setup: &Setup, clip: usize, c: &Character) -> serde_json::Value {
    let Some(skin) = setup.clips.get(clip).and_then(|s| s.skin.as_ref()) else {
        return serde_json::Value::Null;
    };
    let rest: Vec<BodyPose> = Pose::rest(c.skeleton())
        .world_transforms(c.skeleton())
        .iter()
        .map(pose_of)
        .collect();
    json!({"rig": skin.rig, "nodes": skin.nodes, "rest": rest})
}

/// The `scene` message: the protocol version, the clips, the rigs with a skin, every character's bodies (names,
/// parents, capsules in the body frame) and skin, the floor height and the level's triangles. `clips[i]`:
/// character `i`'s clip.
pub fn scene(
    setup: &Setup,
    scene: &Scene,
    keys: &[CharacterKey],
    clips: &[usize],
    version: u32,
) -> String {
    let characters: Vec<_> = keys
        .iter()
        .zip(clips)
        .filter_map(|(k, &clip)| Some((scene.character(*k).ok()?, clip)))
        .map(|(c, clip)| {
            let bodies: Vec<_> = c
                .model()
                .bodies
                .iter()
                .map(|b| {
                    let capsules: Vec<_> = b
                        .capsules
                        .iter()
                        .map(|cap| [cap.a.x, cap.a.y, cap.a.z, cap.b.x, cap.b.y, cap.b.z, cap.radius])
                        .collect();
                    json!({"name": b.name, "parent": b.parent, "capsules": capsules, "collides": b.collides})
                })
                .collect();
            json!({
                "bodies": bodies,
                "policy": c.root_policy(),
                "assist": c.assist_weight(),
                "duration": c.reference().duration(),
                "has_ground": c.prepared().ground().is_ok(),
                "clip": clip,
                "skin": skin_of(setup, clip, c),
            })
        })
        .collect();
    let floor = keys
        .first()
        .and_then(|k| scene.character(*k).ok())
        .map_or(0.0, floor_of);
    let rigs: Vec<_> = setup
        .rigs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "url": format!("rig/{i}.glb"),
                "name": r.path.file_name().map(|n| n.to_string_lossy().into_owned()),
                "metres_per_unit": r.metres_per_unit,
                "z_up": r.z_up,
            })
        })
        .collect();
    json!({
        "type": "scene",
        "protocol": PROTOCOL_VERSION,
        "version": version,
        "rigs": rigs,
        "rate_hz": keys.first().and_then(|k| scene.character(*k).ok()).map_or(120.0, |c| 1.0 / c.step_size()),
        "clips": setup.clips.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
        "characters": characters,
        "floor": floor,
        "level": setup.level_mesh,
    })
    .to_string()
}

/// The `status` message: clock, recording, the scrub range and the plotted chain.
pub fn status(
    paused: bool,
    scale: f64,
    recording: bool,
    history: (f64, f64),
    telemetry: &Telemetry,
    scene: &Scene,
    keys: &[CharacterKey],
) -> String {
    let policies: Vec<_> = keys
        .iter()
        .filter_map(|k| scene.character(*k).ok())
        .map(|c| json!({"policy": c.root_policy(), "assist": c.assist_weight(), "state": c.root_state().name()}))
        .collect();
    json!({
        "type": "status",
        "paused": paused,
        "time_scale": scale,
        "time": scene.time(),
        "recording": recording,
        "history": [history.0, history.1],
        "focus": telemetry.focus,
        "chain": telemetry.chain_names,
        "chain_version": telemetry.chain_version,
        "characters": policies,
    })
    .to_string()
}

/// An `error` message.
pub fn error(message: &str) -> String {
    json!({"type": "error", "message": message}).to_string()
}

/// An `info` message.
pub fn info(message: &str) -> String {
    json!({"type": "info", "message": message}).to_string()
}
