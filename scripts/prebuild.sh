#!/usr/bin/env bash
# npm run prebuild: build this machine's prebuild with prebuildify into prebuilds/<platform>-<arch>/
# (Node-API, stripped, libc-tagged on Linux), against libsodium from deps/build.sh.
#   scripts/prebuild.sh          this machine (linux-x64 glibc here; also macOS, Windows, Alpine)
#   scripts/prebuild.sh arm64    linux-arm64 glibc, cross-built on x64 Debian with aarch64-linux-gnu-gcc
#   scripts/prebuild.sh musl     linux-x64 musl, with Debian's musl-gcc (ELF checks: scripts/check-musl.sh)
#   scripts/prebuild.sh arm64-musl  linux-arm64 musl (deps/musl-cross.sh: Debian's arm64 musl with the gcc above)
#   scripts/prebuild.sh win32    win32-x64, cross-built with mingw-w64 (scripts/build-mingw.sh)
# prebuildify runs node-gyp in a staging copy under .cache/, so build/ keeps the local, unstripped
# addon (test/build.test.js reads its symbols). On Linux the glibc floor is checked afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=${1:-native}
if [ "$target" = win32 ]; then exec bash scripts/build-mingw.sh; fi

prefix=$(dirname "$(dirname "$(command -v node)")")
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$prefix/include/node/node_api.h" ]; then
  export npm_config_nodedir="$prefix" # build offline against this Node's own headers
fi
args=(--napi --strip -t "$(node -p process.versions.node)")
[ "$(uname -s)" = Linux ] && args+=(--tag-libc)

case "$target" in
  native) platform=$(node -p '`${process.platform}-${process.arch}`') ;;
  arm64)
    platform=linux-arm64
    # C only, so gcc also links
    export CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-gcc LINK=aarch64-linux-gnu-gcc
    args+=(--arch arm64 --libc glibc --strip-bin aarch64-linux-gnu-strip) ;;
  musl)
    platform=linux-x64
    export CC=musl-gcc CXX=musl-gcc LINK=musl-gcc
    args+=(--libc musl) ;;
  arm64-musl)
    platform=linux-arm64
    CC=$(bash deps/musl-cross.sh)
    export CC CXX=$CC LINK=$CC
    args+=(--arch arm64 --libc musl --strip-bin aarch64-linux-gnu-strip) ;;
  *) echo "prebuild: unknown target '$target' (native, arm64, musl, arm64-musl, win32)" >&2; exit 2 ;;
esac

bash deps/build.sh "$target"
stage="$root/.cache/stage-$platform-$target"
rm -rf "$stage" && mkdir -p "$stage/deps/out"
cp -R binding.gyp package.json src "$stage/"
# the stage's libsodium sits where binding.gyp looks by default, whatever the target
cp -R "deps/out/$target" "$stage/deps/out/native"
# node-gyp is found in ../../node_modules/.bin: prebuildify searches upwards from the stage
npx --no-install prebuildify --cwd="$stage" "${args[@]}"

# the glibc and musl builds of one platform share its folder: replace only this build's files
mkdir -p "prebuilds/$platform"
for f in "$stage/prebuilds/$platform"/*.node; do
  rm -f "prebuilds/$platform/$(basename "$f")"
  cp "$f" "prebuilds/$platform/"
done
rm -rf "$stage"
ls -l "prebuilds/$platform"
case "$target" in
  musl|arm64-musl) bash scripts/check-musl.sh "prebuilds/$platform/natrium.musl.node" ;;
  *) for f in prebuilds/"$platform"/*.glibc.node; do
       if [ -f "$f" ]; then bash scripts/check-glibc.sh "$f"; fi
     done ;;
esac
