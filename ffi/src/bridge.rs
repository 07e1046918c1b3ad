//! The cxx bridge behind `include/flinch/flinch.hpp`: opaque Rust objects (a loaded clip, a world) with methods
//! whose errors become `rust::Error` exceptions in C++. The generated header and glue are copied to
//! `include/flinch/src/bridge.rs.{h,cc}` (checked by `tests/cxx_headers.rs`).

use flinch_core::io::{Format, ImportOptions, Imported, load_bytes, load_file};
use nalgebra::Vector3;

use std::sync::Arc;

use crate::clip::parse_config;
use flinch_core::control::PreparedClip;
use flinch_core::scene::Scene;

#[cxx::bridge(namespace = "flinch::detail")]
mod ffi {
    /// A rigid transform: position (m) and rotation quaternion x, y, z, w.
    #[derive(Debug, Clone, Copy, PartialEq)]
    struct Transform {
        /// Translation x, y, z (m).
        position: [f64; 3],
        /// Rotation quaternion x, y, z, w.
        rotation: [f64; 4],
    }

    /// A hit of the last step: a ball's touch, a kinematic collider's push or a scripted impulse.
    #[derive(Debug, Clone, PartialEq)]
    struct HitEvent {
        /// Time of the hit (s).
        time: f64,
        /// Key of the character hit.
        character: u64,
        /// Skeleton joint name of the bone hit.
        bone: String,
        /// Contact point (m, world).
        point: [f64; 3],
        /// Contact normal (unit, world).
        normal: [f64; 3],
        /// Impulse given to the character (N·s, world).
        impulse: [f64; 3],
        /// Key of the ball (0: not a ball).
        ball: u64,
        /// Key of the kinematic collider that pushed (0: not a collider).
        collider: u64,
    }

    /// A collider's shape (see `FlinchColliderShape` in flinch.h).
    #[derive(Debug)]
    #[repr(u32)]
    enum ColliderShape {
        /// The solid half-space below a plane through the collider origin (`size`: its outward normal).
        Plane = 0,
        /// A box (`size`: half extents, m).
        Box = 1,
        /// A ball (`size[0]`: radius, m).
        Sphere = 2,
        /// A capsule along local Y (`size[0]`: half height, `size[1]`: radius, m).
        Capsule = 3,
        /// The convex hull of `points` (xyz triples).
        ConvexHull = 4,
        /// A triangle mesh: `points` (xyz vertex triples), `triangles` (index triples).
        TriangleMesh = 5,
        /// A height grid: `points` holds `rows × cols` heights (rows along z), `size_x` × `size_z` metres.
        HeightField = 6,
    }

    /// A collider to add (the arrays of its shape are passed beside it).
    #[derive(Debug, Clone)]
    struct ColliderDesc {
        /// The shape.
        shape: ColliderShape,
        /// The plane's normal, the box's half extents, the sphere's radius (`[0]`), the capsule's half height and
        /// radius (`[0]`, `[1]`).
        size: [f64; 3],
        /// A height field's rows (along z).
        rows: usize,
        /// A height field's columns (along x).
        cols: usize,
        /// A height field's extent along x (m).
        size_x: f64,
        /// A height field's extent along z (m).
        size_z: f64,
        /// The collider frame in the world (rotation normalized; nonzero).
        pose: Transform,
        /// Coulomb friction; negative: each character's own.
        friction: f64,
        /// Newton restitution in [0, 1].
        restitution: f64,
        /// Membership bits.
        layers: u32,
        /// The character layers it touches.
        mask: u32,
        /// Moved by the game (`move_collider`) instead of static.
        kinematic: bool,
        /// A name for messages.
        name: String,
    }

    /// The first hit of a ray or sphere sweep.
    #[derive(Debug, Clone, PartialEq)]
    struct RayHit {
        /// Whether anything was hit (else the other fields are zero and empty).
        hit: bool,
        /// Key of the character hit (0: not a character).
        character: u64,
        /// Skeleton joint name of the body hit (empty: not a character).
        bone: String,
        /// Key of the collider hit (0: not a collider).
        collider: u64,
        /// The point on the hit surface (m, world).
        point: [f64; 3],
        /// The surface normal there (unit, facing the ray).
        normal: [f64; 3],
        /// Distance along the ray (m), or the sphere centre's travel for a sweep.
        distance: f64,
    }

    /// How a character's root moves (see `FlinchRootPolicy` in flinch.h).
    #[derive(Debug)]
    #[repr(u32)]
    enum RootPolicy {
        /// The root follows the clip exactly (the default).
        Kinematic = 0,
        /// A free root standing on its feet, without assist: falls when it loses its balance.
        Free = 1,
        /// A free root with an assist toward the clip's root pose.
        Assisted = 2,
        /// A free root balanced by its joints and feet alone: no external wrench while tracking (experimental).
        Balanced = 3,
    }

    /// A free-root character's balance state (see `FlinchRootState` in flinch.h).
    #[derive(Debug)]
    #[repr(u32)]
    enum RootState {
        /// On its clip.
        Tracking = 0,
        /// Hit above the threshold: the assist fades out.
        Staggering = 1,
        /// Balance lost: the gains drop.
        Falling = 2,
        /// Limp.
        Ragdoll = 3,
        /// Still for the rest time.
        Resting = 4,
        /// Blending back into the clip.
        GettingUp = 5,
    }

    /// A balance state transition of a character.
    #[derive(Debug, Clone, Copy, PartialEq)]
    struct RootEvent {
        /// World time of the transition (s).
        time: f64,
        /// The state left.
        from: RootState,
        /// The state entered.
        to: RootState,
    }

    /// A phase of a protective fall (see `FlinchFallPhase` in flinch.h).
    #[derive(Debug)]
    #[repr(u32)]
    enum FallPhase {
        /// The fall began: the arms reach toward the predicted ground contact, the head is held up.
        Reach = 0,
        /// A body other than the legs touched the ground: the arms brace.
        Impact = 1,
        /// The fall is over: limp.
        Limp = 2,
    }

    /// A protective fall's phase change of a character.
    #[derive(Debug, Clone, Copy, PartialEq)]
    struct FallEvent {
        /// World time (s): the end of the step that began the phase.
        time: f64,
        /// The phase entered.
        phase: FallPhase,
        /// Reach: the predicted ground contact; Impact: the touching body's lowest point; Limp: the root (m).
        point: [f64; 3],
        /// Impact: the skeleton joint of the body that touched; `usize::MAX` for the other phases.
        joint: usize,
    }

    /// What `bake_file` did (see `FlinchBakeSummary` in flinch.h).
    #[derive(Debug, Clone, PartialEq)]
    struct BakeSummary {
        /// Frames of the baked clip.
        frames: usize,
        /// Simulation steps run.
        steps: usize,
        /// Seconds of motion simulated.
        duration_s: f64,
        /// Hit events: ball contacts and scripted impulses.
        events: usize,
        /// Whether the bake had hits (the peak, return and energy fields are meaningful).
        has_hit: bool,
        /// Largest joint deviation from the reference after the first hit (degrees); 0 without hits.
        peak_deg: f64,
        /// When the peak happened (s); negative without hits.
        peak_time_s: f64,
        /// Skeleton joint of the peak; empty without hits.
        peak_joint: String,
        /// Time from the first hit until every joint stays within 2° of the reference (s); negative without hits
        /// or when it never does before the clip ends.
        return_s: f64,
        /// Work done by the hit forces (J); 0 without hits.
        energy_j: f64,
        /// RMS joint-angle tracking error before the first hit (degrees).
        track_rms_deg: f64,
        /// Largest joint anchor separation over the run (mm).
        max_joint_gap_mm: f64,
    }

    extern "Rust" {
        /// A loaded clip (skeleton + motion).
        type ClipData;
        /// A world of characters and balls.
        type WorldData;
        /// A clip prepared for simulation (the shared half of characters).
        type PreparedData;

        /// The library version, `MAJOR.MINOR.PATCH`.
        fn version() -> &'static str;
        /// Bakes `input` (empty: the embedded walk) with the hits JSON text `hits_json` (empty: none) into
        /// `output` (format by extension), `config_json` (empty: defaults) at `rate_hz` (≤ 0: 120).
        fn bake_file(
            input: &str,
            output: &str,
            hits_json: &str,
            config_json: &str,
            rate_hz: f64,
        ) -> Result<BakeSummary>;
        /// Retargets `input` (empty: the embedded walk) onto `character` (`map_file`: empty or a bone map
        /// override file) and bakes it like `bake_file`: `flinch bake --onto`.
        fn bake_onto(
            character: &str,
            input: &str,
            map_file: &str,
            output: &str,
            hits_json: &str,
            config_json: &str,
            rate_hz: f64,
        ) -> Result<BakeSummary>;
        /// Loads a clip file (format from the extension).
        fn load_clip_file(path: &str) -> Result<Box<ClipData>>;
        /// Loads a clip from memory; `format` is `bvh`, `gltf`, `glb` or `urdf`; `name` is used in messages.
        fn load_clip_memory(bytes: &[u8], format: &str, name: &str) -> Result<Box<ClipData>>;
        /// Number of skeleton joints.
        fn joint_count(self: &ClipData) -> usize;
        /// Duration (s).
        fn duration(self: &ClipData) -> f64;
        /// Number of frames (a detected leading T-pose frame excluded).
        fn frame_count(self: &ClipData) -> usize;
        /// Seconds between frames.
        fn frame_time(self: &ClipData) -> f64;
        /// Frame `index` per joint: local rotation relative to rest and local translation.
        fn frame(self: &ClipData, index: usize) -> Result<Vec<Transform>>;
        /// The clip made `seconds` long: a detected leading T-pose frame dropped, then its best loop repeated
        /// without a seam, each repetition moved on by the distance the loop travels.
        fn looped(self: &ClipData, seconds: f64) -> Result<Box<ClipData>>;

        /// Prepares `clip` once (`config_json` empty: defaults): body model, preprocessing, gains.
        fn prepare_clip(clip: &ClipData, config_json: &str) -> Result<Box<PreparedData>>;
        /// Duration (s) of the prepared reference motion.
        fn duration(self: &PreparedData) -> f64;
        /// The simulation step (s) the clip was prepared for.
        fn step_size(self: &PreparedData) -> f64;
        /// A copy sharing the same prepared tables (another owner, not another preparation).
        fn share(self: &PreparedData) -> Box<PreparedData>;
        /// The reference pose of the root body at clip time `time` (s, clamped to the clip): its centre of
        /// mass (m) and orientation; where the clip walks.
        fn root_target(self: &PreparedData, time: f64) -> Result<Transform>;
        /// The floor height (m) fitted to the clip's stance feet; an error for a clip without feet.
        fn floor(self: &PreparedData) -> Result<f64>;

        /// An empty world.
        fn new_world() -> Box<WorldData>;
        /// Builds the character of `clip` (`config_json` empty: defaults) and adds it; returns its key.
        fn add_character(self: &mut WorldData, clip: &ClipData, config_json: &str) -> Result<u64>;
        /// Whether bodies of different characters collide (default true).
        fn set_character_contacts(self: &mut WorldData, enabled: bool);
        /// Adds a character of a prepared clip (sharing its tables); returns its key.
        fn add_prepared(self: &mut WorldData, prepared: &PreparedData) -> u64;
        /// Builds a character driven by streamed targets on `clip`'s skeleton (at rest in its first frame) and
        /// adds it; returns its key.
        fn add_streamed_character(
            self: &mut WorldData,
            clip: &ClipData,
            config_json: &str,
        ) -> Result<u64>;
        /// Sets a character's target pose for the end of the next step (per joint: local rotation relative to
        /// rest and local translation); `velocities` is empty or 6 numbers per joint (linear x y z (root only),
        /// angular x y z).
        fn set_target_pose(
            self: &mut WorldData,
            key: u64,
            pose: &[Transform],
            velocities: &[f64],
        ) -> Result<()>;
        /// Removes a character.
        fn remove_character(self: &mut WorldData, key: u64) -> Result<()>;
        /// Advances the world by `dt` seconds.
        fn step(self: &mut WorldData, dt: f64) -> Result<()>;
        /// Simulation time (s).
        fn time(self: &WorldData) -> f64;
        /// Impulse (N·s, world) on the body of `bone` at `point` (3 values, m, world; empty: the centre of mass).
        fn apply_impulse(
            self: &mut WorldData,
            key: u64,
            bone: &str,
            point: &[f64],
            impulse: &[f64],
        ) -> Result<()>;
        /// Skeleton joint names of a character.
        fn joint_names(self: &WorldData, key: u64) -> Result<Vec<String>>;
        /// Per skeleton joint: deviation from the reference (radians; merged bones 0).
        fn joint_deviations(self: &WorldData, key: u64) -> Result<Vec<f64>>;
        /// Per skeleton joint: world transform.
        fn world_transforms(self: &WorldData, key: u64) -> Result<Vec<Transform>>;
        /// Per skeleton joint: local rotation relative to rest and local translation.
        fn local_pose(self: &WorldData, key: u64) -> Result<Vec<Transform>>;
        /// Spawns a ball; returns its key.
        fn spawn_ball(
            self: &mut WorldData,
            radius: f64,
            mass: f64,
            position: &[f64],
            velocity: &[f64],
        ) -> Result<u64>;
        /// The hit events of the last step.
        fn events(self: &WorldData) -> Vec<HitEvent>;

        /// Switches a character's root policy (a clip without feet cannot go free).
        fn set_root_policy(self: &mut WorldData, key: u64, policy: RootPolicy) -> Result<()>;
        /// A character's root policy.
        fn root_policy(self: &WorldData, key: u64) -> Result<RootPolicy>;
        /// Sets the assist weight of a character's free root (finite, in [0, 1]).
        fn set_assist_weight(self: &mut WorldData, key: u64, weight: f64) -> Result<()>;
        /// A character's balance state (`Tracking` for a kinematic root).
        fn root_state(self: &WorldData, key: u64) -> Result<RootState>;
        /// A character's balance state transitions since its root was made free, oldest first.
        fn root_events(self: &WorldData, key: u64) -> Result<Vec<RootEvent>>;
        /// A character's protective-fall phase changes, oldest first (none for a kinematic root).
        fn fall_events(self: &WorldData, key: u64) -> Result<Vec<FallEvent>>;
        /// The floor height (m) of a character's free root (an error for a kinematic root).
        fn ground_floor(self: &WorldData, key: u64) -> Result<f64>;
        /// The deepest body point below the floor after the last step (m; 0 for a kinematic root).
        fn ground_penetration(self: &WorldData, key: u64) -> Result<f64>;
        /// The clip time (s) a character plays now.
        fn clip_time(self: &WorldData, key: u64) -> Result<f64>;

        /// Adds a collider (`points`: hull points or mesh vertices as xyz triples, or a height field's heights;
        /// `triangles`: a mesh's index triples); returns its key.
        fn add_collider(
            self: &mut WorldData,
            desc: &ColliderDesc,
            points: &[f64],
            triangles: &[u32],
        ) -> Result<u64>;
        /// Removes a collider (a stale key is an error).
        fn remove_collider(self: &mut WorldData, key: u64) -> Result<()>;
        /// Moves a kinematic collider to `pose` by the end of the next step; `linear` and `angular` are empty
        /// (the velocity of the motion) or 3 numbers each (m/s, rad/s; world).
        fn move_collider(
            self: &mut WorldData,
            key: u64,
            pose: &Transform,
            linear: &[f64],
            angular: &[f64],
        ) -> Result<()>;
        /// Loads a level file (glTF/GLB) posed by `pose`; returns its colliders' keys in file order.
        fn load_level(self: &mut WorldData, path: &str, pose: &Transform) -> Result<Vec<u64>>;
        /// Prepares a flat-ground clip to be walked over this world's level as it is now (its static
        /// colliders: feet raised onto the ground, root and legs adapted); an error without a static collider.
        fn prepare_on_level(
            self: &WorldData,
            clip: &ClipData,
            config_json: &str,
        ) -> Result<Box<PreparedData>>;
        /// The first character body or collider (its layers meeting `mask`) a ray meets within `max_distance`.
        fn cast_ray(
            self: &WorldData,
            origin: &[f64],
            direction: &[f64],
            max_distance: f64,
            mask: u32,
        ) -> Result<RayHit>;
        /// The first character body or collider a sphere of `radius` sweeping along `direction` touches.
        fn cast_sphere(
            self: &WorldData,
            origin: &[f64],
            radius: f64,
            direction: &[f64],
            max_distance: f64,
            mask: u32,
        ) -> Result<RayHit>;
        /// Sets a character's collision layers and mask against the level.
        fn set_level_layers(self: &mut WorldData, key: u64, layers: u32, mask: u32) -> Result<()>;
    }
}

use bake::{bake_file, bake_onto};
use ffi::Transform;

/// A loaded clip.
pub struct ClipData(Imported);

/// A world.
pub struct WorldData(Scene);

/// A prepared clip, shared by the characters made from it.
pub struct PreparedData(Arc<PreparedClip>);

fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// `Some(text)` unless `text` is empty or blank.
fn given(text: &str) -> Option<&str> {
    Some(text).filter(|s| !s.trim().is_empty())
}

fn load_clip_file(path: &str) -> Result<Box<ClipData>, String> {
    load_file(std::path::Path::new(path), &ImportOptions::default())
        .map(|i| Box::new(ClipData(i)))
        .map_err(|e| e.to_string())
}

fn load_clip_memory(bytes: &[u8], format: &str, name: &str) -> Result<Box<ClipData>, String> {
    let format = Format::from_name(format).ok_or_else(|| {
        format!("{name}: unknown format `{format}` (expected bvh, gltf, glb or urdf)")
    })?;
    load_bytes(bytes, format, name, None, &ImportOptions::default())
        .map(|i| Box::new(ClipData(i)))
        .map_err(|e| e.to_string())
}

fn prepare_clip(clip: &ClipData, config_json: &str) -> Result<Box<PreparedData>, String> {
    let config = parse_config("prepare_clip", given(config_json)).map_err(|e| e.message)?;
    PreparedClip::from_imported(clip.0.clone(), &config)
        .map(|p| Box::new(PreparedData(Arc::new(p))))
        .map_err(|e| format!("prepare_clip: {e}"))
}

impl PreparedData {
    fn duration(&self) -> f64 {
        self.0.reference().duration()
    }

    fn step_size(&self) -> f64 {
        self.0.step_size()
    }

    fn share(&self) -> Box<PreparedData> {
        Box::new(PreparedData(Arc::clone(&self.0)))
    }

    fn root_target(&self, time: f64) -> Result<Transform, String> {
        if !time.is_finite() {
            return Err(format!("root_target: `time` must be finite, got {time}"));
        }
        let (position, rotation) = self.0.root_target(time);
        Ok(Transform {
            position: position.into(),
            rotation: rotation.coords.into(),
        })
    }

    fn floor(&self) -> Result<f64, String> {
        self.0
            .ground()
            .map(|g| g.floor)
            .map_err(|e| format!("floor: {e}"))
    }
}

fn new_world() -> Box<WorldData> {
    Box::new(WorldData(Scene::new()))
}

/// A finite 3-vector from a slice of 3.
fn vector(what: &str, v: &[f64]) -> Result<Vector3<f64>, String> {
    match v {
        [x, y, z] if v.iter().all(|c| c.is_finite()) => Ok(Vector3::new(*x, *y, *z)),
        _ => Err(format!("{what} must be 3 finite numbers, got {v:?}")),
    }
}

impl ClipData {
    fn joint_count(&self) -> usize {
        self.0.skeleton.len()
    }

    fn duration(&self) -> f64 {
        self.0.clip.duration()
    }

    fn frame_count(&self) -> usize {
        self.0.animation_frames().len()
    }

    fn frame_time(&self) -> f64 {
        self.0.clip.frame_time
    }

    fn looped(&self, seconds: f64) -> Result<Box<ClipData>, String> {
        self.0
            .looped(seconds, &flinch_core::io::Limits::DEFAULT)
            .map(|i| Box::new(ClipData(i)))
            .map_err(|e| format!("looped: {e}"))
    }

    fn frame(&self, index: usize) -> Result<Vec<Transform>, String> {
        let frames = self.0.animation_frames();
        let pose = frames.get(index).ok_or_else(|| {
            format!(
                "frame: index {index} out of range (the clip has {})",
                frames.len()
            )
        })?;
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
}

mod bake;
mod level;
mod root;
mod world;
