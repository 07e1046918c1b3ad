// bake: the hit through the C++ API, baked to a CSV of joint world positions.
//
// Loads a clip (argv[1], default samples/data/cmu_02_01_walk.bvh), builds its character, steps 2 s at 120 Hz, hits
// RightForeArm at 1 s with 6.75 N·s along +X (world) at its centre of mass, writes the reacted pose of every frame
// to argv[2] (default bake.csv: `time,joint,x,y,z,qx,qy,qz,qw`, world frame, metres) and prints every joint's
// largest deviation from the reference (degrees, `name value`, %.17g) and a summary line.
//
// Build (static):  c++ -std=c++17 bake.cpp -Iinclude target/release/libflinch.a -lpthread -ldl -lm
// Build (shared):  c++ -std=c++17 bake.cpp include/flinch/src/bridge.rs.cc include/rust/cxx.cc -Iinclude
//                   -Ltarget/release -lflinch -Wl,-rpath,target/release
#include <flinch/flinch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    const std::string path = argc > 1 ? argv[1] : "samples/data/cmu_02_01_walk.bvh";
    const std::string csv_path = argc > 2 ? argv[2] : "bake.csv";
    constexpr int rate_hz = 120, steps = 2 * rate_hz, hit_step = 1 * rate_hz;
    const double pi = 3.14159265358979323846;
    try {
        std::printf("flinch %s (header cxx)\n", flinch::version().c_str());
        flinch::World world;
        flinch::CharacterId character{};
        {
            flinch::Clip clip = flinch::Clip::load(path);
            character = world.add_character(clip);
        }  // the clip is no longer needed once the character is built
        const std::vector<std::string> names = world.joint_names(character);
        std::vector<double> max_deviation(names.size(), 0.0);

        std::FILE *csv = std::fopen(csv_path.c_str(), "w");
        if (csv == nullptr) {
            std::fprintf(stderr, "bake: cannot write %s\n", csv_path.c_str());
            return 1;
        }
        std::fprintf(csv, "time,joint,x,y,z,qx,qy,qz,qw\n");
        for (int step = 0; step < steps; ++step) {
            if (step == hit_step) world.apply_impulse(character, "RightForeArm", {6.75, 0.0, 0.0});
            world.step(1.0 / rate_hz);
            const std::vector<double> deviation = world.joint_deviations(character);
            for (std::size_t j = 0; j < names.size(); ++j) max_deviation[j] = std::max(max_deviation[j], deviation[j]);
            const std::vector<flinch::Transform> pose = world.world_transforms(character);
            for (std::size_t j = 0; j < names.size(); ++j) {
                const auto &p = pose[j].position;
                const auto &q = pose[j].rotation;
                std::fprintf(csv, "%.17g,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", world.time(),
                             names[j].c_str(), p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
            }
        }
        if (std::fclose(csv) != 0) {
            std::fprintf(stderr, "bake: cannot finish %s\n", csv_path.c_str());
            return 1;
        }

        std::size_t peak = 0;
        for (std::size_t j = 0; j < names.size(); ++j) {
            std::printf("%s %.17g\n", names[j].c_str(), max_deviation[j] * (180.0 / pi));
            if (max_deviation[j] > max_deviation[peak]) peak = j;
        }
        std::printf("summary joints %zu steps %d time %.17g peak_joint %s peak_deg %.17g csv %s\n", names.size(), steps,
                    world.time(), names[peak].c_str(), max_deviation[peak] * (180.0 / pi), csv_path.c_str());
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bake: %s\n", e.what());
        return 1;
    }
}
