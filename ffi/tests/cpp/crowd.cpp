// A crowd from one prepared clip through the C++ API: flinch::PreparedClip is prepared once, copied (a copy shares
// the tables) and outlived by its characters; every member must step exactly like a character built on its own
// from the clip, and a hit on one member must change only that member. Run by ffi/tests/crowd.rs:
//
//     crowd_cpp <clip.bvh>
//
// Prints "crowd_members N", "crowd_equal_before_hit N", "crowd_equal_after_hit N", "hit_member_differs 0|1" and
// exits 1 when a check fails.
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

#include "flinch/flinch.hpp"

namespace {

bool same(const std::vector<flinch::Transform> &a, const std::vector<flinch::Transform> &b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); i++) {
        if (std::memcmp(a[i].position.data(), b[i].position.data(), sizeof(double) * 3) != 0) return false;
        if (std::memcmp(a[i].rotation.data(), b[i].rotation.data(), sizeof(double) * 4) != 0) return false;
    }
    return true;
}

void run(flinch::World &w, int steps) {
    for (int i = 0; i < steps; i++) w.step(1.0 / 120.0);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: crowd_cpp <clip.bvh>\n");
        return 2;
    }
    try {
        const int members = 5, steps = 60;
        flinch::Clip clip = flinch::Clip::load(argv[1]);
        flinch::World solo;
        flinch::CharacterId own = solo.add_character(clip);

        flinch::World crowd;
        crowd.set_character_contacts(false);
        std::vector<flinch::CharacterId> ids;
        {
            flinch::PreparedClip prepared = flinch::PreparedClip::prepare(clip);
            flinch::PreparedClip copy = prepared;
            if (copy.duration() != prepared.duration() || copy.step_size() != 1.0 / 120.0) {
                std::printf("FAIL copy: duration %g vs %g, step %g\n", copy.duration(), prepared.duration(),
                            copy.step_size());
                return 1;
            }
            for (int i = 0; i < members; i++) ids.push_back(crowd.add_character(i % 2 ? copy : prepared));
        }  // both prepared objects gone: the characters keep the tables alive

        run(solo, steps);
        run(crowd, steps);
        int equal_before = 0;
        for (auto id : ids) equal_before += same(crowd.world_transforms(id), solo.world_transforms(own));

        crowd.apply_impulse(ids[0], "RightForeArm", {0.0, 0.0, 5.0});
        run(solo, steps);
        run(crowd, steps);
        int equal_after = 0;
        for (int i = 1; i < members; i++) equal_after += same(crowd.world_transforms(ids[i]), solo.world_transforms(own));
        int hit_differs = !same(crowd.world_transforms(ids[0]), solo.world_transforms(own));

        std::printf("crowd_members %d\n", members);
        std::printf("crowd_equal_before_hit %d\n", equal_before);
        std::printf("crowd_equal_after_hit %d\n", equal_after);
        std::printf("hit_member_differs %d\n", hit_differs);
        return equal_before == members && equal_after == members - 1 && hit_differs ? 0 : 1;
    } catch (const std::exception &e) {
        std::printf("FAIL exception: %s\n", e.what());
        return 1;
    }
}
