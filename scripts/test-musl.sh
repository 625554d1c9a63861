#!/usr/bin/env bash
# npm run test:musl: the linux musl prebuilds (x64 with Debian's musl-gcc; arm64 with deps/musl-cross.sh,
# made when there is none), checked from the ELF (scripts/check-musl.sh) and loaded without Node under
# musl's own dynamic loader (arm64 under qemu) by test/platform.test.js. No musl Node runs here, so the
# test suite itself cannot: the GitHub workflow runs it in Alpine. Ends with "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f prebuilds/linux-x64/natrium.musl.node ] || bash scripts/prebuild.sh musl
[ -f prebuilds/linux-arm64/natrium.musl.node ] || bash scripts/prebuild.sh arm64-musl
for f in prebuilds/linux-x64/natrium.musl.node prebuilds/linux-arm64/natrium.musl.node; do
  bash scripts/check-musl.sh "$f"
done
NATRIUM_TEST_BACKENDS=native exec npx --no-install mocha --reporter test/reporter.js --timeout 120000 \
  --grep 'musl' test/platform.test.js
