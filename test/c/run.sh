#!/usr/bin/env bash
# C-level checks of our own crypto code against libsodium (deps/out/native), outside Node:
# each harness in test/c/ is built with the x86-64 SIMD / 128-bit paths and with the portable
# (wasm32) paths, run plainly, under ASan + UBSan (clang), and once under valgrind.
#   bash test/c/run.sh            # all of it
#   NO_VALGRIND=1 bash test/c/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
sodium=deps/out/native
[ -f "$sodium/lib/libsodium.a" ] || bash deps/build.sh native
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags=(-std=c11 -Wall -Wextra -Werror -I"$sodium/include" -Isrc/crypto)
for src in test/c/*.c; do
  name=$(basename "$src" .c)
  for variant in simd portable; do
    extra=()
    [ "$variant" = portable ] && extra=(-DNAT_XCHACHA20POLY1305_PORTABLE)
    echo "== $name ($variant, gcc -O3)"
    gcc -O3 "${flags[@]}" "${extra[@]}" "$src" "$sodium/lib/libsodium.a" -o "$out/$name-$variant"
    "$out/$name-$variant"
    echo "== $name ($variant, clang -fsanitize=address,undefined)"
    clang -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
      "${flags[@]}" "${extra[@]}" "$src" "$sodium/lib/libsodium.a" -o "$out/$name-$variant-san"
    "$out/$name-$variant-san"
  done
  if [ -z "${NO_VALGRIND:-}" ]; then
    echo "== $name (simd, valgrind)"
    gcc -O2 -g "${flags[@]}" "$src" "$sodium/lib/libsodium.a" -o "$out/$name-vg"
    valgrind -q --error-exitcode=1 "$out/$name-vg"
  fi
done
