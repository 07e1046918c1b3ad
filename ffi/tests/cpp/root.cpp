// A free root through the C++ API: the walk starts kinematic, is switched to an assisted root at runtime
// (flinch::World::set_root_policy), walks 2 s in the Tracking state on its floor, then a 60 N*s push on the chest
// makes it stagger (first root event Tracking -> Staggering). Misuse throws rust::Error. Run by ffi/tests/root.rs:
//
//     root_cpp <clip.bvh>
//
// Prints "name value" lines and exits 1 when a check fails.
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "flinch/flinch.hpp"

namespace {

int g_failures = 0;

void check(bool cond, const char *what) {
    if (!cond) {
        std::printf("FAIL %s\n", what);
        g_failures++;
    }
}

// Whether `f` throws a std::exception whose message contains `word`.
template <typename F>
bool throws(F f, const char *word) {
    try {
        f();
    } catch (const std::exception &e) {
        return std::string(e.what()).find(word) != std::string::npos;
    }
    return false;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: root_cpp <clip.bvh>\n");
        return 2;
    }
    try {
        const double h = 1.0 / 120.0;
        flinch::Clip clip = flinch::Clip::load(argv[1]);
        flinch::World world;
        flinch::CharacterId c = world.add_character(clip);
        check(world.root_policy(c) == flinch::RootPolicy::Kinematic, "kinematic by default");
        check(throws([&] { world.ground_floor(c); }, "kinematic root"), "no floor for a kinematic root");

        world.set_root_policy(c, flinch::RootPolicy::Assisted);
        check(world.root_policy(c) == flinch::RootPolicy::Assisted, "assisted after the switch");
        world.set_assist_weight(c, 1.0);
        check(throws([&] { world.set_assist_weight(c, std::nan("")); }, "[0, 1]"), "NaN weight refused");
        check(throws([&] { world.set_assist_weight(c, 2.0); }, "[0, 1]"), "weight 2 refused");
        check(throws([&] { world.set_root_policy(c, static_cast<flinch::RootPolicy>(7)); }, "not a RootPolicy"),
              "a bad policy value refused");

        int tracking = 0;
        for (int i = 0; i < 240; i++) {
            world.step(h);
            tracking += world.root_state(c) == flinch::RootState::Tracking;
        }
        const double floor_m = world.ground_floor(c);
        const double t_hit = world.time();
        std::printf("tracking_steps %d\n", tracking);
        std::printf("floor_m %.6f\n", floor_m);
        std::printf("penetration_m %.6f\n", world.ground_penetration(c));
        check(tracking == 240, "tracking for the whole walk");
        check(std::isfinite(floor_m), "a finite floor");
        check(world.root_events(c).empty(), "no event before the hit");
        check(std::fabs(world.clip_time(c) - t_hit) < 1e-9, "clip time = world time while tracking");

        world.apply_impulse(c, "role:chest", {60.0, 0.0, 0.0});
        for (int i = 0; i < 360; i++) world.step(h);
        std::vector<flinch::RootEvent> events = world.root_events(c);
        std::printf("root_events %zu\n", events.size());
        for (const auto &e : events) {
            std::printf("event %.4f %u %u\n", e.time, static_cast<unsigned>(e.from), static_cast<unsigned>(e.to));
        }
        check(!events.empty(), "events after the hit");
        if (!events.empty()) {
            check(events[0].from == flinch::RootState::Tracking && events[0].to == flinch::RootState::Staggering,
                  "first event Tracking -> Staggering");
            check(events[0].time > t_hit && events[0].time <= t_hit + 0.1, "first event right after the hit");
            check(events.back().to == world.root_state(c), "the state is the last event's");
        }

        world.set_root_policy(c, flinch::RootPolicy::Kinematic);
        check(world.root_events(c).empty() && world.root_state(c) == flinch::RootState::Tracking,
              "back on the clip: no events, tracking");
        world.step(h);
        world.remove_character(c);
        check(throws([&] { world.root_state(c); }, "not in this world"), "stale key refused");
    } catch (const std::exception &e) {
        std::printf("FAIL exception: %s\n", e.what());
        return 1;
    }
    std::printf("failures %d\n", g_failures);
    return g_failures == 0 ? 0 : 1;
}
