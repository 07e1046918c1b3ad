// flinch C++ API: RAII, move-only wrappers over the cxx bridge (include/flinch/src/bridge.rs.h). Errors are thrown
// as rust::Error (a std::exception whose what() says what was wrong and where).
//
// Static link:  c++ -std=c++17 app.cpp -Iinclude path/to/libflinch.a -lpthread -ldl -lm
// Shared link:  c++ -std=c++17 app.cpp include/flinch/src/bridge.rs.cc include/rust/cxx.cc -Iinclude -Lpath/to -lflinch
// (the bridge glue and cxx runtime are hidden inside libflinch.so, so a shared build compiles its own copies;
// docs/ffi.md).
//
// Threads: a World is used by one thread at a time; different worlds are independent.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "flinch/src/bridge.rs.h"
#include "rust/cxx.h"

namespace flinch {

/// A rigid transform: position (m) and rotation quaternion x, y, z, w.
using Transform = detail::Transform;
/// A hit of the last World::step: time, character, bone, point, normal, impulse, ball (0: not a ball), collider (the
/// kinematic collider that pushed, e.g. a swung bat; 0: not a collider).
using HitEvent = detail::HitEvent;
/// A collider's shape: ColliderShape::Plane, Box, Sphere, Capsule, ConvexHull, TriangleMesh, HeightField (the values
/// of FlinchColliderShape in flinch.h).
using ColliderShape = detail::ColliderShape;
/// The first hit of World::cast_ray or World::cast_sphere: hit (false: nothing, the rest zero), character and bone
/// (a body; 0 and empty otherwise), collider (0: not a collider), point, normal (m, world), distance (m).
using RayHit = detail::RayHit;
/// How a character's root moves: RootPolicy::Kinematic (the default: on its clip), Free (stands on its feet, no
/// assist), Assisted (free, with an assist toward the clip's root pose).
using RootPolicy = detail::RootPolicy;
/// A free-root character's balance state: Tracking, Staggering, Falling, Ragdoll, Resting, GettingUp (the values of
/// FlinchRootState in flinch.h).
using RootState = detail::RootState;
/// A balance state transition: time (s), from, to (RootState).
using RootEvent = detail::RootEvent;
/// A phase of a protective fall: Reach, Impact, Limp (the values of FlinchFallPhase in flinch.h).
using FallPhase = detail::FallPhase;
/// A protective fall's phase change: time (s), phase, point (m), joint (Impact: the skeleton joint that touched;
/// SIZE_MAX otherwise).
using FallEvent = detail::FallEvent;

/// What bake_file did: frames, steps, duration_s, events, has_hit, peak_deg, peak_time_s, peak_joint (rust::String),
/// return_s (negative: no hits, or never back within 2 degrees), energy_j, track_rms_deg, max_joint_gap_mm.
using BakeSummary = detail::BakeSummary;

/// The library version, "MAJOR.MINOR.PATCH".
inline std::string version() { return std::string(detail::version()); }

/// Bakes a clip file with scripted hits into an animation file, like `flinch bake` (flinch_bake_file in flinch.h):
/// `input` (.bvh, .gltf, .glb; empty: the embedded CMU walk), `output` (format by extension), `hits_json` the *text*
/// of a hits file (empty: no hits), `config_json` a character configuration (empty: defaults), `rate_hz` the
/// simulation rate (<= 0: 120). The output is written atomically. Throws rust::Error naming the file and the problem.
inline BakeSummary bake_file(const std::string &input, const std::string &output, const std::string &hits_json = "",
                             const std::string &config_json = "", double rate_hz = 120.0) {
    return detail::bake_file(input, output, hits_json, config_json, rate_hz);
}

/// Retargets a clip onto a character and bakes it, like `flinch bake --onto` (flinch_bake_onto in flinch.h):
/// `character` (.glb/.gltf: the output keeps its meshes, skins and materials), `input` (empty: the embedded CMU
/// walk), `map_file` (empty, or a .json/.toml bone map override file), the rest as bake_file. Throws rust::Error
/// naming the roles a non-humanoid character lacks.
inline BakeSummary bake_onto(const std::string &character, const std::string &input, const std::string &output,
                             const std::string &hits_json = "", const std::string &map_file = "",
                             const std::string &config_json = "", double rate_hz = 120.0) {
    return detail::bake_onto(character, input, map_file, output, hits_json, config_json, rate_hz);
}

/// A loaded clip (skeleton + motion). Move-only.
class Clip {
public:
    /// Loads a file; the format comes from the extension (.bvh, .gltf, .glb, .urdf). Throws rust::Error.
    static Clip load(const std::string &path) { return Clip(detail::load_clip_file(path)); }

    /// Loads bytes in `format` ("bvh", "gltf", "glb", "urdf"); `name` is used in messages. Throws rust::Error.
    static Clip from_memory(const std::uint8_t *data, std::size_t size, const std::string &format,
                            const std::string &name = "memory") {
        return Clip(detail::load_clip_memory(rust::Slice<const std::uint8_t>(data, size), format, name));
    }

    Clip(Clip &&) noexcept = default;
    Clip &operator=(Clip &&) noexcept = default;
    Clip(const Clip &) = delete;
    Clip &operator=(const Clip &) = delete;

    /// Number of skeleton joints.
    std::size_t joint_count() const { return inner_->joint_count(); }
    /// Duration (s).
    double duration() const { return inner_->duration(); }
    /// Number of frames (a detected leading T-pose frame excluded), for an engine sampling the clip itself.
    std::size_t frame_count() const { return inner_->frame_count(); }
    /// Seconds between frames.
    double frame_time() const { return inner_->frame_time(); }
    /// Frame `index` per joint: local rotation relative to the rest pose and local translation. Throws rust::Error.
    std::vector<Transform> frame(std::size_t index) const {
        auto v = inner_->frame(index);
        return std::vector<Transform>(v.begin(), v.end());
    }
    /// The clip made `seconds` long (a new clip): a detected leading T-pose frame dropped, then its best loop
    /// repeated without a seam, each repetition moved on by the distance the loop travels (a walk as long as a
    /// course needs). Throws rust::Error for `seconds` not finite and positive or past the import limits.
    Clip looped(double seconds) const { return Clip(inner_->looped(seconds)); }

private:
    friend class World;
    friend class PreparedClip;
    explicit Clip(rust::Box<detail::ClipData> inner) : inner_(std::move(inner)) {}
    rust::Box<detail::ClipData> inner_;
};

/// A clip prepared for simulation once (body model, reference motion, feedforward, gains): the shared, immutable
/// half of characters. Any number of characters, in any worlds, are made from one (World::add_character), each
/// building only its own world. Copies share the same tables (no second preparation).
class PreparedClip {
public:
    /// Prepares `clip` (`config_json`: a character configuration, empty for defaults); the cost of one
    /// World::add_character(clip). Throws rust::Error.
    static PreparedClip prepare(const Clip &clip, const std::string &config_json = "") {
        return PreparedClip(detail::prepare_clip(*clip.inner_, config_json));
    }

    PreparedClip(const PreparedClip &other) : inner_(other.inner_->share()) {}
    PreparedClip &operator=(const PreparedClip &other) {
        if (this != &other) inner_ = other.inner_->share();
        return *this;
    }
    PreparedClip(PreparedClip &&) noexcept = default;
    PreparedClip &operator=(PreparedClip &&) noexcept = default;

    /// Duration (s) of the reference motion.
    double duration() const { return inner_->duration(); }
    /// The simulation step (s) the clip was prepared for.
    double step_size() const { return inner_->step_size(); }
    /// The reference pose of the root body at clip time `time` (s, clamped to the clip): its centre of mass (m)
    /// and orientation. Where the clip walks before any character plays it (to place a level along the path).
    Transform root_target(double time) const { return inner_->root_target(time); }
    /// The floor height (m) fitted to the clip's stance feet: where a level's floor goes for its characters.
    /// Throws rust::Error for a clip without feet.
    double floor() const { return inner_->floor(); }

private:
    friend class World;
    explicit PreparedClip(rust::Box<detail::PreparedData> inner) : inner_(std::move(inner)) {}
    rust::Box<detail::PreparedData> inner_;
};

/// A character inside a World (generational: stale once removed; using it then throws).
struct CharacterId {
    std::uint64_t key;
};

/// A rigid transform at `position` (m) with rotation quaternion `rotation` (x, y, z, w; default identity).
inline Transform transform(const std::array<double, 3> &position = {0.0, 0.0, 0.0},
                           const std::array<double, 4> &rotation = {0.0, 0.0, 0.0, 1.0}) {
    Transform t;
    t.position = position;
    t.rotation = rotation;
    return t;
}

/// A collider's surface and motion: friction (negative: each character's own), restitution in [0, 1], layers and
/// mask bits (a character touches it when its mask meets `layers` and `mask` meets its layers), kinematic (moved by
/// World::move_collider: a bat, a door), a name for messages.
struct ColliderOptions {
    double friction = -1.0;
    double restitution = 0.0;
    std::uint32_t layers = 0xFFFFFFFFu;
    std::uint32_t mask = 0xFFFFFFFFu;
    bool kinematic = false;
    std::string name;
};

/// A world of characters and balls, stepped together. Move-only.
class World {
public:
    World() : inner_(detail::new_world()) {}
    World(World &&) noexcept = default;
    World &operator=(World &&) noexcept = default;
    World(const World &) = delete;
    World &operator=(const World &) = delete;

    /// Builds the character of `clip` (`config_json`: a character configuration, empty for defaults) and adds it.
    CharacterId add_character(const Clip &clip, const std::string &config_json = "") {
        return CharacterId{inner_->add_character(*clip.inner_, config_json)};
    }
    /// Whether bodies of different characters collide (default true); off for crowds of one clip, whose copies
    /// all follow the clip's path.
    void set_character_contacts(bool enabled) { inner_->set_character_contacts(enabled); }
    /// Adds a character of a prepared clip: only its world is built (well under a millisecond), the clip's tables
    /// are shared with every other character of `prepared`.
    CharacterId add_character(const PreparedClip &prepared) {
        return CharacterId{inner_->add_prepared(*prepared.inner_)};
    }
    /// Builds a character driven by streamed targets on `clip`'s skeleton (at rest in its first frame; no clip is
    /// preprocessed) and adds it.
    CharacterId add_streamed_character(const Clip &clip, const std::string &config_json = "") {
        return CharacterId{inner_->add_streamed_character(*clip.inner_, config_json)};
    }
    /// Sets the target pose for the end of the next step (per joint: local rotation relative to rest and local
    /// translation, the layout of local_pose). Sample the animation one step ahead (docs/engine.md).
    void set_target_pose(CharacterId c, const std::vector<Transform> &pose) {
        inner_->set_target_pose(c.key, rust::Slice<const Transform>(pose.data(), pose.size()),
                                rust::Slice<const double>());
    }
    /// Removes a character.
    void remove_character(CharacterId c) { inner_->remove_character(c.key); }
    /// Advances by `dt` seconds (> 0), in substeps no longer than each character's step size.
    void step(double dt) { inner_->step(dt); }
    /// Simulation time (s).
    double time() const { return inner_->time(); }

    /// Applies `impulse` (N·s, world) to the body of `bone` at its centre of mass, during the next step.
    void apply_impulse(CharacterId c, const std::string &bone, const std::array<double, 3> &impulse) {
        inner_->apply_impulse(c.key, bone, rust::Slice<const double>(), slice(impulse));
    }
    /// Applies `impulse` (N·s, world) to the body of `bone` at `point` (m, world), during the next step.
    void apply_impulse(CharacterId c, const std::string &bone, const std::array<double, 3> &point,
                       const std::array<double, 3> &impulse) {
        inner_->apply_impulse(c.key, bone, slice(point), slice(impulse));
    }

    /// Skeleton joint names (the order of every per-joint vector).
    std::vector<std::string> joint_names(CharacterId c) const {
        std::vector<std::string> out;
        for (const auto &n : inner_->joint_names(c.key)) out.emplace_back(std::string(n));
        return out;
    }
    /// Per joint: deviation from the reference now (radians; bones merged into a parent body: 0).
    std::vector<double> joint_deviations(CharacterId c) const {
        auto v = inner_->joint_deviations(c.key);
        return std::vector<double>(v.begin(), v.end());
    }
    /// Per joint: world transform.
    std::vector<Transform> world_transforms(CharacterId c) const {
        auto v = inner_->world_transforms(c.key);
        return std::vector<Transform>(v.begin(), v.end());
    }
    /// Per joint: local rotation relative to the rest pose and local translation (root: simulated position).
    std::vector<Transform> local_pose(CharacterId c) const {
        auto v = inner_->local_pose(c.key);
        return std::vector<Transform>(v.begin(), v.end());
    }

    /// Switches a character's root policy at runtime (also set at creation by the configuration's "root" section,
    /// {"root": {"policy": "assisted"}}). Throws rust::Error for a clip without feet asked to go free.
    void set_root_policy(CharacterId c, RootPolicy policy) { inner_->set_root_policy(c.key, policy); }
    /// A character's root policy.
    RootPolicy root_policy(CharacterId c) const { return inner_->root_policy(c.key); }
    /// Sets the assist weight of a character's free root (finite, in [0, 1]; else throws); no effect on a kinematic
    /// root.
    void set_assist_weight(CharacterId c, double weight) { inner_->set_assist_weight(c.key, weight); }
    /// A character's balance state (Tracking for a kinematic root).
    RootState root_state(CharacterId c) const { return inner_->root_state(c.key); }
    /// A character's balance state transitions since its root was made free, oldest first.
    std::vector<RootEvent> root_events(CharacterId c) const {
        auto v = inner_->root_events(c.key);
        return std::vector<RootEvent>(v.begin(), v.end());
    }
    /// A character's protective-fall phase changes (reach, impact, limp), oldest first; none for a kinematic root.
    std::vector<FallEvent> fall_events(CharacterId c) const {
        auto v = inner_->fall_events(c.key);
        return std::vector<FallEvent>(v.begin(), v.end());
    }
    /// The floor height (m, world y) a free-root character stands on; throws for a kinematic root.
    double ground_floor(CharacterId c) const { return inner_->ground_floor(c.key); }
    /// How deep the deepest body point was below the floor after the last step (m; 0 for a kinematic root).
    double ground_penetration(CharacterId c) const { return inner_->ground_penetration(c.key); }
    /// The clip time (s) a character plays now (the world time, unless a get-up restarted the clip).
    double clip_time(CharacterId c) const { return inner_->clip_time(c.key); }

    /// Spawns a ball (radius m, mass kg, position m, velocity m/s); returns its key.
    std::uint64_t spawn_ball(double radius, double mass, const std::array<double, 3> &position,
                             const std::array<double, 3> &velocity) {
        return inner_->spawn_ball(radius, mass, slice(position), slice(velocity));
    }
    /// The hit events of the last step.
    std::vector<HitEvent> events() const {
        auto v = inner_->events();
        return std::vector<HitEvent>(v.begin(), v.end());
    }

    // The level: colliders keyed by std::uint64_t (stale once removed; a key of another world is refused). A
    // free-root character stands on the level's colliders in place of its fitted flat floor once the level holds
    // any: pose the level so its floor is at ground_floor(). Every call throws rust::Error on a refused shape, a
    // non-finite or zero-rotation pose, or a stale key.

    /// Adds the solid half-space below the plane through `pose`'s origin with outward `normal` (a floor: {0, 1, 0}).
    std::uint64_t add_plane(const std::array<double, 3> &normal, const Transform &pose = transform(),
                            const ColliderOptions &options = {}) {
        return add_shape(ColliderShape::Plane, normal, pose, options);
    }
    /// Adds a box of `half_extents` (m) centred on `pose`.
    std::uint64_t add_box(const std::array<double, 3> &half_extents, const Transform &pose = transform(),
                          const ColliderOptions &options = {}) {
        return add_shape(ColliderShape::Box, half_extents, pose, options);
    }
    /// Adds a ball of `radius` (m) centred on `pose`.
    std::uint64_t add_sphere(double radius, const Transform &pose = transform(), const ColliderOptions &options = {}) {
        return add_shape(ColliderShape::Sphere, {radius, 0.0, 0.0}, pose, options);
    }
    /// Adds a capsule along `pose`'s local Y axis: half the axis length and the radius (m). A bat: kinematic.
    std::uint64_t add_capsule(double half_height, double radius, const Transform &pose = transform(),
                              const ColliderOptions &options = {}) {
        return add_shape(ColliderShape::Capsule, {half_height, radius, 0.0}, pose, options);
    }
    /// Adds the convex hull of `points` (xyz triples, collider frame; at least 4 not in one plane).
    std::uint64_t add_convex_hull(const std::vector<double> &points, const Transform &pose = transform(),
                                  const ColliderOptions &options = {}) {
        return add_collider(desc(ColliderShape::ConvexHull, {0.0, 0.0, 0.0}, pose, options), points, {});
    }
    /// Adds a triangle mesh: `vertices` (xyz triples, collider frame) and `triangles` (index triples,
    /// counter-clockwise seen from outside).
    std::uint64_t add_mesh(const std::vector<double> &vertices, const std::vector<std::uint32_t> &triangles,
                           const Transform &pose = transform(), const ColliderOptions &options = {}) {
        return add_collider(desc(ColliderShape::TriangleMesh, {0.0, 0.0, 0.0}, pose, options), vertices, triangles);
    }
    /// Adds a height field on `pose`'s XZ plane, centred on its origin: `heights` holds rows × cols heights (m), row
    /// by row (rows along z), spanning size_x × size_z metres.
    std::uint64_t add_height_field(std::size_t rows, std::size_t cols, const std::vector<double> &heights,
                                   double size_x, double size_z, const Transform &pose = transform(),
                                   const ColliderOptions &options = {}) {
        auto d = desc(ColliderShape::HeightField, {0.0, 0.0, 0.0}, pose, options);
        d.rows = rows;
        d.cols = cols;
        d.size_x = size_x;
        d.size_z = size_z;
        return add_collider(d, heights, {});
    }
    /// Removes a collider; a character resting on it falls from the next step.
    void remove_collider(std::uint64_t collider) { inner_->remove_collider(collider); }
    /// Moves a kinematic collider to `pose` by the end of the next step; the contacts see the velocity of that
    /// motion (a jump faster than 50 m/s is a teleport, at rest).
    void move_collider(std::uint64_t collider, const Transform &pose) {
        inner_->move_collider(collider, pose, rust::Slice<const double>(), rust::Slice<const double>());
    }
    /// Moves a kinematic collider to `pose` by the end of the next step; the contacts see `linear` (m/s) and
    /// `angular` (rad/s, world) velocity.
    void move_collider(std::uint64_t collider, const Transform &pose, const std::array<double, 3> &linear,
                       const std::array<double, 3> &angular) {
        inner_->move_collider(collider, pose, slice(linear), slice(angular));
    }
    /// Loads a level file (glTF/GLB: every mesh a static collider; `_box`, `_convex`, `_nocollide` name suffixes
    /// and a NAME.colliders.json sidecar choose simpler shapes) posed by `pose`; returns its colliders' keys in file
    /// order. On an error nothing is added.
    std::vector<std::uint64_t> load_level(const std::string &path, const Transform &pose = transform()) {
        auto v = inner_->load_level(path, pose);
        return std::vector<std::uint64_t>(v.begin(), v.end());
    }
    /// Prepares a flat-ground clip to be walked over this world's level as it is now (its static colliders; pose
    /// the level first): feet raised onto the ground under them, root and legs adapted, stance read above the
    /// level (docs/world.md). Add its characters with add_character(prepared). Throws rust::Error for a world
    /// without a static collider or a clip without two legs.
    PreparedClip prepare_on_level(const Clip &clip, const std::string &config_json = "") const {
        return PreparedClip(inner_->prepare_on_level(*clip.inner_, config_json));
    }
    /// The first character body or collider (whose layers meet `mask`) a ray from `origin` along `direction`
    /// (nonzero) meets within `max_distance` (m). A bullet: apply_impulse(hit.bone, hit.point, ...).
    RayHit cast_ray(const std::array<double, 3> &origin, const std::array<double, 3> &direction,
                    double max_distance = 1e3, std::uint32_t mask = 0xFFFFFFFFu) const {
        return inner_->cast_ray(slice(origin), slice(direction), max_distance, mask);
    }
    /// The first character body or collider a sphere of `radius` (m) moving from `origin` along `direction` touches
    /// within `max_distance` (m, finite) of travel.
    RayHit cast_sphere(const std::array<double, 3> &origin, double radius, const std::array<double, 3> &direction,
                       double max_distance = 1e3, std::uint32_t mask = 0xFFFFFFFFu) const {
        return inner_->cast_sphere(slice(origin), radius, slice(direction), max_distance, mask);
    }
    /// Sets a character's collision layers and mask against the level (default all bits: touches everything).
    void set_level_layers(CharacterId c, std::uint32_t layers, std::uint32_t mask) {
        inner_->set_level_layers(c.key, layers, mask);
    }

private:
    static rust::Slice<const double> slice(const std::array<double, 3> &a) {
        return rust::Slice<const double>(a.data(), a.size());
    }
    static detail::ColliderDesc desc(ColliderShape shape, const std::array<double, 3> &size, const Transform &pose,
                                     const ColliderOptions &options) {
        detail::ColliderDesc d;
        d.shape = shape;
        d.size = size;
        d.rows = 0;
        d.cols = 0;
        d.size_x = 0.0;
        d.size_z = 0.0;
        d.pose = pose;
        d.friction = options.friction;
        d.restitution = options.restitution;
        d.layers = options.layers;
        d.mask = options.mask;
        d.kinematic = options.kinematic;
        d.name = rust::String(options.name);
        return d;
    }
    std::uint64_t add_shape(ColliderShape shape, const std::array<double, 3> &size, const Transform &pose,
                            const ColliderOptions &options) {
        return add_collider(desc(shape, size, pose, options), {}, {});
    }
    std::uint64_t add_collider(const detail::ColliderDesc &d, const std::vector<double> &points,
                               const std::vector<std::uint32_t> &triangles) {
        return inner_->add_collider(d, rust::Slice<const double>(points.data(), points.size()),
                                    rust::Slice<const std::uint32_t>(triangles.data(), triangles.size()));
    }
    rust::Box<detail::WorldData> inner_;
};

}  // namespace flinch
