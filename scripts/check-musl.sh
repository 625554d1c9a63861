#!/usr/bin/env bash
# Fail unless a linux musl binary can load on a musl system: its only NEEDED library is musl's libc,
# it asks for no GLIBC_ symbol version, and every symbol it leaves undefined, Node-API's aside (node
# provides those), is exported by musl's own libc.so (Debian's musl 1.2.3 here; Alpine ships the
# same libc). Prints what it checked.
#   scripts/check-musl.sh prebuilds/linux-x64/natrium.musl.node [musl libc.so]
set -euo pipefail
file=${1:?usage: scripts/check-musl.sh <file> [musl libc.so]}
case "$(readelf -h "$file" | awk '/Machine:/ { $1 = ""; print }')" in
  *X86-64*) arch=x86_64 nm=nm ;;
  *AArch64*) arch=aarch64 nm=aarch64-linux-gnu-nm ;; # the host's nm reads only x86-64
  *) echo "check-musl: $file is neither x86-64 nor AArch64" >&2; exit 1 ;;
esac
libc=${2:-}
cache=${NATRIUM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/natrium}
if [ -z "$libc" ]; then
  # Debian's musl package; for arm64, the one deps/musl-cross.sh unpacked
  for f in "/lib/$arch-linux-musl/libc.so" "/lib/ld-musl-$arch.so.1" "$cache"/musl-arm64-*/sysroot/lib/"$arch"-linux-musl/libc.so; do
    if [ -f "$f" ]; then libc=$f; break; fi
  done
fi
[ -n "$libc" ] && [ -f "$libc" ] || { echo "check-musl: no musl libc.so for $arch (Debian: musl)" >&2; exit 1; }

bad=0
needed=$(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for n in $needed; do
  # musl's loader takes libc.so, or Alpine's libc.musl-<arch>.so.1, to mean itself
  case "$n" in
    libc.so|"libc.musl-$arch.so.1") ;;
    *) echo "check-musl: $file needs $n, which is not musl's libc" >&2; bad=1 ;;
  esac
done
[ -n "$needed" ] || { echo "check-musl: $file needs no libc at all: not a dynamic musl binary?" >&2; bad=1; }
if readelf -V "$file" | grep -q 'GLIBC_'; then
  echo "check-musl: $file asks for glibc symbol versions:" >&2
  readelf -V "$file" | grep -o 'GLIBC_[0-9.]*' | sort -u >&2
  bad=1
fi
# strong references only: a weak one (gcc's crtbegin asks for _ITM_* that nothing provides) may stay unresolved
undefined=$("$nm" -D --undefined-only "$file" | awk '$1 == "U" {print $2}' | sed 's/@.*//' | grep -vE '^(napi|node_api)_' | sort -u)
exported=$("$nm" -D --defined-only "$libc" | awk '{print $NF}' | sort -u)
missing=$(comm -23 <(echo "$undefined") <(echo "$exported"))
if [ -n "$missing" ]; then
  echo "check-musl: $file needs symbols that $libc does not export:" $missing >&2
  bad=1
fi
[ "$bad" = 0 ] || exit 1
echo "check-musl: $file needs only $needed, $(echo "$undefined" | wc -l) libc symbols, all exported by $libc; no GLIBC_ versions"

