#!/usr/bin/env sh
# Installs flinch's C/C++ SDK into a prefix: libflinch.{so,a}, the headers (include/ and the generated C++ bridge
# files the build leaves in LIBDIR/include), pkg-config and CMake files.
#
#   cargo build --release -p flinch-ffi
#   ffi/install.sh /usr/local                       # libraries from target/release (or $CARGO_TARGET_DIR/release)
#   ffi/install.sh "$HOME/.local" path/to/libdir    # libraries from an explicit directory
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:?usage: ffi/install.sh PREFIX [LIBDIR]}
libdir=${2:-${CARGO_TARGET_DIR:-$root/target}/release}
version=$(awk '/#define FLINCH_VERSION_(MAJOR|MINOR|PATCH)/ { v = v (v == "" ? "" : ".") $3 } END { print v }' \
  "$root/include/flinch.h")
for f in libflinch.so libflinch.a include/flinch/src/bridge.rs.h include/rust/cxx.h; do
  [ -f "$libdir/$f" ] || { echo "install.sh: $libdir/$f missing (cargo build --release -p flinch-ffi)" >&2; exit 1; }
done
mkdir -p "$prefix/lib/pkgconfig" "$prefix/lib/cmake/flinch" "$prefix/include"
cp "$libdir/libflinch.so" "$libdir/libflinch.a" "$prefix/lib/"
cp "$root/include/flinch.h" "$prefix/include/"
# The hand-written C++ API, then the C++ files ffi/build.rs generated next to the libraries (the bridge, cxx's runtime).
cp -R "$root/include/flinch" "$libdir/include/rust" "$prefix/include/"
cp -R "$libdir/include/flinch/src" "$prefix/include/flinch/"
for pc in flinch flinch-static; do
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" "$root/ffi/$pc.pc.in" > "$prefix/lib/pkgconfig/$pc.pc"
done
cp "$root/cmake/flinchConfig.cmake" "$prefix/lib/cmake/flinch/"
sed -e "s|@VERSION@|$version|g" "$root/cmake/flinchConfigVersion.cmake.in" \
  > "$prefix/lib/cmake/flinch/flinchConfigVersion.cmake"
echo "installed flinch $version into $prefix"
