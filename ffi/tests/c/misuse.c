/* The C ABI misused on purpose: every case calls flinch the way a buggy engine would and checks that the call
 * returns the documented status with a message from flinch_last_error(), and that the process survives (built
 * with -fsanitize=address when the compiler supports it, so a use after free or an overflow inside the library
 * would abort the run). Run by ffi/tests/misuse.rs:
 *
 *     misuse <short clip.bvh> <scratch folder>
 *
 * Prints one line per case ("ok <name>" or "FAIL <name>: ...") and "misuse_cases_ok N of M"; exits 1 on a
 * failure. The level's cases (refused shapes, stale and foreign colliders, bad casts and level files) come last. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flinch.h"

static int g_ok = 0, g_total = 0;

/* Checks `got` against `want` and that the last error names `function`. */
static void expect(const char *name, enum FlinchStatus got, enum FlinchStatus want, const char *function) {
  const char *msg = flinch_last_error();
  g_total++;
  if (got != want) {
    printf("FAIL %s: status %d, expected %d (%s)\n", name, (int)got, (int)want, msg ? msg : "(null)");
    return;
  }
  if (want != FLINCH_STATUS_OK && (msg == NULL || msg[0] == '\0' || (function && !strstr(msg, function)))) {
    printf("FAIL %s: status %d but last error \"%s\" does not name %s\n", name, (int)got, msg ? msg : "(null)",
           function ? function : "?");
    return;
  }
  g_ok++;
  printf("ok %s (%d): %s\n", name, (int)got, want == FLINCH_STATUS_OK ? "" : msg);
}

static void require(int cond, const char *what) {
  if (!cond) {
    printf("setup failed: %s: %s\n", what, flinch_last_error());
    exit(2);
  }
}

struct StepArgs {
  FlinchWorld world;
  int steps;
  int failures;
};

static void *step_world(void *p) {
  struct StepArgs *a = (struct StepArgs *)p;
  for (int i = 0; i < a->steps; i++) {
    if (flinch_world_step(a->world, 1.0 / 120.0) != FLINCH_STATUS_OK) a->failures++;
  }
  return NULL;
}

struct DestroyArgs {
  FlinchWorld world;
  enum FlinchStatus status;
};

static void *destroy_world(void *p) {
  struct DestroyArgs *a = (struct DestroyArgs *)p;
  a->status = flinch_world_destroy(a->world);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: misuse <clip.bvh> <scratch folder>\n");
    return 2;
  }
  const char *clip_path = argv[1];
  const char *scratch = argv[2];
  FlinchClip clip = {0};
  FlinchCharacter character = {0};
  FlinchWorld world = {0};
  FlinchCharacterKey key = {0};

  /* --- NULL pointers --- */
  expect("null_path", flinch_clip_load_file(NULL, &clip), FLINCH_STATUS_NULL_POINTER, "flinch_clip_load_file");
  expect("null_out", flinch_clip_load_file(clip_path, NULL), FLINCH_STATUS_NULL_POINTER, "flinch_clip_load_file");
  expect("null_data", flinch_clip_load_memory(NULL, 10, FLINCH_FORMAT_BVH, NULL, &clip), FLINCH_STATUS_NULL_POINTER,
         "flinch_clip_load_memory");
  expect("null_world_out", flinch_world_create(NULL), FLINCH_STATUS_NULL_POINTER, "flinch_world_create");

  /* --- strings: non-UTF-8, missing, unknown --- */
  expect("non_utf8_path", flinch_clip_load_file("clip\xff\xfe.bvh", &clip), FLINCH_STATUS_INVALID_ARGUMENT,
         "flinch_clip_load_file");
  expect("missing_file", flinch_clip_load_file("/nonexistent/flinch/clip.bvh", &clip), FLINCH_STATUS_IO,
         "flinch_clip_load_file");
  expect("unknown_extension", flinch_clip_load_file("clip.txt", &clip), FLINCH_STATUS_INVALID_ARGUMENT,
         "flinch_clip_load_file");

  /* --- invalid enum value, garbage bytes --- */
  static const uint8_t garbage[] = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 nan 0\n";
  expect("invalid_format_enum", flinch_clip_load_memory(garbage, sizeof garbage, 7, NULL, &clip),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_clip_load_memory");
  expect("invalid_negative_enum", flinch_clip_load_memory(garbage, sizeof garbage, -1, NULL, &clip),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_clip_load_memory");
  expect("garbage_bvh", flinch_clip_load_memory(garbage, sizeof garbage, FLINCH_FORMAT_BVH, "garbage", &clip),
         FLINCH_STATUS_PARSE, "garbage");
  expect("garbage_glb", flinch_clip_load_memory(garbage, sizeof garbage, FLINCH_FORMAT_GLB, NULL, &clip),
         FLINCH_STATUS_PARSE, "flinch_clip_load_memory");

  /* --- a real clip, then its handle misused --- */
  require(flinch_clip_load_file(clip_path, &clip) == FLINCH_STATUS_OK, "load the clip");
  /* A live world whose raw slot and generation equal the clip's: a kind-less handle would alias it. */
  require(flinch_world_create(&world) == FLINCH_STATUS_OK, "create a world");
  expect("null_handle", flinch_clip_destroy((FlinchClip){0}), FLINCH_STATUS_INVALID_HANDLE, "null handle");
  expect("forged_handle", flinch_clip_destroy((FlinchClip){0x1234567800000042ull}), FLINCH_STATUS_INVALID_HANDLE,
         "never issued");
  expect("clip_as_world", flinch_world_step((FlinchWorld){clip.id}, 0.01), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_world_step");
  expect("bad_config_json", flinch_character_create(clip, "{\"gains\": {\"k_s\": \"stiff\"}}", &character),
         FLINCH_STATUS_CONFIG, "config_json");
  expect("non_utf8_config", flinch_character_create(clip, "{\"model\": \"\xc3\x28\"}", &character),
         FLINCH_STATUS_INVALID_ARGUMENT, "UTF-8");
  expect("negative_rate_config", flinch_character_create(clip, "{\"preprocess\": {\"rate_hz\": -1}}", &character),
         FLINCH_STATUS_SIMULATION, "flinch_character_create");
  require(flinch_character_create(clip, NULL, &character) == FLINCH_STATUS_OK, "create the character");
  expect("clip_destroy", flinch_clip_destroy(clip), FLINCH_STATUS_OK, NULL);
  expect("double_free_clip", flinch_clip_destroy(clip), FLINCH_STATUS_INVALID_HANDLE, "stale handle");
  size_t count = 0;
  expect("use_after_free_clip", flinch_clip_joint_count(clip, &count), FLINCH_STATUS_INVALID_HANDLE,
         "stale handle");

  /* --- worlds, keys, buffers --- */
  require(flinch_world_add_character(world, character, &key) == FLINCH_STATUS_OK, "add the character");
  expect("moved_character_reused", flinch_world_add_character(world, character, &key), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_world_add_character");
  expect("moved_character_destroyed", flinch_character_destroy(character), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_character_destroy");
  size_t joints = 0;
  require(flinch_character_joint_count(world, key, &joints) == FLINCH_STATUS_OK && joints > 1, "joint count");
  char small[2];
  size_t length = 0;
  expect("name_buffer_too_small", flinch_character_joint_name(world, key, 0, small, sizeof small, &length),
         FLINCH_STATUS_BUFFER_TOO_SMALL, "flinch_character_joint_name");
  expect("name_length_reported", length > 0 ? FLINCH_STATUS_OK : FLINCH_STATUS_PANIC, FLINCH_STATUS_OK, NULL);
  expect("name_null_buffer", flinch_character_joint_name(world, key, 0, NULL, 64, &length),
         FLINCH_STATUS_NULL_POINTER, "flinch_character_joint_name");
  expect("name_index_out_of_range", flinch_character_joint_name(world, key, joints, small, sizeof small, NULL),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_character_joint_name");
  FlinchTransform *transforms = calloc(joints, sizeof *transforms);
  expect("transforms_capacity_short", flinch_character_world_transforms(world, key, transforms, joints - 1),
         FLINCH_STATUS_BUFFER_TOO_SMALL, "flinch_character_world_transforms");
  expect("transforms_zero_capacity", flinch_character_world_transforms(world, key, transforms, 0),
         FLINCH_STATUS_BUFFER_TOO_SMALL, "flinch_character_world_transforms");
  double *deviations = calloc(joints, sizeof *deviations);
  expect("deviations_capacity_short", flinch_character_joint_deviations(world, key, deviations, 1),
         FLINCH_STATUS_BUFFER_TOO_SMALL, "flinch_character_joint_deviations");

  /* --- NaN and absurd numbers --- */
  expect("step_nan", flinch_world_step(world, NAN), FLINCH_STATUS_INVALID_ARGUMENT, "flinch_world_step");
  expect("step_negative", flinch_world_step(world, -0.01), FLINCH_STATUS_INVALID_ARGUMENT, "flinch_world_step");
  expect("step_infinite", flinch_world_step(world, INFINITY), FLINCH_STATUS_INVALID_ARGUMENT, "flinch_world_step");
  const double nan_impulse[3] = {NAN, 0.0, 0.0};
  const double inf_point[3] = {INFINITY, 0.0, 0.0};
  const double impulse[3] = {1.0, 0.0, 0.0};
  expect("impulse_nan", flinch_world_apply_impulse(world, key, "Hips", NULL, nan_impulse),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_world_apply_impulse");
  expect("impulse_point_inf", flinch_world_apply_impulse(world, key, "Hips", inf_point, impulse),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_world_apply_impulse");
  expect("impulse_null_vector", flinch_world_apply_impulse(world, key, "Hips", NULL, NULL),
         FLINCH_STATUS_NULL_POINTER, "flinch_world_apply_impulse");
  expect("impulse_unknown_bone", flinch_world_apply_impulse(world, key, "NoSuchBone", NULL, impulse),
         FLINCH_STATUS_UNKNOWN_BONE, "NoSuchBone");
  expect("impulse_non_utf8_bone", flinch_world_apply_impulse(world, key, "Hip\xff", NULL, impulse),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_world_apply_impulse");
  const double origin[3] = {0.0, 1.0, 2.0}, velocity[3] = {0.0, 0.0, -5.0};
  FlinchBall ball = {0};
  expect("ball_negative_radius", flinch_world_spawn_ball(world, -0.1, 0.45, origin, velocity, &ball),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_world_spawn_ball");
  expect("ball_nan_mass", flinch_world_spawn_ball(world, 0.1, NAN, origin, velocity, &ball),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_world_spawn_ball");
  expect("event_out_of_range", flinch_world_event(world, 5, &(FlinchHitEvent){0}), FLINCH_STATUS_INVALID_ARGUMENT,
         "flinch_world_event");

  /* --- free roots: bad enum values, NaN and out-of-range weights, NULL outputs, indices past the end --- */
  expect("root_policy_bad_enum", flinch_character_set_root_policy(world, key, 4), FLINCH_STATUS_INVALID_ARGUMENT,
         "not a FlinchRootPolicy");
  expect("root_policy_negative_enum", flinch_character_set_root_policy(world, key, -1),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_character_set_root_policy");
  expect("assist_weight_nan", flinch_character_set_assist_weight(world, key, NAN), FLINCH_STATUS_INVALID_ARGUMENT,
         "flinch_character_set_assist_weight");
  expect("assist_weight_infinite", flinch_character_set_assist_weight(world, key, INFINITY),
         FLINCH_STATUS_INVALID_ARGUMENT, "flinch_character_set_assist_weight");
  expect("assist_weight_above_one", flinch_character_set_assist_weight(world, key, 1.5),
         FLINCH_STATUS_INVALID_ARGUMENT, "[0, 1]");
  expect("root_policy_null_out", flinch_character_root_policy(world, key, NULL), FLINCH_STATUS_NULL_POINTER,
         "flinch_character_root_policy");
  expect("root_state_null_out", flinch_character_root_state(world, key, NULL), FLINCH_STATUS_NULL_POINTER,
         "flinch_character_root_state");
  expect("root_event_count_null_out", flinch_character_root_event_count(world, key, NULL),
         FLINCH_STATUS_NULL_POINTER, "flinch_character_root_event_count");
  expect("root_event_null_out", flinch_character_root_event(world, key, 0, NULL), FLINCH_STATUS_NULL_POINTER,
         "flinch_character_root_event");
  expect("ground_floor_null_out", flinch_character_ground_floor(world, key, NULL), FLINCH_STATUS_NULL_POINTER,
         "flinch_character_ground_floor");
  expect("ground_penetration_null_out", flinch_character_ground_penetration(world, key, NULL),
         FLINCH_STATUS_NULL_POINTER, "flinch_character_ground_penetration");
  expect("root_event_out_of_range", flinch_character_root_event(world, key, 0, &(FlinchRootEvent){0}),
         FLINCH_STATUS_INVALID_ARGUMENT, "out of range");
  double floor_m = 0.0;
  expect("ground_floor_kinematic", flinch_character_ground_floor(world, key, &floor_m),
         FLINCH_STATUS_INVALID_ARGUMENT, "kinematic root");
  FlinchRootPolicy root_policy = FLINCH_ROOT_POLICY_FREE;
  expect("root_policy_unchanged",
         flinch_character_root_policy(world, key, &root_policy) == FLINCH_STATUS_OK &&
                 root_policy == FLINCH_ROOT_POLICY_KINEMATIC
             ? FLINCH_STATUS_OK
             : FLINCH_STATUS_PANIC,
         FLINCH_STATUS_OK, NULL);
  /* A clip without feet (a three-bone chain) cannot stand on a free root. */
  static const char no_feet[] =
      "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation "
      "Yrotation\n JOINT Spine\n {\n  OFFSET 0 20 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  JOINT Head\n"
      "  {\n   OFFSET 0 20 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n   End Site\n   {\n    OFFSET 0 10 0\n"
      "   }\n  }\n }\n}\nMOTION\nFrames: 3\nFrame Time: 0.0333333\n0 90 0 0 0 0 0 0 0 0 0 0\n"
      "0 90 0 0 0 0 5 0 0 2 0 0\n0 90 0 0 0 0 10 0 0 4 0 0\n";
  FlinchClip chain = {0};
  FlinchCharacter chain_character = {0};
  FlinchCharacterKey chain_key = {0};
  require(flinch_clip_load_memory((const uint8_t *)no_feet, sizeof no_feet - 1, FLINCH_FORMAT_BVH, "chain", &chain) ==
                  FLINCH_STATUS_OK &&
              flinch_character_create(chain, NULL, &chain_character) == FLINCH_STATUS_OK &&
              flinch_world_add_character(world, chain_character, &chain_key) == FLINCH_STATUS_OK,
          "a character without feet");
  expect("free_root_without_feet", flinch_character_set_root_policy(world, chain_key, FLINCH_ROOT_POLICY_FREE),
         FLINCH_STATUS_SIMULATION, "no feet");
  expect("free_root_config_without_feet",
         flinch_character_create(chain, "{\"root\": {\"policy\": \"assisted\"}}", &chain_character),
         FLINCH_STATUS_SIMULATION, "no feet");
  require(flinch_world_remove_character(world, chain_key, NULL) == FLINCH_STATUS_OK &&
              flinch_clip_destroy(chain) == FLINCH_STATUS_OK,
          "remove the character without feet");

  /* --- two threads on one world: serialized by its lock, both succeed --- */
  double t0 = 0.0, t1 = 0.0;
  flinch_world_time(world, &t0);
  struct StepArgs a = {world, 12, 0}, b = {world, 12, 0};
  pthread_t ta, tb;
  pthread_create(&ta, NULL, step_world, &a);
  pthread_create(&tb, NULL, step_world, &b);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  flinch_world_time(world, &t1);
  expect("two_threads_one_world",
         (a.failures == 0 && b.failures == 0 && fabs((t1 - t0) - 24.0 / 120.0) < 1e-9) ? FLINCH_STATUS_OK
                                                                                      : FLINCH_STATUS_PANIC,
         FLINCH_STATUS_OK, NULL);

  /* --- stale keys, wrong world, double destroy, destroy racing a step --- */
  FlinchWorld other = {0};
  require(flinch_world_create(&other) == FLINCH_STATUS_OK, "a second world");
  expect("key_of_other_world", flinch_character_joint_count(other, key, &count), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_character_joint_count");
  expect("remove_character", flinch_world_remove_character(world, key, NULL), FLINCH_STATUS_OK, NULL);
  expect("stale_key", flinch_character_joint_count(world, key, &count), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_character_joint_count");
  FlinchRootState root_state = FLINCH_ROOT_STATE_TRACKING;
  expect("root_state_stale_key", flinch_character_root_state(world, key, &root_state), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_character_root_state");
  expect("set_root_policy_stale_key", flinch_character_set_root_policy(world, key, FLINCH_ROOT_POLICY_ASSISTED),
         FLINCH_STATUS_INVALID_HANDLE, "not in this world");
  expect("remove_character_twice", flinch_world_remove_character(world, key, NULL), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_world_remove_character");
  expect("world_destroy", flinch_world_destroy(world), FLINCH_STATUS_OK, NULL);
  expect("double_free_world", flinch_world_destroy(world), FLINCH_STATUS_INVALID_HANDLE, "flinch_world_destroy");
  expect("use_after_free_world", flinch_world_step(world, 0.01), FLINCH_STATUS_INVALID_HANDLE, "flinch_world_step");
  struct StepArgs s = {other, 50, 0};
  struct DestroyArgs d = {other, FLINCH_STATUS_PANIC};
  pthread_create(&ta, NULL, step_world, &s);
  pthread_create(&tb, NULL, destroy_world, &d);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  expect("destroy_while_stepping", d.status, FLINCH_STATUS_OK, NULL);
  expect("step_after_concurrent_destroy", flinch_world_step(other, 0.01), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_world_step");

  /* --- prepared clips: wrong kinds, double free, use after free, characters outliving their prepared clip --- */
  FlinchClip pclip = {0};
  require(flinch_clip_load_file(clip_path, &pclip) == FLINCH_STATUS_OK, "load the clip to prepare");
  FlinchPreparedClip prepared = {0};
  expect("prepare_null_out", flinch_prepared_clip_create(pclip, NULL, NULL), FLINCH_STATUS_NULL_POINTER,
         "flinch_prepared_clip_create");
  expect("prepare_bad_config", flinch_prepared_clip_create(pclip, "{\"gains\": 3}", &prepared), FLINCH_STATUS_CONFIG,
         "config_json");
  expect("prepare", flinch_prepared_clip_create(pclip, NULL, &prepared), FLINCH_STATUS_OK, NULL);
  FlinchCharacter pchar = {0};
  expect("clip_as_prepared", flinch_character_create_prepared((FlinchPreparedClip){pclip.id}, &pchar),
         FLINCH_STATUS_INVALID_HANDLE, "never issued");
  double pdur = 0.0;
  expect("prepared_as_clip", flinch_clip_duration((FlinchClip){prepared.id}, &pdur), FLINCH_STATUS_INVALID_HANDLE,
         "never issued");
  expect("prepared_null_handle", flinch_prepared_clip_duration((FlinchPreparedClip){0}, &pdur),
         FLINCH_STATUS_INVALID_HANDLE, "null handle");
  require(flinch_clip_destroy(pclip) == FLINCH_STATUS_OK, "destroy the prepared clip's source");
  expect("prepared_outlives_clip", flinch_prepared_clip_duration(prepared, &pdur), FLINCH_STATUS_OK, NULL);
  FlinchWorld pworld = {0};
  require(flinch_world_create(&pworld) == FLINCH_STATUS_OK, "create a world for prepared characters");
  require(flinch_world_set_character_contacts(pworld, 0) == FLINCH_STATUS_OK, "copies pass through each other");
  FlinchCharacterKey pkey = {0};
  expect("add_prepared_null_out", flinch_world_add_prepared(pworld, prepared, NULL), FLINCH_STATUS_NULL_POINTER,
         "flinch_world_add_prepared");
  expect("add_prepared", flinch_world_add_prepared(pworld, prepared, &pkey), FLINCH_STATUS_OK, NULL);
  expect("create_prepared", flinch_character_create_prepared(prepared, &pchar), FLINCH_STATUS_OK, NULL);
  expect("prepared_destroy", flinch_prepared_clip_destroy(prepared), FLINCH_STATUS_OK, NULL);
  expect("double_free_prepared", flinch_prepared_clip_destroy(prepared), FLINCH_STATUS_INVALID_HANDLE,
         "stale handle");
  expect("use_after_free_prepared", flinch_world_add_prepared(pworld, prepared, &pkey), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_world_add_prepared");
  expect("detached_outlives_prepared", flinch_world_add_character(pworld, pchar, &pkey), FLINCH_STATUS_OK, NULL);
  expect("characters_outlive_prepared", flinch_world_step(pworld, 1.0 / 120.0), FLINCH_STATUS_OK, NULL);
  require(flinch_world_destroy(pworld) == FLINCH_STATUS_OK, "destroy the prepared characters' world");

  /* --- bakes: missing output, output = input --- */
  expect("bake_null_output", flinch_bake_file(NULL, NULL, NULL, NULL, 120.0, NULL), FLINCH_STATUS_NULL_POINTER,
         "flinch_bake_file");
  char input_copy[4096];
  snprintf(input_copy, sizeof input_copy, "%s/misuse_input.bvh", scratch);
  FILE *in = fopen(clip_path, "rb");
  FILE *out = fopen(input_copy, "wb");
  require(in && out, "copy the clip");
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) fwrite(chunk, 1, n, out);
  fclose(in);
  fclose(out);
  FILE *before = fopen(input_copy, "rb");
  fseek(before, 0, SEEK_END);
  long size_before = ftell(before);
  fclose(before);
  expect("bake_over_its_input", flinch_bake_file(input_copy, input_copy, NULL, NULL, 120.0, NULL), FLINCH_STATUS_IO,
         "refusing to overwrite");
  FILE *after = fopen(input_copy, "rb");
  fseek(after, 0, SEEK_END);
  long size_after = ftell(after);
  fclose(after);
  expect("input_unchanged", size_after == size_before ? FLINCH_STATUS_OK : FLINCH_STATUS_PANIC, FLINCH_STATUS_OK,
         NULL);

  /* --- the level: refused shapes, stale and foreign colliders, casts and level files misused --- */
  FlinchWorld lworld = {0}, lother = {0};
  require(flinch_world_create(&lworld) == FLINCH_STATUS_OK, "create a world for colliders");
  require(flinch_world_create(&lother) == FLINCH_STATUS_OK, "create a second world for colliders");
  FlinchColliderDesc cd;
  expect("collider_desc_default", flinch_collider_desc_default(&cd), FLINCH_STATUS_OK, NULL);
  FlinchCollider col = {0};
  expect("add_collider_null_desc", flinch_world_add_collider(lworld, NULL, &col), FLINCH_STATUS_NULL_POINTER,
         "flinch_world_add_collider");
  const double nan_vertices[9] = {0, 0, 0, 1, 0, 0, 0, NAN, 1};
  const uint32_t triangle[3] = {0, 1, 2};
  cd.shape = FLINCH_COLLIDER_SHAPE_TRIANGLE_MESH;
  cd.points = nan_vertices;
  cd.point_count = 3;
  cd.triangles = triangle;
  cd.triangle_count = 1;
  expect("mesh_nan_vertex", flinch_world_add_collider(lworld, &cd, &col), FLINCH_STATUS_INVALID_ARGUMENT,
         "not finite");
  cd.point_count = 0;
  cd.triangle_count = 0;
  expect("mesh_empty", flinch_world_add_collider(lworld, &cd, &col), FLINCH_STATUS_INVALID_ARGUMENT, "empty mesh");
  cd.points = NULL;
  cd.point_count = 3;
  expect("mesh_null_points", flinch_world_add_collider(lworld, &cd, &col), FLINCH_STATUS_NULL_POINTER, "`points`");
  const double nan_heights[4] = {0, 0, NAN, 0};
  cd.shape = FLINCH_COLLIDER_SHAPE_HEIGHT_FIELD;
  cd.points = nan_heights;
  cd.point_count = 4;
  cd.rows = 2;
  cd.cols = 2;
  cd.size_x = 1.0;
  cd.size_z = 1.0;
  expect("height_field_nan", flinch_world_add_collider(lworld, &cd, &col), FLINCH_STATUS_INVALID_ARGUMENT,
         "height field");
  cd.shape = 99;
  expect("collider_bad_shape_enum", flinch_world_add_collider(lworld, &cd, &col), FLINCH_STATUS_INVALID_ARGUMENT,
         "FlinchColliderShape");
  require(flinch_collider_desc_default(&cd) == FLINCH_STATUS_OK, "reset the description");
  cd.pose.rotation[3] = 0.0;
  expect("collider_zero_rotation", flinch_world_add_collider(lworld, &cd, &col), FLINCH_STATUS_INVALID_ARGUMENT,
         "`pose`");
  require(flinch_collider_desc_default(&cd) == FLINCH_STATUS_OK, "reset the description");
  cd.shape = FLINCH_COLLIDER_SHAPE_BOX;
  cd.size[0] = cd.size[1] = cd.size[2] = 0.5;
  FlinchCollider foreign = {0};
  require(flinch_world_add_collider(lother, &cd, &foreign) == FLINCH_STATUS_OK, "a collider in the other world");
  expect("add_box", flinch_world_add_collider(lworld, &cd, &col), FLINCH_STATUS_OK, NULL);
  FlinchTransform lpose = {{0, 1, 0}, {0, 0, 0, 1}};
  expect("move_static_collider", flinch_world_move_collider(lworld, col, &lpose, NULL, NULL),
         FLINCH_STATUS_INVALID_ARGUMENT, "static");
  expect("remove_foreign_collider", flinch_world_remove_collider(lworld, foreign), FLINCH_STATUS_INVALID_HANDLE,
         "flinch_world_remove_collider");
  expect("remove_collider", flinch_world_remove_collider(lworld, col), FLINCH_STATUS_OK, NULL);
  expect("double_remove_collider", flinch_world_remove_collider(lworld, col), FLINCH_STATUS_INVALID_HANDLE,
         "stale collider");
  expect("forged_collider", flinch_world_remove_collider(lworld, (FlinchCollider){0x1234567}),
         FLINCH_STATUS_INVALID_HANDLE, "stale collider");
  FlinchRayHit rh;
  int rhit = 0;
  const double ro[3] = {0, 1, 0}, rd[3] = {0, -1, 0}, rzero[3] = {0, 0, 0};
  expect("cast_ray_null_hit", flinch_world_cast_ray(lworld, ro, rd, 10.0, 0xFFFFFFFFu, &rh, NULL),
         FLINCH_STATUS_NULL_POINTER, "`hit`");
  expect("cast_ray_zero_direction", flinch_world_cast_ray(lworld, ro, rzero, 10.0, 0xFFFFFFFFu, &rh, &rhit),
         FLINCH_STATUS_INVALID_ARGUMENT, "direction");
  expect("cast_sphere_nan_radius", flinch_world_cast_sphere(lworld, ro, NAN, rd, 10.0, 0xFFFFFFFFu, &rh, &rhit),
         FLINCH_STATUS_INVALID_ARGUMENT, "radius");
  char missing_level[4096];
  snprintf(missing_level, sizeof missing_level, "%s/no_such_level.glb", scratch);
  size_t lcount = 0;
  expect("load_missing_level", flinch_world_load_level(lworld, missing_level, NULL, NULL, 0, &lcount),
         FLINCH_STATUS_IO, "no_such_level.glb");
  expect("load_clip_as_level", flinch_world_load_level(lworld, clip_path, NULL, NULL, 0, &lcount), FLINCH_STATUS_PARSE,
         "flinch_world_load_level");
  expect("world_destroyed_colliders", flinch_world_destroy(lother), FLINCH_STATUS_OK, NULL);
  expect("collider_of_destroyed_world", flinch_world_remove_collider(lother, foreign), FLINCH_STATUS_INVALID_HANDLE,
         "world");
  require(flinch_world_destroy(lworld) == FLINCH_STATUS_OK, "destroy the colliders' world");

  free(transforms);
  free(deviations);
  printf("misuse_cases_ok %d of %d\n", g_ok, g_total);
  return g_ok == g_total ? 0 : 1;
}
