/* engine_world: a character in the game's world through the C ABI.
 *
 * Loads a clip (argv[1], default samples/data/cmu_02_01_walk.bvh), loops it without a seam to WALK_SECONDS
 * (flinch_clip_looped), and loads the sample level (argv[2], default samples/level/training_ground.glb) posed
 * along the clip's path (flinch_prepared_clip_root_target): its floor (y = 0 in the file) at the clip's fitted
 * floor, the walker starting 0.6 m before the flight of four 15 cm steps, walking up them, over the 4 m landing
 * and down the four steps on the far side. The clip is then prepared on the level
 * (flinch_prepared_clip_create_on_level: feet raised onto the steps, root and legs adapted) and played on an
 * assisted free root at 120 Hz for 8.6 s:
 *   - the character walks over the stairs on the level's meshes (its soles against the colliders);
 *   - at SWING_TIME, on the floor 1.5 m past the stairs, a kinematic capsule (a bat: 0.45 m half length, 3.5 cm radius,
 *     infinite mass) is swung at 8 m/s through the head, moved every frame with flinch_world_move_collider; its
 *     pushes are hit events naming the collider (it knocks the walker down);
 *   - from BULLET_TIME, 20 ray-cast bullets are fired at the chest from around the character
 *     (flinch_world_cast_ray); a bullet that meets a bone puts 3 N·s on that joint at the hit point
 *     (flinch_world_apply_impulse).
 * Prints the level, the root twice a second, each bullet, each hit event, and one summary line:
 *   summary colliders N steps S bullets B bone_hits H bat_events E max_penetration_m P max_root_rise_m U
 *   swing_root_rise_m W fell_before_swing F final_root_height_m R
 * (max_root_rise_m: the root's highest rise over its start while walking, 0.6 m of stairs; swing_root_rise_m: its
 * rise when the bat comes, back on the floor; fell_before_swing: 1 when the walker lost its balance on the way).
 *
 * Build (static):  cc engine_world.c -Iinclude target/release/libflinch.a -lstdc++ -lpthread -ldl -lm
 * Build (shared):  cc engine_world.c -Iinclude -Ltarget/release -lflinch -Wl,-rpath,target/release -lm
 */
#include <flinch.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE_HZ 120
#define WALK_SECONDS 8.7
#define STEPS (RATE_HZ * 43 / 5)
#define SWING_TIME 7.0
#define SWING_SPEED 8.0
#define SWING_REACH 1.0
#define SWING_FOLLOW_THROUGH 0.2
#define BULLET_STEP (RATE_HZ * 15 / 2)
#define BULLET_EVERY 6
#define BULLETS 20
#define BULLET_IMPULSE 3.0
#define MAX_COLLIDERS 64
#define NAME_CAPACITY 256
/* Where the walk starts in the sample level's frame: 0.6 m before the first of the stairs' steps (x = 1.9),
 * walking along -x (samples/level/training_ground.glb, src/level/sample.rs). */
#define STAIRS_START_X 2.5

static void check(FlinchStatus status, const char *what) {
    if (status != FLINCH_STATUS_OK) {
        fprintf(stderr, "engine_world: %s failed (status %d): %s\n", what, (int)status, flinch_last_error());
        exit(1);
    }
}

/* The index of the first joint named one of `names` (NULL-terminated list); exits when there is none. */
static size_t find_joint(FlinchWorld world, FlinchCharacterKey c, size_t joints, const char *const *names) {
    for (const char *const *n = names; *n != NULL; ++n) {
        for (size_t j = 0; j < joints; ++j) {
            char name[NAME_CAPACITY];
            check(flinch_character_joint_name(world, c, j, name, sizeof name, NULL), "flinch_character_joint_name");
            if (strcmp(name, *n) == 0) return j;
        }
    }
    fprintf(stderr, "engine_world: no joint named %s\n", names[0]);
    exit(1);
}

int main(int argc, char **argv) {
    const char *clip_path = argc > 1 ? argv[1] : "samples/data/cmu_02_01_walk.bvh";
    const char *level_path = argc > 2 ? argv[2] : "samples/level/training_ground.glb";
    const double dt = 1.0 / RATE_HZ;
    const double pi = 3.14159265358979323846;

    printf("flinch %s (header %d.%d.%d)\n", flinch_version(), FLINCH_VERSION_MAJOR, FLINCH_VERSION_MINOR,
           FLINCH_VERSION_PATCH);

    /* The walk, looped to WALK_SECONDS, and where it goes: its fitted floor and its root's path. */
    const char *config = "{\"root\": {\"policy\": \"assisted\"}}";
    FlinchClip clip, walk;
    check(flinch_clip_load_file(clip_path, &clip), "flinch_clip_load_file");
    check(flinch_clip_looped(clip, WALK_SECONDS, &walk), "flinch_clip_looped");
    check(flinch_clip_destroy(clip), "flinch_clip_destroy");
    FlinchPreparedClip flat;
    check(flinch_prepared_clip_create(walk, config, &flat), "flinch_prepared_clip_create");
    double floor_y = 0.0;
    check(flinch_prepared_clip_floor(flat, &floor_y), "flinch_prepared_clip_floor");
    FlinchTransform start, later;
    check(flinch_prepared_clip_root_target(flat, 0.0, &start), "flinch_prepared_clip_root_target");
    check(flinch_prepared_clip_root_target(flat, 1.0, &later), "flinch_prepared_clip_root_target");
    check(flinch_prepared_clip_destroy(flat), "flinch_prepared_clip_destroy");

    /* The level turned about y so that its -x (the stairs' way up) is the walk's heading, its floor at the fitted
     * floor and the walk's start 0.6 m before the first step. */
    double heading = atan2(later.position[2] - start.position[2], -(later.position[0] - start.position[0]));
    FlinchTransform level_pose = {{start.position[0] - STAIRS_START_X * cos(heading), floor_y,
                                   start.position[2] + STAIRS_START_X * sin(heading)},
                                  {0.0, sin(heading / 2.0), 0.0, cos(heading / 2.0)}};
    FlinchWorld world;
    check(flinch_world_create(&world), "flinch_world_create");
    FlinchCollider colliders[MAX_COLLIDERS];
    size_t collider_count = 0;
    check(flinch_world_load_level(world, level_path, &level_pose, colliders, MAX_COLLIDERS, &collider_count),
          "flinch_world_load_level");
    printf("level %s colliders %zu floor %.4f heading %.2f deg\n", level_path, collider_count, floor_y,
           heading * 180.0 / pi);

    /* The walk prepared on the level (its feet onto the steps), and its character added to the world. */
    FlinchPreparedClip on_level;
    check(flinch_prepared_clip_create_on_level(walk, config, world, &on_level),
          "flinch_prepared_clip_create_on_level");
    check(flinch_clip_destroy(walk), "flinch_clip_destroy");
    FlinchCharacterKey walker;
    check(flinch_world_add_prepared(world, on_level, &walker), "flinch_world_add_prepared");
    check(flinch_prepared_clip_destroy(on_level), "flinch_prepared_clip_destroy");

    size_t joints = 0;
    check(flinch_character_joint_count(world, walker, &joints), "flinch_character_joint_count");
    FlinchTransform *pose = calloc(joints, sizeof *pose);
    char (*names)[NAME_CAPACITY] = calloc(joints, sizeof *names);
    if (pose == NULL || names == NULL) {
        fprintf(stderr, "engine_world: out of memory\n");
        return 1;
    }
    for (size_t j = 0; j < joints; ++j) {
        check(flinch_character_joint_name(world, walker, j, names[j], NAME_CAPACITY, NULL),
              "flinch_character_joint_name");
    }
    const char *const head_names[] = {"Head", "head", "Neck1", "Neck", NULL};
    const char *const chest_names[] = {"Spine1", "Spine2", "Chest", "Spine", NULL};
    size_t head = find_joint(world, walker, joints, head_names);
    size_t chest = find_joint(world, walker, joints, chest_names);

    /* The bat: a kinematic capsule lying along z (its local Y turned onto world Z), parked 50 m away. */
    FlinchColliderDesc bat_desc;
    check(flinch_collider_desc_default(&bat_desc), "flinch_collider_desc_default");
    bat_desc.shape = FLINCH_COLLIDER_SHAPE_CAPSULE;
    bat_desc.size[0] = 0.45;
    bat_desc.size[1] = 0.035;
    bat_desc.kinematic = 1;
    bat_desc.name = "bat";
    const double along_z[4] = {sin(pi / 4.0), 0.0, 0.0, cos(pi / 4.0)};
    memcpy(bat_desc.pose.rotation, along_z, sizeof along_z);
    bat_desc.pose.position[1] = 50.0;
    FlinchCollider bat;
    check(flinch_world_add_collider(world, &bat_desc, &bat), "flinch_world_add_collider");

    int bullets = 0, bone_hits = 0, bat_events = 0;
    double max_penetration = 0.0, start_root_y = 0.0, max_root_rise = 0.0, swing_root_rise = 0.0;
    int fell_before_swing = 0;
    const double swing_end = SWING_TIME + (SWING_REACH + SWING_FOLLOW_THROUGH) / SWING_SPEED;
    double swing_at[3] = {0.0, 0.0, 0.0};
    int swing_started = 0;
    for (int step = 0; step < STEPS; ++step) {
        double t = step * dt;
        check(flinch_character_world_transforms(world, walker, pose, joints), "flinch_character_world_transforms");
        if (step == 0) start_root_y = pose[0].position[1];
        if (t < SWING_TIME) {
            double rise = pose[0].position[1] - start_root_y;
            if (rise > max_root_rise) max_root_rise = rise;
            swing_root_rise = rise;
            FlinchRootState state;
            check(flinch_character_root_state(world, walker, &state), "flinch_character_root_state");
            if (state != FLINCH_ROOT_STATE_TRACKING) fell_before_swing = 1;
        }

        /* The swing: a straight pass along -x through where the head is when it starts, from 1 m before it to 0.2 m
         * past it, the bat reaching each pose at the end of the step; then the bat is parked again (a jump: a
         * teleport, at rest). */
        double t1 = t + dt;
        if (t1 >= SWING_TIME && t <= swing_end) {
            if (!swing_started) {
                memcpy(swing_at, pose[head].position, sizeof swing_at);
                swing_started = 1;
            }
            FlinchTransform at = bat_desc.pose;
            if (t1 <= swing_end) {
                at.position[0] = swing_at[0] + SWING_REACH - SWING_SPEED * (t1 - SWING_TIME);
                at.position[1] = swing_at[1];
                at.position[2] = swing_at[2];
            }
            check(flinch_world_move_collider(world, bat, &at, NULL, NULL), "flinch_world_move_collider");
        }
        if (step % (RATE_HZ / 2) == 0) {
            printf("time %.2f root %.3f %.3f %.3f\n", t, pose[0].position[0], pose[0].position[1] - floor_y,
                   pose[0].position[2]);
        }

        /* A bullet every BULLET_EVERY steps from 3 s, 2.5 m away at chest height, around the character. */
        if (step >= BULLET_STEP && (step - BULLET_STEP) % BULLET_EVERY == 0 && bullets < BULLETS) {
            double a = 2.0 * pi * bullets / BULLETS;
            const double *target = pose[chest].position;
            double origin[3] = {target[0] + 2.5 * cos(a), target[1] + 0.1 * sin(3.0 * a), target[2] + 2.5 * sin(a)};
            double direction[3] = {target[0] - origin[0], target[1] - origin[1], target[2] - origin[2]};
            FlinchRayHit hit;
            int any = 0;
            check(flinch_world_cast_ray(world, origin, direction, 10.0, 0xFFFFFFFFu, &hit, &any),
                  "flinch_world_cast_ray");
            if (any && hit.kind == FLINCH_RAY_HIT_KIND_CHARACTER && hit.joint < joints) {
                double n = sqrt(direction[0] * direction[0] + direction[1] * direction[1] +
                                direction[2] * direction[2]);
                double impulse[3] = {BULLET_IMPULSE * direction[0] / n, BULLET_IMPULSE * direction[1] / n,
                                     BULLET_IMPULSE * direction[2] / n};
                check(flinch_world_apply_impulse(world, hit.character, names[hit.joint], hit.point, impulse),
                      "flinch_world_apply_impulse");
                bone_hits++;
                printf("bullet %d t %.3f hit %s distance %.3f point %.3f %.3f %.3f\n", bullets, t, names[hit.joint],
                       hit.distance, hit.point[0], hit.point[1], hit.point[2]);
            } else if (any) {
                printf("bullet %d t %.3f hit collider 0x%llx distance %.3f\n", bullets, t,
                       (unsigned long long)hit.collider.id, hit.distance);
            } else {
                printf("bullet %d t %.3f missed\n", bullets, t);
            }
            bullets++;
        }

        FlinchStatus s = flinch_world_step(world, dt);
        if (s != FLINCH_STATUS_RECOVERED) check(s, "flinch_world_step");
        double penetration = 0.0;
        check(flinch_character_ground_penetration(world, walker, &penetration), "flinch_character_ground_penetration");
        if (penetration > max_penetration) max_penetration = penetration;

        size_t events = 0;
        check(flinch_world_event_count(world, &events), "flinch_world_event_count");
        for (size_t e = 0; e < events; ++e) {
            FlinchHitEvent ev;
            check(flinch_world_event(world, e, &ev), "flinch_world_event");
            const char *bone = ev.joint < joints ? names[ev.joint] : "?";
            double j = sqrt(ev.impulse[0] * ev.impulse[0] + ev.impulse[1] * ev.impulse[1] +
                            ev.impulse[2] * ev.impulse[2]);
            if (ev.collider.id != 0) {
                if (ev.collider.id == bat.id) bat_events++;
                printf("event t %.4f bone %s collider 0x%llx impulse %.4f\n", ev.time, bone,
                       (unsigned long long)ev.collider.id, j);
            } else {
                printf("event t %.4f bone %s %s impulse %.4f\n", ev.time, bone, ev.ball.id ? "ball" : "impulse", j);
            }
        }
    }

    /* The protective fall the bat caused: reach, impact (the bone that touched first), limp. */
    size_t falls = 0;
    check(flinch_character_fall_event_count(world, walker, &falls), "flinch_character_fall_event_count");
    for (size_t i = 0; i < falls; ++i) {
        FlinchFallEvent fall;
        check(flinch_character_fall_event(world, walker, i, &fall), "flinch_character_fall_event");
        static const char *const phases[] = {"reach", "impact", "limp"};
        printf("fall t %.4f %s %s\n", fall.time, fall.phase < 3 ? phases[fall.phase] : "?",
               fall.joint < joints ? names[fall.joint] : "-");
    }

    check(flinch_character_world_transforms(world, walker, pose, joints), "flinch_character_world_transforms");
    printf("summary colliders %zu steps %d bullets %d bone_hits %d bat_events %d max_penetration_m %.6f "
           "max_root_rise_m %.4f swing_root_rise_m %.4f fell_before_swing %d final_root_height_m %.4f\n",
           collider_count, STEPS, bullets, bone_hits, bat_events, max_penetration, max_root_rise, swing_root_rise,
           fell_before_swing, pose[0].position[1] - floor_y);

    check(flinch_world_destroy(world), "flinch_world_destroy");
    free(pose);
    free(names);
    return 0;
}
