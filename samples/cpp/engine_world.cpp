// engine_world: a character in the game's world through the C++ API (the twin of samples/c/engine_world.c).
//
// Loads a clip (argv[1], default samples/data/cmu_02_01_walk.bvh), loops it without a seam to 8.7 s
// (Clip::looped), loads the sample level (argv[2], default samples/level/training_ground.glb) posed along the
// clip's path (PreparedClip::root_target): its floor at the clip's fitted floor, the walker starting 0.6 m before
// the flight of four 15 cm steps, walking up them, over the landing and down the far side. The clip is prepared
// on the level (World::prepare_on_level: feet raised onto the steps) and played on an assisted free root at 120 Hz
// for 8.6 s: at 7 s, on the floor 1.5 m past the stairs, a kinematic capsule bat (0.45 m half length, 3.5 cm radius) is
// swung at 8 m/s through the head (World::move_collider every frame; its pushes are hit events naming the
// collider); from 7.5 s, 20 ray-cast bullets are fired at the chest from around the character (World::cast_ray),
// each bone hit taking 3 N·s at the hit point. Prints the level, each bullet, each hit event, and one summary line:
//   summary colliders N steps S bullets B bone_hits H bat_events E max_penetration_m P max_root_rise_m U
//   swing_root_rise_m W fell_before_swing F final_root_height_m R
//
// Build (static):  c++ -std=c++17 engine_world.cpp -Iinclude -Itarget/release/include target/release/libflinch.a
//                   -lpthread -ldl -lm
#include <flinch/flinch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kRateHz = 120;
constexpr double kWalkSeconds = 8.7;
constexpr int kSteps = kRateHz * 43 / 5;
constexpr double kSwingTime = 7.0;
constexpr double kSwingSpeed = 8.0;
constexpr double kSwingReach = 1.0;
constexpr double kSwingFollowThrough = 0.2;
constexpr int kBulletStep = kRateHz * 15 / 2;
constexpr int kBulletEvery = 6;
constexpr int kBullets = 20;
constexpr double kBulletImpulse = 3.0;
constexpr double kPi = 3.14159265358979323846;
// Where the walk starts in the sample level's frame: 0.6 m before the stairs' first step (x = 1.9), walking -x.
constexpr double kStairsStartX = 2.5;

// The index of the first joint named one of `candidates`.
std::size_t find_joint(const std::vector<std::string> &names, const std::vector<std::string> &candidates) {
    for (const auto &c : candidates) {
        const auto it = std::find(names.begin(), names.end(), c);
        if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
    }
    throw std::runtime_error("no joint named " + candidates.front());
}

}  // namespace

int main(int argc, char **argv) {
    const std::string clip_path = argc > 1 ? argv[1] : "samples/data/cmu_02_01_walk.bvh";
    const std::string level_path = argc > 2 ? argv[2] : "samples/level/training_ground.glb";
    try {
        std::printf("flinch %s (header cxx)\n", flinch::version().c_str());
        const double dt = 1.0 / kRateHz;

        // The walk, looped, and where it goes: its fitted floor and its root's path.
        const std::string config = R"({"root": {"policy": "assisted"}})";
        const flinch::Clip walk = flinch::Clip::load(clip_path).looped(kWalkSeconds);
        double floor_y = 0.0, heading = 0.0;
        std::array<double, 3> start{};
        {
            const flinch::PreparedClip flat = flinch::PreparedClip::prepare(walk, config);
            floor_y = flat.floor();
            const flinch::Transform from = flat.root_target(0.0), to = flat.root_target(1.0);
            start = from.position;
            heading = std::atan2(to.position[2] - from.position[2], -(to.position[0] - from.position[0]));
        }

        // The level turned about y so that its -x (the stairs' way up) is the walk's heading, its floor at the
        // fitted floor and the walk's start 0.6 m before the first step.
        flinch::World world;
        const auto colliders = world.load_level(
            level_path,
            flinch::transform({start[0] - kStairsStartX * std::cos(heading), floor_y,
                               start[2] + kStairsStartX * std::sin(heading)},
                              {0.0, std::sin(heading / 2.0), 0.0, std::cos(heading / 2.0)}));
        std::printf("level %s colliders %zu floor %.4f heading %.2f deg\n", level_path.c_str(), colliders.size(),
                    floor_y, heading * 180.0 / kPi);

        // The walk prepared on the level (its feet onto the steps), and its character.
        const flinch::CharacterId walker = world.add_character(world.prepare_on_level(walk, config));
        const auto names = world.joint_names(walker);
        const std::size_t head = find_joint(names, {"Head", "head", "Neck1", "Neck"});
        const std::size_t chest = find_joint(names, {"Spine1", "Spine2", "Chest", "Spine"});
        auto pose = world.world_transforms(walker);

        // The bat: a kinematic capsule lying along z (its local Y turned onto world Z), parked 50 m away.
        const std::array<double, 4> along_z = {std::sin(kPi / 4.0), 0.0, 0.0, std::cos(kPi / 4.0)};
        const flinch::Transform parked = flinch::transform({0.0, 50.0, 0.0}, along_z);
        flinch::ColliderOptions bat_options;
        bat_options.kinematic = true;
        bat_options.name = "bat";
        const std::uint64_t bat = world.add_capsule(0.45, 0.035, parked, bat_options);

        int bullets = 0, bone_hits = 0, bat_events = 0;
        double max_penetration = 0.0, max_root_rise = 0.0, swing_root_rise = 0.0;
        const double start_root_y = pose[0].position[1];
        bool fell_before_swing = false;
        const double swing_end = kSwingTime + (kSwingReach + kSwingFollowThrough) / kSwingSpeed;
        std::array<double, 3> swing_at{};
        bool swing_started = false;
        for (int step = 0; step < kSteps; ++step) {
            const double t = step * dt;
            pose = world.world_transforms(walker);
            if (t < kSwingTime) {
                swing_root_rise = pose[0].position[1] - start_root_y;
                max_root_rise = std::max(max_root_rise, swing_root_rise);
                if (world.root_state(walker) != flinch::RootState::Tracking) fell_before_swing = true;
            }

            // The swing: a straight pass along -x through where the head is when it starts, from 1 m before it to
            // 0.2 m past it; then the bat is parked again (a jump: a teleport, at rest).
            const double t1 = t + dt;
            if (t1 >= kSwingTime && t <= swing_end) {
                if (!swing_started) {
                    swing_at = pose[head].position;
                    swing_started = true;
                }
                flinch::Transform at = parked;
                if (t1 <= swing_end) {
                    at.position = {swing_at[0] + kSwingReach - kSwingSpeed * (t1 - kSwingTime), swing_at[1],
                                   swing_at[2]};
                }
                world.move_collider(bat, at);
            }
            if (step % (kRateHz / 2) == 0) {
                std::printf("time %.2f root %.3f %.3f %.3f\n", t, pose[0].position[0], pose[0].position[1] - floor_y,
                            pose[0].position[2]);
            }

            // A bullet every few steps from 3 s, 2.5 m away at chest height, around the character.
            if (step >= kBulletStep && (step - kBulletStep) % kBulletEvery == 0 && bullets < kBullets) {
                const double a = 2.0 * kPi * bullets / kBullets;
                const auto &target = pose[chest].position;
                const std::array<double, 3> origin = {target[0] + 2.5 * std::cos(a),
                                                      target[1] + 0.1 * std::sin(3.0 * a),
                                                      target[2] + 2.5 * std::sin(a)};
                const std::array<double, 3> direction = {target[0] - origin[0], target[1] - origin[1],
                                                         target[2] - origin[2]};
                const flinch::RayHit hit = world.cast_ray(origin, direction, 10.0);
                if (hit.hit && hit.character != 0) {
                    const double n = std::sqrt(direction[0] * direction[0] + direction[1] * direction[1] +
                                               direction[2] * direction[2]);
                    const std::array<double, 3> impulse = {kBulletImpulse * direction[0] / n,
                                                           kBulletImpulse * direction[1] / n,
                                                           kBulletImpulse * direction[2] / n};
                    const std::array<double, 3> point = {hit.point[0], hit.point[1], hit.point[2]};
                    world.apply_impulse(flinch::CharacterId{hit.character}, std::string(hit.bone), point, impulse);
                    ++bone_hits;
                    std::printf("bullet %d t %.3f hit %s distance %.3f point %.3f %.3f %.3f\n", bullets, t,
                                std::string(hit.bone).c_str(), hit.distance, hit.point[0], hit.point[1],
                                hit.point[2]);
                } else if (hit.hit) {
                    std::printf("bullet %d t %.3f hit collider 0x%llx distance %.3f\n", bullets, t,
                                static_cast<unsigned long long>(hit.collider), hit.distance);
                } else {
                    std::printf("bullet %d t %.3f missed\n", bullets, t);
                }
                ++bullets;
            }

            world.step(dt);
            max_penetration = std::max(max_penetration, world.ground_penetration(walker));
            for (const auto &e : world.events()) {
                const double j = std::sqrt(e.impulse[0] * e.impulse[0] + e.impulse[1] * e.impulse[1] +
                                           e.impulse[2] * e.impulse[2]);
                if (e.collider != 0) {
                    if (e.collider == bat) ++bat_events;
                    std::printf("event t %.4f bone %s collider 0x%llx impulse %.4f\n", e.time,
                                std::string(e.bone).c_str(), static_cast<unsigned long long>(e.collider), j);
                } else {
                    std::printf("event t %.4f bone %s %s impulse %.4f\n", e.time, std::string(e.bone).c_str(),
                                e.ball != 0 ? "ball" : "impulse", j);
                }
            }
        }

        // The protective fall the bat caused: reach, impact (the bone that touched first), limp.
        for (const auto &fall : world.fall_events(walker)) {
            const char *phase = fall.phase == flinch::FallPhase::Reach    ? "reach"
                                : fall.phase == flinch::FallPhase::Impact ? "impact"
                                                                          : "limp";
            std::printf("fall t %.4f %s %s\n", fall.time, phase,
                        fall.joint < names.size() ? names[fall.joint].c_str() : "-");
        }

        pose = world.world_transforms(walker);
        std::printf("summary colliders %zu steps %d bullets %d bone_hits %d bat_events %d max_penetration_m %.6f "
                    "max_root_rise_m %.4f swing_root_rise_m %.4f fell_before_swing %d final_root_height_m %.4f\n",
                    colliders.size(), kSteps, bullets, bone_hits, bat_events, max_penetration, max_root_rise,
                    swing_root_rise, fell_before_swing ? 1 : 0, pose[0].position[1] - floor_y);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "engine_world: %s\n", e.what());
        return 1;
    }
    return 0;
}
