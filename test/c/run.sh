#!/usr/bin/env bash
# C-level checks of our own crypto code against libsodium (deps/out/native), outside Node:
# each harness in test/c/ is built with the x86-64 SIMD / 128-bit paths, run plainly, under
# ASan + UBSan (clang), and once under valgrind.
#   bash test/c/run.sh            # all of it
#   NO_VALGRIND=1 bash test/c/run.sh
#   JOBS=1 bash test/c/run.sh      # one harness at a time (default: one per core)
#   bash test/c/run.sh test/c/x25519.c   # only the harnesses named
# test/c/unpack.c reads lib/natrium.wasm and lib/natrium.wasm.lzma (npm run build:wasm first).
# A harness names in its opening comment the sources it is linked with ("cc-sources: ...", else
# it includes what it tests) and the environments it is run in, one run each ("run-env:
# VAR=value ...", e.g. every implementation a dispatcher can be forced to; commas join several
# settings of one run, "A=1,B=2"), any flags of its x86-64 builds ("cc-flags: ...", e.g. the
# addon's -Wl,--wrap=... so that __real_ is libsodium's), those of its wasm32 build ("wasm-flags:
# ..."), and whether it is also built with the
# portable (wasm32) paths of the code it links ("variants: simd portable"; the portable build
# defines NAT_CHACHA20POLY1305_PORTABLE, so only harnesses that link that code have one).
# With a libsodium built for arm64 or wasm32 (deps/build.sh arm64|wasm32 leaves one under
# ~/.cache/natrium/), the harnesses also run there, under qemu-aarch64 and Node's WASI:
#   ARM64_SODIUM=<dir with lib/libsodium.a> WASM32_SODIUM=<dir> bash test/c/run.sh
# A harness marked "wasm32: always" (code only wasm runs, e.g. SIMD128 kernels) runs under Node's
# WASI every time, on WASM32_SODIUM or else the build's own deps/out/wasm32.
set -euo pipefail
cd "$(dirname "$0")/../.."
sodium=deps/out/native
[ -f "$sodium/lib/libsodium.a" ] || bash deps/build.sh native
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags=(-std=c11 -Wall -Wextra -Werror -I"$sodium/include" -Isrc/crypto)
# run <binary> [runner...]: once per run-env setting of the harness (or once)
run() {
  local bin=$1; shift
  if [ ${#envs[@]} -eq 0 ]; then "$@" "$bin"; return; fi
  local e settings
  for e in "${envs[@]}"; do
    echo "  ($e)"
    IFS=, read -r -a settings <<<"$e"
    env "${settings[@]}" "$@" "$bin"
  done
}
harnesses=("$@")
# all of them, largest file first: the long runs start early (see JOBS below)
[ ${#harnesses[@]} -gt 0 ] || mapfile -t harnesses < <(ls -S test/c/*.c)
# the wasm32 libsodium the "wasm32: always" harnesses need, built before they start side by side
if [ -z "${WASM32_SODIUM:-}" ] && grep -q '^ \* wasm32: always' "${harnesses[@]}" &&
  [ ! -f deps/out/wasm32/lib/libsodium.a ]; then
  bash deps/build.sh wasm32
fi

# check <harness.c>: build and run one harness every way it asks for
check() {
  local src=$1 name
  name=$(basename "$src" .c)
  # the marker lines' words, without a closing */
  marked() { sed -n "s/^ \\* $1: //p" "$src" | sed 's|\*/||' | tr '\n' ' '; }
  read -r -a extra_src <<<"$(marked cc-sources)"
  read -r -a envs <<<"$(marked run-env)"
  read -r -a ccflags <<<"$(marked cc-flags)"
  read -r -a variants <<<"$(marked variants)"
  wasm32=$(marked wasm32)
  read -r -a wasmflags <<<"$(marked wasm-flags)"
  [ ${#variants[@]} -gt 0 ] || variants=(simd)
  srcs=("$src" ${extra_src[@]+"${extra_src[@]}"})
  for variant in "${variants[@]}"; do
    extra=()
    [ "$variant" = portable ] && extra=(-DNAT_CHACHA20POLY1305_PORTABLE)
    echo "== $name ($variant, gcc -O3)"
    gcc -O3 "${flags[@]}" "${extra[@]}" ${ccflags[@]+"${ccflags[@]}"} "${srcs[@]}" "$sodium/lib/libsodium.a" -o "$out/$name-$variant"
    run "$out/$name-$variant"
    echo "== $name ($variant, clang -fsanitize=address,undefined)"
    clang -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
      "${flags[@]}" "${extra[@]}" ${ccflags[@]+"${ccflags[@]}"} "${srcs[@]}" "$sodium/lib/libsodium.a" -o "$out/$name-$variant-san"
    run "$out/$name-$variant-san"
  done
  if [ -z "${NO_VALGRIND:-}" ]; then
    echo "== $name (simd, valgrind)"
    gcc -O2 -g "${flags[@]}" ${ccflags[@]+"${ccflags[@]}"} "${srcs[@]}" "$sodium/lib/libsodium.a" -o "$out/$name-vg"
    run "$out/$name-vg" valgrind -q --error-exitcode=1
  fi
  if [ -n "${ARM64_SODIUM:-}" ]; then
    echo "== $name (arm64, qemu-aarch64)"
    aarch64-linux-gnu-gcc -O2 -static "${flags[@]/$sodium/$ARM64_SODIUM}" "${srcs[@]}" \
      "$ARM64_SODIUM/lib/libsodium.a" -o "$out/$name-arm64"
    run "$out/$name-arm64" qemu-aarch64
  fi
  wasm_sodium=${WASM32_SODIUM:-}
  if [ -z "$wasm_sodium" ] && [ -n "$wasm32" ]; then
    wasm_sodium=deps/out/wasm32
  fi
  if [ -n "$wasm_sodium" ]; then
    echo "== $name (wasm32, node WASI)"
    clang --target=wasm32-wasi -O2 -msimd128 "${flags[@]/$sodium/$wasm_sodium}" ${wasmflags[@]+"${wasmflags[@]}"} "${srcs[@]}" \
      "$wasm_sodium/lib/libsodium.a" -o "$out/$name.wasm"
    run "$out/$name.wasm" node --no-warnings -e "const { WASI } = require('node:wasi'); const fs = require('fs');
      const wasi = new WASI({ version: 'preview1', env: process.env, preopens: { lib: 'lib', test: 'test' } });
      WebAssembly.instantiate(fs.readFileSync(process.argv[1]), wasi.getImportObject())
        .then(({ instance }) => process.exit(wasi.start(instance)))"
  fi
}

# The harnesses run JOBS at a time (default: one per core; each is single-threaded), each into a
# log of its own; the logs are shown whole, in order, once all have finished, and any failure
# fails the run.
jobs_max=${JOBS:-$(nproc)}
logs=() rcs=()
for src in "${harnesses[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  name=$(basename "$src" .c)
  logs+=("$out/$name.log") rcs+=("$out/$name.rc")
  (
    set +e
    (set -e; check "$src") >"$out/$name.log" 2>&1
    echo $? >"$out/$name.rc"
  ) &
done
wait
status=0
for i in "${!logs[@]}"; do
  cat "${logs[$i]}"
  rc=$(cat "${rcs[$i]}" 2>/dev/null || echo 1)
  [ "$rc" = 0 ] || { echo "test/c/run.sh: $(basename "${logs[$i]}" .log) failed (exit $rc)"; status=1; }
done
exit $status
