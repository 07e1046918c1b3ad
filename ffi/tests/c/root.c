/* A free (assisted) root through the C ABI: the walk built from JSON configuration {"root":{"policy":"assisted"}}
 * walks 2 s on its fitted floor in the Tracking state, then a 60 N*s push on the chest makes it stagger (its first
 * balance event is Tracking -> Staggering). Run by ffi/tests/root.rs:
 *
 *     root_c <clip.bvh>
 *
 * Prints "name value" lines (policy, state and events as numbers) and exits 1 when a check fails. */
#include <math.h>
#include <stdio.h>

#include "flinch.h"

static int g_failures = 0;

/* Checks a call's status; prints the last error on failure. */
static int ok(enum FlinchStatus s, const char *what) {
  if (s != FLINCH_STATUS_OK) {
    printf("FAIL %s: status %d: %s\n", what, (int)s, flinch_last_error());
    g_failures++;
    return 0;
  }
  return 1;
}

static void check(int cond, const char *what) {
  if (!cond) {
    printf("FAIL %s\n", what);
    g_failures++;
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: root_c <clip.bvh>\n");
    return 2;
  }
  const double h = 1.0 / 120.0;
  FlinchClip clip = {0};
  FlinchCharacter character = {0};
  FlinchWorld world = {0};
  FlinchCharacterKey key = {0};
  if (!ok(flinch_clip_load_file(argv[1], &clip), "load the clip") ||
      !ok(flinch_character_create(clip, "{\"root\":{\"policy\":\"assisted\"}}", &character), "create assisted") ||
      !ok(flinch_world_create(&world), "create a world") ||
      !ok(flinch_world_add_character(world, character, &key), "add the character")) {
    return 1;
  }
  FlinchRootPolicy policy = FLINCH_ROOT_POLICY_KINEMATIC;
  ok(flinch_character_root_policy(world, key, &policy), "root policy");
  printf("policy %d\n", (int)policy);
  check(policy == FLINCH_ROOT_POLICY_ASSISTED, "the JSON root section made the root assisted");

  /* 2 s of walking: the state must stay Tracking at every step. */
  int tracking_steps = 0;
  for (int i = 0; i < 240; i++) {
    FlinchRootState state = FLINCH_ROOT_STATE_GETTING_UP;
    if (!ok(flinch_world_step(world, h), "step") || !ok(flinch_character_root_state(world, key, &state), "state")) {
      break;
    }
    tracking_steps += state == FLINCH_ROOT_STATE_TRACKING;
  }
  printf("tracking_steps %d\n", tracking_steps);
  check(tracking_steps == 240, "tracking for the whole walk");
  double floor_m = NAN, penetration = NAN, t_hit = NAN;
  ok(flinch_character_ground_floor(world, key, &floor_m), "floor");
  ok(flinch_character_ground_penetration(world, key, &penetration), "penetration");
  ok(flinch_world_time(world, &t_hit), "time");
  printf("floor_m %.6f\n", floor_m);
  printf("penetration_m %.6f\n", penetration);
  check(isfinite(floor_m), "a finite floor");
  check(penetration >= 0.0 && penetration < 0.05, "feet on the floor");
  size_t count = 99;
  ok(flinch_character_root_event_count(world, key, &count), "event count before the hit");
  check(count == 0, "no event before the hit");

  /* The push: 60 N*s on the chest (resolved by role), then 3 s. */
  const double impulse[3] = {60.0, 0.0, 0.0};
  ok(flinch_world_apply_impulse(world, key, "role:chest", NULL, impulse), "push the chest");
  for (int i = 0; i < 360; i++) {
    enum FlinchStatus s = flinch_world_step(world, h);
    if (s != FLINCH_STATUS_RECOVERED && !ok(s, "step after the hit")) break;
  }
  ok(flinch_character_root_event_count(world, key, &count), "event count");
  printf("root_events %zu\n", count);
  check(count > 0, "events after the hit");
  for (size_t i = 0; i < count; i++) {
    FlinchRootEvent e = {0};
    if (!ok(flinch_character_root_event(world, key, i, &e), "event")) break;
    printf("event %.4f %u %u\n", e.time, e.from, e.to);
    if (i == 0) {
      check(e.from == FLINCH_ROOT_STATE_TRACKING && e.to == FLINCH_ROOT_STATE_STAGGERING,
            "first event Tracking -> Staggering");
      check(e.time > t_hit && e.time <= t_hit + 0.1, "first event right after the hit");
    }
  }
  FlinchRootEvent past = {0};
  check(flinch_character_root_event(world, key, count, &past) == FLINCH_STATUS_INVALID_ARGUMENT,
        "event index past the end refused");

  ok(flinch_world_destroy(world), "destroy the world");
  ok(flinch_clip_destroy(clip), "destroy the clip");
  printf("failures %d\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
