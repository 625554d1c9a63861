#!/usr/bin/env bash
# npm test: the whole mocha suite (every family on every backend) and one closing line
# "N passed, M failed". Extra arguments go to mocha (e.g. --grep aead).
set -uo pipefail
cd "$(dirname "$0")/.."
exec npx mocha --reporter test/reporter.js --timeout 120000 'test/**/*.test.js' "$@"
