#!/usr/bin/env bash
# Refreshes the three.js files vendored into assets/view/vendor/ (bundled into `flinch view` at build time) from
# the `three` package that tools/view-e2e/package-lock.json pins: `npm ci --prefix tools/view-e2e` first, or
# `npm install three@VERSION --prefix tools/view-e2e` to move to another version (then commit the lock too).
set -euo pipefail
cd "$(dirname "$0")/../.."
src=tools/view-e2e/node_modules/three
dst=assets/view/vendor
version=$(node -p "require('./$src/package.json').version")
cp "$src/build/three.module.min.js" "$src/build/three.core.min.js" "$src/LICENSE" "$dst/"
# The add-ons import the bare specifier 'three'; the page has no import map (its Content-Security-Policy allows
# no inline script), so the import points at the bundled module file, and GLTFLoader's '../utils/' at the
# vendor folder itself.
for addon in controls/OrbitControls.js loaders/GLTFLoader.js utils/BufferGeometryUtils.js utils/SkeletonUtils.js; do
  sed -e "s#from 'three';#from './three.module.min.js';#" -e "s#from '\.\./utils/#from './#" \
    "$src/examples/jsm/$addon" > "$dst/$(basename "$addon")"
done
sed -i "s/^Version: .*/Version: $version/" "$dst/README.md"
echo "vendored three $version into $dst"
