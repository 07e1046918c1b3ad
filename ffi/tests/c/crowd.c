/* A crowd from one prepared clip through the C ABI: the clip is prepared once, characters are made from it
 * (flinch_world_add_prepared and flinch_character_create_prepared), and each must step bit for bit like a
 * character built on its own from the clip (flinch_character_create); a hit on one member must change only that
 * member (the shared tables hold no state). Run by ffi/tests/crowd.rs:
 *
 *     crowd <clip.bvh>
 *
 * Prints "crowd_members N", "crowd_equal_before_hit N", "crowd_equal_after_hit N", "hit_member_differs 0|1" and
 * exits 1 when a check fails. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "flinch.h"

#define MEMBERS 6
#define STEPS 60

static void require(enum FlinchStatus s, const char *what) {
  if (s != FLINCH_STATUS_OK) {
    printf("FAIL %s: status %d: %s\n", what, (int)s, flinch_last_error());
    exit(1);
  }
}

static uint64_t hash_of(FlinchWorld world, FlinchCharacterKey key) {
  uint64_t h = 0;
  require(flinch_character_state_hash(world, key, &h), "state hash");
  return h;
}

static void step(FlinchWorld world, int steps) {
  for (int i = 0; i < steps; i++) {
    enum FlinchStatus s = flinch_world_step(world, 1.0 / 120.0);
    if (s != FLINCH_STATUS_OK && s != FLINCH_STATUS_RECOVERED) require(s, "step");
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: crowd <clip.bvh>\n");
    return 2;
  }
  FlinchClip clip = {0};
  require(flinch_clip_load_file(argv[1], &clip), "load the clip");

  /* The reference: one character built on its own, alone in its world. */
  FlinchWorld solo = {0};
  FlinchCharacter own = {0};
  FlinchCharacterKey solo_key = {0};
  require(flinch_world_create(&solo), "create the solo world");
  require(flinch_character_create(clip, NULL, &own), "build the solo character");
  require(flinch_world_add_character(solo, own, &solo_key), "add the solo character");

  /* The crowd: one preparation, MEMBERS characters; the prepared clip is destroyed once they exist. */
  FlinchPreparedClip prepared = {0};
  require(flinch_prepared_clip_create(clip, NULL, &prepared), "prepare the clip");
  FlinchWorld crowd = {0};
  require(flinch_world_create(&crowd), "create the crowd world");
  require(flinch_world_set_character_contacts(crowd, 0), "crowd passes through itself");
  FlinchCharacterKey keys[MEMBERS];
  for (int i = 0; i < MEMBERS; i++) {
    if (i % 2 == 0) {
      require(flinch_world_add_prepared(crowd, prepared, &keys[i]), "add a prepared character");
    } else {
      FlinchCharacter c = {0};
      require(flinch_character_create_prepared(prepared, &c), "make a detached prepared character");
      require(flinch_world_add_character(crowd, c, &keys[i]), "add it");
    }
  }
  require(flinch_prepared_clip_destroy(prepared), "destroy the prepared clip");

  step(solo, STEPS);
  step(crowd, STEPS);
  uint64_t want = hash_of(solo, solo_key);
  int equal_before = 0;
  for (int i = 0; i < MEMBERS; i++) equal_before += hash_of(crowd, keys[i]) == want;

  const double impulse[3] = {0.0, 0.0, 5.0};
  require(flinch_world_apply_impulse(crowd, keys[0], "RightForeArm", NULL, impulse), "hit member 0");
  step(solo, STEPS);
  step(crowd, STEPS);
  want = hash_of(solo, solo_key);
  int equal_after = 0;
  for (int i = 1; i < MEMBERS; i++) equal_after += hash_of(crowd, keys[i]) == want;
  int hit_differs = hash_of(crowd, keys[0]) != want;

  printf("crowd_members %d\n", MEMBERS);
  printf("crowd_equal_before_hit %d\n", equal_before);
  printf("crowd_equal_after_hit %d\n", equal_after);
  printf("hit_member_differs %d\n", hit_differs);
  require(flinch_world_destroy(crowd), "destroy the crowd");
  require(flinch_world_destroy(solo), "destroy the solo world");
  require(flinch_clip_destroy(clip), "destroy the clip");
  return equal_before == MEMBERS && equal_after == MEMBERS - 1 && hit_differs ? 0 : 1;
}
