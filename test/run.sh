#!/usr/bin/env bash
# npm test: the whole mocha suite (every family on every backend) and one closing line
# "N passed, M failed". Builds first if nothing is built yet. Extra arguments go to mocha
# (e.g. npm test -- --grep aead).
set -uo pipefail
cd "$(dirname "$0")/.."
# Both backends are required: a missing one fails the run instead of being skipped.
export NATRIUM_TEST_BACKENDS=${NATRIUM_TEST_BACKENDS:-native,wasm}
if [ ! -f build/Release/natrium.node ] || [ ! -f lib/natrium.wasm ]; then
  npm run build >&2 || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
fi
# lib/esm (the ES module build for browsers, workers and Deno) is a build output: made fresh here
# (it writes only what changed), so the suite always tests the sources as they are.
node scripts/build-esm.js 2>/dev/null || { echo "scripts/build-esm.js failed"; node scripts/build-esm.js; echo "0 passed, 1 failed"; exit 1; }
exec npx --no-install mocha --reporter test/reporter.js --timeout 120000 'test/**/*.test.js' "$@"
