#!/usr/bin/env bash
# One cross-built leg of .github/workflows/prebuild.yml, the way .ci/run makes the same files here,
# on Debian 12 (the workflow's debian:12 container): installs the toolchain, then
#   scripts/ci-cross.sh musl         prebuilds/linux-x64/natrium.musl.node    (musl-gcc; ELF checks)
#   scripts/ci-cross.sh arm64-musl   prebuilds/linux-arm64/natrium.musl.node  (deps/musl-cross.sh)
#   scripts/ci-cross.sh win32        prebuilds/win32-x64/natrium.node         (mingw-w64; import table)
# and the checks that need no Node of that platform (test/platform.test.js, test/build.test.js).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/ci-cross.sh musl|arm64-musl|win32}
packages=(build-essential python3 curl ca-certificates)
case "$target" in
  musl) packages+=(musl-tools) ;;
  arm64-musl) packages+=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user) ;;
  win32) packages+=(gcc-mingw-w64-x86-64) ;;
  *) echo "ci-cross: unknown target '$target'" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
npm ci --no-audit --no-fund
bash scripts/prebuild.sh "$target"
case "$target" in
  win32) npx --no-install mocha --reporter test/reporter.js --timeout 120000 test/build.test.js --grep 'Windows build' ;;
  *) npx --no-install mocha --reporter test/reporter.js --timeout 120000 test/platform.test.js --grep 'musl' ;;
esac
