/* hit_reaction: the hit through the C ABI.
 *
 * Loads a clip (argv[1], default samples/data/cmu_02_01_walk.bvh), builds its character, steps 2 s at 120 Hz,
 * hits RightForeArm at 1 s with 6.75 N·s along +X (world) at its centre of mass, and prints every joint's largest
 * deviation from the reference (degrees, `name value`, %.17g) and a summary line.
 *
 * Build (static):  cc hit_reaction.c -Iinclude target/release/libflinch.a -lstdc++ -lpthread -ldl -lm
 * Build (shared):  cc hit_reaction.c -Iinclude -Ltarget/release -lflinch -Wl,-rpath,target/release -lm
 */
#include <flinch.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define RATE_HZ 120
#define STEPS (2 * RATE_HZ)
#define HIT_STEP (1 * RATE_HZ)
#define NAME_CAPACITY 256

/* Prints the failed call, the status and flinch's last error, and exits. */
static void check(FlinchStatus status, const char *what) {
    if (status != FLINCH_STATUS_OK) {
        fprintf(stderr, "hit_reaction: %s failed (status %d): %s\n", what, (int)status, flinch_last_error());
        exit(1);
    }
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "samples/data/cmu_02_01_walk.bvh";
    const double pi = 3.14159265358979323846;
    const double impulse[3] = {6.75, 0.0, 0.0};

    printf("flinch %s (header %d.%d.%d)\n", flinch_version(), FLINCH_VERSION_MAJOR, FLINCH_VERSION_MINOR,
           FLINCH_VERSION_PATCH);

    FlinchClip clip;
    check(flinch_clip_load_file(path, &clip), "flinch_clip_load_file");
    FlinchCharacter built;
    check(flinch_character_create(clip, NULL, &built), "flinch_character_create");
    check(flinch_clip_destroy(clip), "flinch_clip_destroy");

    FlinchWorld world;
    check(flinch_world_create(&world), "flinch_world_create");
    FlinchCharacterKey character;
    check(flinch_world_add_character(world, built, &character), "flinch_world_add_character");

    size_t joints = 0;
    check(flinch_character_joint_count(world, character, &joints), "flinch_character_joint_count");
    double *deviation = calloc(joints, sizeof(double));
    double *max_deviation = calloc(joints, sizeof(double));
    if (deviation == NULL || max_deviation == NULL) {
        fprintf(stderr, "hit_reaction: out of memory\n");
        return 1;
    }

    for (int step = 0; step < STEPS; ++step) {
        if (step == HIT_STEP) {
            check(flinch_world_apply_impulse(world, character, "RightForeArm", NULL, impulse),
                  "flinch_world_apply_impulse");
        }
        check(flinch_world_step(world, 1.0 / RATE_HZ), "flinch_world_step");
        check(flinch_character_joint_deviations(world, character, deviation, joints),
              "flinch_character_joint_deviations");
        for (size_t j = 0; j < joints; ++j) {
            max_deviation[j] = fmax(max_deviation[j], deviation[j]);
        }
    }

    double peak = 0.0;
    size_t peak_joint = 0;
    for (size_t j = 0; j < joints; ++j) {
        char name[NAME_CAPACITY];
        check(flinch_character_joint_name(world, character, j, name, sizeof name, NULL), "flinch_character_joint_name");
        double degrees = max_deviation[j] * (180.0 / pi);
        printf("%s %.17g\n", name, degrees);
        if (degrees > peak) {
            peak = degrees;
            peak_joint = j;
        }
    }
    char peak_name[NAME_CAPACITY];
    check(flinch_character_joint_name(world, character, peak_joint, peak_name, sizeof peak_name, NULL),
          "flinch_character_joint_name");
    double time = 0.0;
    check(flinch_world_time(world, &time), "flinch_world_time");
    printf("summary joints %zu steps %d time %.17g peak_joint %s peak_deg %.17g\n", joints, STEPS, time, peak_name,
           peak);

    check(flinch_world_destroy(world), "flinch_world_destroy");
    free(deviation);
    free(max_deviation);
    return 0;
}
