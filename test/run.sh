#!/usr/bin/env bash
# npm test: the whole mocha suite (every family on every backend) and one closing line
# "N passed, M failed". Builds first if nothing is built yet. Extra arguments go to mocha
# (e.g. npm test -- --grep aead).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/Release/natrium.node ]; then
  npm run build >&2 || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
fi
exec npx --no-install mocha --reporter test/reporter.js --timeout 120000 'test/**/*.test.js' "$@"
