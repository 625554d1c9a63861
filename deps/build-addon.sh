#!/usr/bin/env bash
# Build the native addon with node-gyp against libsodium from deps/build.sh. When this Node was
# installed with its headers (as Debian/NodeSource packages and the official tarballs do), point
# node-gyp at them so the build works offline; otherwise node-gyp downloads them as usual.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deps/build.sh native
prefix=$(dirname "$(dirname "$(command -v node)")")
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$prefix/include/node/node_api.h" ]; then
  export npm_config_nodedir="$prefix"
fi
# A prebuild that the loader would take here shadows the fresh build (it prefers prebuilds/): it is
# stale now, so it goes; `npm run prebuild` makes a new one from the same sources. The other libc's
# file in the same folder (a musl build beside glibc's) is not used here and stays.
node -e 'const { nativeCandidates } = require("./lib/loader")
  for (const f of nativeCandidates().slice(0, -1)) { console.error(`deps/build-addon: removing the stale ${f}`); require("fs").rmSync(f) }'
exec npx --no-install node-gyp rebuild
