#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ (git-ignored) for libFuzzer runs: the committed seeds of fuzz/seeds/<target>/ plus
# the shared corpus files of the target's format ($FLINCH_DATA, else ../shared/data). The ffi_clip_memory seeds
# get their format byte (0 BVH, 1 glTF, 2 GLB, 3 URDF) prepended.
#
#   fuzz/seed_corpus.sh && cd fuzz && cargo +nightly fuzz run bvh corpus/bvh -- -max_total_time=600
set -euo pipefail
cd "$(dirname "$0")"
data="${FLINCH_DATA:-../../shared/data}"
[ -d "$data" ] || data="../${FLINCH_DATA:-../shared/data}"
[ -d "$data" ] || { echo "corpus not found (set FLINCH_DATA)" >&2; exit 1; }

for t in bvh gltf urdf hits character_config ffi_clip_memory ffi_character_config; do
  mkdir -p "corpus/$t"
  [ -d "seeds/$t" ] && cp seeds/"$t"/* "corpus/$t/" 2>/dev/null || true
done
cp "$data"/bvh/*.bvh corpus/bvh/
cp "$data"/gltf/*.gl* corpus/gltf/
cp "$data"/urdf/*.urdf corpus/urdf/
for f in "$data"/bvh/*.bvh seeds/bvh/*.bvh; do
  { printf '\x00'; head -c 65536 "$f"; } > "corpus/ffi_clip_memory/bvh_$(basename "$f")"
done
for f in "$data"/gltf/*.gltf; do { printf '\x01'; cat "$f"; } > "corpus/ffi_clip_memory/gltf_$(basename "$f")"; done
for f in "$data"/gltf/*.glb; do { printf '\x02'; cat "$f"; } > "corpus/ffi_clip_memory/glb_$(basename "$f")"; done
for f in "$data"/urdf/*.urdf; do { printf '\x03'; cat "$f"; } > "corpus/ffi_clip_memory/urdf_$(basename "$f")"; done
cp seeds/hits/* corpus/character_config/ 2>/dev/null || true
cp seeds/character_config/* corpus/hits/ 2>/dev/null || true
echo "seeded: $(for t in corpus/*; do printf '%s=%s ' "$(basename "$t")" "$(ls "$t" | wc -l)"; done)"
