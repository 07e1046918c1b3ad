// engine_loop: a game engine's fixed-timestep loop driving a streamed character through the C++ API.
//
// The "engine" copies a clip (argv[1], default samples/data/cmu_02_01_walk.bvh) into its own animation arrays,
// samples it itself (slerp between frames) one physics tick ahead and pushes the pose (World::set_target_pose),
// fires the forearm hit (6.75 N·s) from a game event at 1 s and reads every bone's world transform for skinning.
// Render frames have uneven lengths; physics runs at a fixed 120 Hz from an accumulator. Prints one line:
//   summary ticks N before_hit_max_deg X peak_deg Y return_s Z hand_travel_m W
//
// Build (static):  c++ -std=c++17 engine_loop.cpp -Iinclude -Itarget/release/include target/release/libflinch.a
//                   -lpthread -ldl -lm
#include <flinch/flinch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

constexpr double kTickHz = 120.0;
constexpr double kHitTime = 1.0;
constexpr double kReturnBandDeg = 2.0;
constexpr double kPi = 3.14159265358979323846;

// Slerp between unit quaternions (x, y, z, w) along the short arc.
std::array<double, 4> slerp(const std::array<double, 4> &a, const std::array<double, 4> &b, double s) {
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    const double sign = d < 0.0 ? -1.0 : 1.0;
    d *= sign;
    double wa = 1.0 - s, wb = s;
    if (d < 0.9995) {
        const double theta = std::acos(d);
        wa = std::sin((1.0 - s) * theta) / std::sin(theta);
        wb = std::sin(s * theta) / std::sin(theta);
    }
    std::array<double, 4> out{};
    double n = 0.0;
    for (int i = 0; i < 4; ++i) {
        out[i] = wa * a[i] + wb * sign * b[i];
        n += out[i] * out[i];
    }
    n = std::sqrt(n);
    for (double &c : out) c /= n;
    return out;
}

// The engine's animation system: its own copy of the clip, sampled at any time (held at the ends).
struct Animation {
    std::vector<std::vector<flinch::Transform>> frames;
    double frame_time = 0.0;

    double duration() const { return static_cast<double>(frames.size() - 1) * frame_time; }

    std::vector<flinch::Transform> sample(double t) const {
        const double u = std::max(0.0, t / frame_time);
        const auto k = static_cast<std::size_t>(std::floor(u));
        if (k + 1 >= frames.size()) return frames.back();
        const double s = u - static_cast<double>(k);
        std::vector<flinch::Transform> pose(frames[k].size());
        for (std::size_t j = 0; j < pose.size(); ++j) {
            const auto &a = frames[k][j];
            const auto &b = frames[k + 1][j];
            for (int i = 0; i < 3; ++i) pose[j].position[i] = (1.0 - s) * a.position[i] + s * b.position[i];
            const auto q = slerp({a.rotation[0], a.rotation[1], a.rotation[2], a.rotation[3]},
                                 {b.rotation[0], b.rotation[1], b.rotation[2], b.rotation[3]}, s);
            for (int i = 0; i < 4; ++i) pose[j].rotation[i] = q[i];
        }
        return pose;
    }
};

}  // namespace

int main(int argc, char **argv) {
    const std::string path = argc > 1 ? argv[1] : "samples/data/cmu_02_01_walk.bvh";
    try {
        const flinch::Clip clip = flinch::Clip::load(path);
        Animation animation;
        animation.frame_time = clip.frame_time();
        for (std::size_t f = 0; f < clip.frame_count(); ++f) animation.frames.push_back(clip.frame(f));

        flinch::World world;
        const flinch::CharacterId character = world.add_streamed_character(clip);
        const auto names = world.joint_names(character);
        const auto hand_it = std::find(names.begin(), names.end(), "RightHand");
        if (hand_it == names.end()) throw std::runtime_error("no RightHand bone");
        const auto hand = static_cast<std::size_t>(hand_it - names.begin());

        const double dt = 1.0 / kTickHz;
        const double render_dt[3] = {1.0 / 60.0, 1.0 / 90.0, 1.0 / 144.0};
        double now = 0.0, accumulator = 0.0, sim_time = 0.0;
        double before_hit_max = 0.0, peak = 0.0, last_outside = -1.0, hand_travel = 0.0;
        std::array<double, 3> hand_prev{};
        bool hit_fired = false;
        int ticks = 0;
        const double duration = animation.duration();
        for (int frame = 0; now < duration - dt; ++frame) {
            const double elapsed = render_dt[frame % 3];
            now += elapsed;
            accumulator += elapsed;
            while (accumulator >= dt - 1e-12 && sim_time + dt <= duration + 1e-9) {
                world.set_target_pose(character, animation.sample(sim_time + dt));
                if (!hit_fired && sim_time >= kHitTime - 0.5 * dt) {
                    world.apply_impulse(character, "RightForeArm", {6.75, 0.0, 0.0});
                    hit_fired = true;
                }
                world.step(dt);
                sim_time += dt;
                accumulator -= dt;
                ++ticks;

                const auto skin = world.world_transforms(character);
                const auto &p = skin[hand].position;
                if (ticks > 1)
                    hand_travel += std::sqrt(std::pow(p[0] - hand_prev[0], 2) + std::pow(p[1] - hand_prev[1], 2) +
                                             std::pow(p[2] - hand_prev[2], 2));
                hand_prev = {p[0], p[1], p[2]};

                double worst = 0.0;
                for (double d : world.joint_deviations(character)) worst = std::max(worst, d * 180.0 / kPi);
                if (!hit_fired) {
                    before_hit_max = std::max(before_hit_max, worst);
                } else {
                    peak = std::max(peak, worst);
                    if (worst > kReturnBandDeg) last_outside = sim_time;
                }
            }
        }
        const double return_s = last_outside < 0.0 ? 0.0 : last_outside + dt - kHitTime;
        std::printf("summary ticks %d before_hit_max_deg %.17g peak_deg %.17g return_s %.17g hand_travel_m %.17g\n",
                    ticks, before_hit_max, peak, return_s, hand_travel);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "engine_loop: %s\n", e.what());
        return 1;
    }
    return 0;
}
