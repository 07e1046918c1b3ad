// bake: a clip baked with scripted hits through the C++ API, like `flinch bake`.
//
// Bakes the clip argv[1] (default samples/data/cmu_02_01_walk.bvh) with the hits file argv[2] (default
// samples/hits.json: a ball aimed at RightForeArm at 1 s, a push on the Head at 1.8 s) into argv[3] (default
// bake_out.bvh; .gltf/.glb also work) at 120 Hz and prints the summary (`summary key value ...`, %.17g; return_s
// negative: never back within 2 degrees). flinch reads the clip and writes the output; the sample only reads the
// hits file's text.
// (The per-joint deviations of a hand-stepped world are in samples/c/hit_reaction.c.)
//
// Build (static):  c++ -std=c++17 bake.cpp -Iinclude -Itarget/release/include target/release/libflinch.a
//                   -lpthread -ldl -lm
// Build (shared):  c++ -std=c++17 bake.cpp target/release/include/flinch/src/bridge.rs.cc
//                   target/release/include/rust/cxx.cc -Iinclude -Itarget/release/include
//                   -Ltarget/release -lflinch -Wl,-rpath,target/release
#include <flinch/flinch.hpp>

#include <cstdio>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

int main(int argc, char **argv) {
    const std::string clip_path = argc > 1 ? argv[1] : "samples/data/cmu_02_01_walk.bvh";
    const std::string hits_path = argc > 2 ? argv[2] : "samples/hits.json";
    const std::string out_path = argc > 3 ? argv[3] : "bake_out.bvh";
    std::printf("flinch %s (header cxx)\n", flinch::version().c_str());

    std::ifstream hits_file(hits_path, std::ios::binary);
    std::stringstream hits;
    hits << hits_file.rdbuf();
    if (!hits_file) {
        std::fprintf(stderr, "bake: cannot read the hits file %s\n", hits_path.c_str());
        return 1;
    }
    try {
        const flinch::BakeSummary s = flinch::bake_file(clip_path, out_path, hits.str(), "", 120.0);
        std::printf(
            "summary frames %zu steps %zu duration_s %.17g events %zu peak_joint %s peak_deg %.17g peak_time_s %.17g "
            "return_s %.17g energy_j %.17g track_rms_deg %.17g max_joint_gap_mm %.17g output %s\n",
            s.frames, s.steps, s.duration_s, s.events, s.has_hit ? std::string(s.peak_joint).c_str() : "-",
            s.peak_deg, s.peak_time_s, s.return_s, s.energy_j, s.track_rms_deg, s.max_joint_gap_mm, out_path.c_str());
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bake: %s\n", e.what());
        return 1;
    }
}
