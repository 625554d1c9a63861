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
exec npx --no-install node-gyp rebuild
