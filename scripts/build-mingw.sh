#!/usr/bin/env bash
# Cross-build the Windows x64 addon on Linux with mingw-w64 (scripts/prebuild.sh win32 runs this):
# libsodium from deps/build.sh win32, binding.gyp's sources, defines and flags, then a DLL that
#   - imports Node-API from node.exe through an import library made here by dlltool from a .def
#     of exactly the napi_* symbols the objects use (no node.lib to download), delay-loaded so
#     src/compat/win_delay_load_hook.c can bind it to whatever executable hosts the addon;
#   - links libgcc statically, so it needs only Windows' own DLLs besides node.exe
#     (scripts/check-win32-imports.sh, run at the end, fails on anything else).
# Writes .cache/build-win32-x64/natrium.node (unstripped, for the tests) and the stripped
# prebuilds/win32-x64/natrium.node.
set -euo pipefail
cd "$(dirname "$0")/.."
triplet=x86_64-w64-mingw32
cc=${NATRIUM_MINGW_CC:-$triplet-gcc}
for tool in "$cc" "$triplet-nm" "$triplet-dlltool"; do
  command -v "$tool" >/dev/null || { echo "build-mingw: $tool not found (Debian: gcc-mingw-w64-x86-64)" >&2; exit 1; }
done

# Node-API's headers are the same on every OS: this Node's own, or node-gyp's copy of them
headers=$(dirname "$(dirname "$(command -v node)")")/include/node
if [ ! -f "$headers/node_api.h" ]; then
  headers=${npm_config_nodedir:-}/include/node
  [ -f "$headers/node_api.h" ] || { echo "build-mingw: no node_api.h (set npm_config_nodedir)" >&2; exit 1; }
fi

bash deps/build.sh win32
sodium=deps/out/win32
out=.cache/build-win32-x64
rm -rf "$out" && mkdir -p "$out/obj"

# binding.gyp is a Python literal: its sources, defines, include_dirs and cflags as JSON
mapfile -t gyp < <(node -e '
  const text = require("fs").readFileSync("binding.gyp", "utf8").replace(/^\s*#.*$/gm, "")
  const t = JSON.parse(text.replace(/,(\s*[}\]])/g, "$1")).targets[0]
  const dir = (d) => d.replace("<(libsodium_dir)", process.argv[1])
  console.log(t.sources.join(" "))
  console.log([...t.defines.map((d) => "-D" + d), ...t.include_dirs.map((d) => "-I" + dir(d)), ...t.cflags].join(" "))
' "$sodium")
read -r -a sources <<<"${gyp[0]}"
read -r -a cflags <<<"${gyp[1]}"
sources+=(src/compat/win_delay_load_hook.c)
cflags+=(-I"$headers" -ffunction-sections -fdata-sections "-Wa,-muse-unaligned-vector-move")

objects=()
for src in "${sources[@]}"; do
  obj="$out/obj/$(echo "${src%.c}" | tr / _).o"
  "$cc" "${cflags[@]}" -c "$src" -o "$obj"
  objects+=("$obj")
done

# the .def: every napi_* / node_api_* symbol the objects leave undefined, exported by node.exe
{
  echo "LIBRARY node.exe"
  echo "EXPORTS"
  "$triplet-nm" -u "${objects[@]}" | awk '{print $NF}' | grep -E '^(napi|node_api)_' | sort -u | sed 's/^/    /'
} >"$out/node.def"
"$triplet-dlltool" --def "$out/node.def" --dllname node.exe --output-delaylib "$out/libnode-delay.a"

# --wrap: libsodium's scrypt runs our core (src/crypto/scrypt.h).
# --no-insert-timestamp: the same sources give the same bytes. Linked a second time with -s for the
# package, as strip would write a new timestamp into the PE header.
link=("$cc" -shared "${objects[@]}" "$sodium/lib/libsodium.a" "$out/libnode-delay.a"
      -static-libgcc "-Wl,--gc-sections" "-Wl,--no-insert-timestamp" -ladvapi32
      "-Wl,--wrap=escrypt_kdf_sse" "-Wl,--wrap=escrypt_kdf_nosse")
"${link[@]}" -o "$out/natrium.node"
mkdir -p prebuilds/win32-x64
"${link[@]}" -s -o prebuilds/win32-x64/natrium.node
echo "build-mingw: prebuilds/win32-x64/natrium.node ($(wc -c <prebuilds/win32-x64/natrium.node) bytes," \
  "$(grep -c '^    ' "$out/node.def") Node-API imports)" >&2
bash scripts/check-win32-imports.sh prebuilds/win32-x64/natrium.node
