/* engine_loop: a game engine's fixed-timestep loop driving a streamed character through the C ABI.
 *
 * The "engine" loads a clip (argv[1], default samples/data/cmu_02_01_walk.bvh) into its own animation arrays and
 * samples it itself (slerp between frames) one physics tick ahead, pushes the pose with
 * flinch_world_set_target_pose, fires a hit from a game event (the ball "lands" at 1 s: 6.75 N·s on the right
 * forearm) and reads the world transform of every bone back for skinning. Render frames have uneven lengths; the
 * physics runs at a fixed 120 Hz from an accumulator. Prints one summary line:
 *   summary ticks N before_hit_max_deg X peak_deg Y return_s Z hand_travel_m W
 *
 * Build (static):  cc engine_loop.c -Iinclude target/release/libflinch.a -lstdc++ -lpthread -ldl -lm
 * Build (shared):  cc engine_loop.c -Iinclude -Ltarget/release -lflinch -Wl,-rpath,target/release -lm
 */
#include <flinch.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICK_HZ 120.0
#define HIT_TIME 1.0
#define RETURN_BAND_DEG 2.0
#define NAME_CAPACITY 256

static void check(FlinchStatus status, const char *what) {
    if (status != FLINCH_STATUS_OK) {
        fprintf(stderr, "engine_loop: %s failed (status %d): %s\n", what, (int)status, flinch_last_error());
        exit(1);
    }
}

/* Slerp between unit quaternions (x, y, z, w) along the short arc. */
static void slerp(const double *a, const double *b, double s, double *out) {
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    double sign = d < 0.0 ? -1.0 : 1.0;
    d *= sign;
    double wa = 1.0 - s, wb = s;
    if (d < 0.9995) {
        double theta = acos(d);
        wa = sin((1.0 - s) * theta) / sin(theta);
        wb = sin(s * theta) / sin(theta);
    }
    double n = 0.0;
    for (int i = 0; i < 4; ++i) {
        out[i] = wa * a[i] + wb * sign * b[i];
        n += out[i] * out[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; ++i) out[i] /= n;
}

/* The engine's animation system: the clip at time t (held at its ends), into pose. */
static void sample(const FlinchTransform *frames, size_t frame_count, size_t joints, double frame_time, double t,
                   FlinchTransform *pose) {
    double u = t / frame_time;
    if (u < 0.0) u = 0.0;
    size_t k = (size_t)floor(u);
    if (k + 1 >= frame_count) {
        memcpy(pose, frames + (frame_count - 1) * joints, joints * sizeof *pose);
        return;
    }
    double s = u - (double)k;
    const FlinchTransform *a = frames + k * joints, *b = frames + (k + 1) * joints;
    for (size_t j = 0; j < joints; ++j) {
        for (int i = 0; i < 3; ++i) pose[j].position[i] = (1.0 - s) * a[j].position[i] + s * b[j].position[i];
        slerp(a[j].rotation, b[j].rotation, s, pose[j].rotation);
    }
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "samples/data/cmu_02_01_walk.bvh";
    const double pi = 3.14159265358979323846;
    const double impulse[3] = {6.75, 0.0, 0.0};
    const double dt = 1.0 / TICK_HZ;

    /* Asset loading: the engine keeps its own copy of the animation. */
    FlinchClip clip;
    check(flinch_clip_load_file(path, &clip), "flinch_clip_load_file");
    size_t joints = 0, frame_count = 0;
    double frame_time = 0.0, duration = 0.0;
    check(flinch_clip_joint_count(clip, &joints), "flinch_clip_joint_count");
    check(flinch_clip_frame_count(clip, &frame_count), "flinch_clip_frame_count");
    check(flinch_clip_frame_time(clip, &frame_time), "flinch_clip_frame_time");
    FlinchTransform *frames = calloc(frame_count * joints, sizeof *frames);
    FlinchTransform *pose = calloc(joints, sizeof *pose);
    FlinchTransform *skin = calloc(joints, sizeof *skin);
    double *deviation = calloc(joints, sizeof *deviation);
    if (frames == NULL || pose == NULL || skin == NULL || deviation == NULL) {
        fprintf(stderr, "engine_loop: out of memory\n");
        return 1;
    }
    for (size_t f = 0; f < frame_count; ++f)
        check(flinch_clip_frame(clip, f, frames + f * joints, joints), "flinch_clip_frame");
    duration = (double)(frame_count - 1) * frame_time;

    FlinchCharacter built;
    check(flinch_character_create_streamed(clip, NULL, &built), "flinch_character_create_streamed");
    check(flinch_clip_destroy(clip), "flinch_clip_destroy");
    FlinchWorld world;
    check(flinch_world_create(&world), "flinch_world_create");
    FlinchCharacterKey character;
    check(flinch_world_add_character(world, built, &character), "flinch_world_add_character");

    size_t hand = joints;
    char name[NAME_CAPACITY];
    for (size_t j = 0; j < joints; ++j) {
        check(flinch_character_joint_name(world, character, j, name, sizeof name, NULL),
              "flinch_character_joint_name");
        if (strcmp(name, "RightHand") == 0) hand = j;
    }
    if (hand == joints) {
        fprintf(stderr, "engine_loop: no RightHand bone\n");
        return 1;
    }

    /* Uneven render frames (60, 90 and 144 Hz), a fixed 120 Hz physics tick from an accumulator. */
    const double render_dt[3] = {1.0 / 60.0, 1.0 / 90.0, 1.0 / 144.0};
    double now = 0.0, accumulator = 0.0, sim_time = 0.0;
    double before_hit_max = 0.0, peak = 0.0, last_outside = -1.0, hand_travel = 0.0;
    double hand_prev[3] = {0.0, 0.0, 0.0};
    int hit_fired = 0, ticks = 0;
    for (int frame = 0; now < duration - dt; ++frame) {
        double elapsed = render_dt[frame % 3];
        now += elapsed;
        accumulator += elapsed;
        while (accumulator >= dt - 1e-12 && sim_time + dt <= duration + 1e-9) {
            /* Animation one tick ahead: the pose the step should end in. */
            sample(frames, frame_count, joints, frame_time, sim_time + dt, pose);
            check(flinch_world_set_target_pose(world, character, pose, joints, NULL),
                  "flinch_world_set_target_pose");
            /* Game event: the ball arrives. */
            if (!hit_fired && sim_time >= HIT_TIME - 0.5 * dt) {
                check(flinch_world_apply_impulse(world, character, "RightForeArm", NULL, impulse),
                      "flinch_world_apply_impulse");
                hit_fired = 1;
            }
            check(flinch_world_step(world, dt), "flinch_world_step");
            sim_time += dt;
            accumulator -= dt;
            ++ticks;

            /* Skinning: every bone's world transform. */
            check(flinch_character_world_transforms(world, character, skin, joints),
                  "flinch_character_world_transforms");
            if (ticks > 1)
                hand_travel += sqrt(pow(skin[hand].position[0] - hand_prev[0], 2) +
                                    pow(skin[hand].position[1] - hand_prev[1], 2) +
                                    pow(skin[hand].position[2] - hand_prev[2], 2));
            memcpy(hand_prev, skin[hand].position, sizeof hand_prev);

            check(flinch_character_joint_deviations(world, character, deviation, joints),
                  "flinch_character_joint_deviations");
            double worst = 0.0;
            for (size_t j = 0; j < joints; ++j) {
                double d = deviation[j] * 180.0 / pi;
                if (d > worst) worst = d;
            }
            if (!hit_fired) {
                if (worst > before_hit_max) before_hit_max = worst;
            } else {
                if (worst > peak) peak = worst;
                if (worst > RETURN_BAND_DEG) last_outside = sim_time;
            }
        }
    }
    double return_s = last_outside < 0.0 ? 0.0 : last_outside + dt - HIT_TIME;
    printf("summary ticks %d before_hit_max_deg %.17g peak_deg %.17g return_s %.17g hand_travel_m %.17g\n", ticks,
           before_hit_max, peak, return_s, hand_travel);

    check(flinch_world_destroy(world), "flinch_world_destroy");
    free(frames);
    free(pose);
    free(skin);
    free(deviation);
    return 0;
}
