#!/usr/bin/env bash
# The Windows leg of .github/workflows/prebuild.yml, on a Windows runner (Git Bash, msbuild on PATH):
# builds the addon the MSVC way (libsodium's Visual Studio solution, node-gyp), runs the whole suite
# on that DLL and then on the mingw-w64 one cross-built on Linux (the one the package ships), each
# as prebuilds/win32-x64/natrium.node with build/ removed, and compares the two side by side
# (scripts/compare-natives.js: functions, constants, answers, speed).
#   scripts/ci-windows.sh <the mingw-w64 natrium.node>
set -euo pipefail
mingw=$(cd "$(dirname "${1:?usage: scripts/ci-windows.sh <mingw natrium.node>}")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund
bash scripts/prebuild.sh # MSVC
rm -rf build .cache/compare && mkdir -p .cache/compare
cp prebuilds/win32-x64/natrium.node .cache/compare/msvc.node
cp "$mingw" .cache/compare/mingw.node
status=0
for build in msvc mingw; do
  cp ".cache/compare/$build.node" prebuilds/win32-x64/natrium.node
  file=$(node -e 'console.log(require("./lib/loader").load("native").file)')
  echo "== the whole suite on the $build build ($file)" >&2
  NATRIUM_TEST_BACKENDS=native,wasm npx --no-install mocha --reporter test/reporter.js --timeout 120000 \
    'test/**/*.test.js' || status=1
done
node scripts/compare-natives.js .cache/compare/mingw.node .cache/compare/msvc.node || status=1
cp .cache/compare/mingw.node prebuilds/win32-x64/natrium.node
exit $status
