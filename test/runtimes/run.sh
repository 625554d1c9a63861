#!/usr/bin/env bash
# npm run test:runtimes [-- --sizes] [-- --only=RE]: install the pinned tools (test/runtimes/tools,
# npm ci --ignore-scripts into .cache/runtimes/tools, reused while the lock is unchanged) and Node
# 22/24 (scripts/fetch-node.sh) while the network is there, then run test/runtimes/run.mjs on
# Node 24 in a network namespace of its own with only loopback up (unshare -n), so nothing can
# reach any address but 127.0.0.1. Needs the build (npm run build; npm run prebuild for the
# native cases to load the prebuild) and Debian's chromium (or CHROMIUM=path).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f lib/natrium.wasm ] || { echo "test:runtimes: lib/natrium.wasm is missing: npm run build first" >&2; exit 2; }
node scripts/build-esm.js >/dev/null   # lib/esm fresh, as scripts/ci-package.sh does before packing

tools=.cache/runtimes/tools
if ! cmp -s test/runtimes/tools/package-lock.json "$tools/package-lock.json" || [ ! -d "$tools/node_modules" ]; then
  rm -rf "$tools" && mkdir -p "$tools"
  cp test/runtimes/tools/package.json test/runtimes/tools/package-lock.json "$tools/"
  (cd "$tools" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
NATRIUM_NODE22=$(bash scripts/fetch-node.sh 22)
NATRIUM_NODE24=$(bash scripts/fetch-node.sh 24)
export NATRIUM_NODE22 NATRIUM_NODE24

driver=("$NATRIUM_NODE24" test/runtimes/run.mjs "$@")
if unshare -n true 2>/dev/null && command -v ip >/dev/null; then
  echo "test:runtimes: in a network namespace with only 127.0.0.1 (unshare -n)"
  exec unshare -n sh -c 'ip link set lo up && exec "$@"' sh "${driver[@]}"
fi
echo "test:runtimes: unshare -n is not allowed here; running with the host network (the pages and workerd still refuse anything but 127.0.0.1)"
exec "${driver[@]}"
