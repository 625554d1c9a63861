#!/usr/bin/env bash
# Build lib/natrium.wasm: the same family files as the native addon, compiled with -DNAT_WASM
# against src/wasm.c (which stands in for Node-API), linked with libsodium for wasm32-wasi; then
# lib/unpack.wasm and lib/natrium.wasm.lzma, which scripts/build-esm.js embeds for browsers.
#   bash deps/build-wasm.sh            build, print size and SHA-256
#   bash deps/build-wasm.sh --verify   also build a second time from scratch and compare the bytes
# The build is reproducible: no timestamps, no paths (-ffile-prefix-map), no debug info or names.
# Needs clang with wasi-libc (Debian: clang lld wasi-libc libclang-rt-14-dev-wasm32), xz (xz-utils)
# and, for the reference bytes, binaryen's wasm-opt.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
cd "$root"
verify=${1:-}
jobs=$(nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2)

bash deps/build.sh wasm32 # cached: copies the prebuilt libsodium.a into deps/out/wasm32
sodium=deps/out/wasm32

cc="${NATRIUM_WASM_CC:-clang} --target=wasm32-wasi"
# SIMD128 (every runtime we target has it) as for libsodium (deps/build.sh), but without clang's
# auto-vectorisation: our SIMD128 paths are written by hand, and vectorising the rest measured
# neutral (XChaCha20-Poly1305 10 B, SHA-512 1 KB, within +-3 %); then ours: warnings are errors,
# only the exports are visible.
cflags=(-std=c11 -O2 -msimd128 -fno-vectorize -fno-slp-vectorize -ftls-model=local-exec
        -fvisibility=hidden -Wall -Wextra -Werror -Wno-unused-parameter
        -DNAT_WASM -DNAT_X25519_WRAP -DSODIUM_STATIC -I"$sodium/include" -Isrc -Isrc/crypto
        -ffile-prefix-map="$root/=")
# reactor: no main, the glue calls _initialize(); the stack first, so an overflow traps instead of
# silently overwriting static data; 1 MiB of stack for libsodium's largest locals. --wrap:
# libsodium's scrypt runs our core (src/crypto/scrypt.h), and its SHA-512 calls (Ed25519) ours
# (src/crypto/sha2.h; natively deps/build.sh renames them in the archive instead); so do its
# BLAKE2b calls (box_seal, kx, kdf, Argon2: src/crypto/blake2b.h), its secretbox, Salsa20 and
# Poly1305 calls (secretbox, box, stream_xsalsa20: src/crypto/salsa20.c), and its Argon2 never starts on the
# portable fill_segment (src/wasm.c); its Curve25519 runs ours where src/crypto/ed25519_simd128.c and
# x25519_simd128.c say (Ed25519 verify whole, behind both verify_detached). What only those references kept alive (libsodium's
# SHA-512, BLAKE2b and portable Argon2 code) is then left out: wasm-ld keeps only what is reached.
wraps=(escrypt_kdf_sse escrypt_kdf_nosse
       crypto_hash_sha512 crypto_hash_sha512_init crypto_hash_sha512_update crypto_hash_sha512_final
       crypto_generichash_blake2b crypto_generichash_blake2b_salt_personal
       crypto_generichash_blake2b_init crypto_generichash_blake2b_init_salt_personal
       crypto_generichash_blake2b_update crypto_generichash_blake2b_final
       _crypto_generichash_blake2b_pick_best_implementation
       crypto_secretbox_easy crypto_secretbox_open_easy crypto_secretbox_detached crypto_secretbox_open_detached
       crypto_stream_salsa20 crypto_stream_salsa20_xor crypto_stream_salsa20_xor_ic
       crypto_onetimeauth_poly1305 crypto_onetimeauth_poly1305_verify crypto_onetimeauth_poly1305_init
       crypto_onetimeauth_poly1305_update crypto_onetimeauth_poly1305_final
       argon2_fill_segment_ref
       crypto_scalarmult_curve25519 crypto_scalarmult_curve25519_base
       ge25519_scalarmult_base ge25519_p3_tobytes ge25519_double_scalarmult_vartime ge25519_tobytes
       crypto_sign_ed25519_verify_detached _crypto_sign_ed25519_verify_detached)
ldflags=(-mexec-model=reactor -Wl,--stack-first -Wl,-z,stack-size=1048576
         -Wl,--export=malloc -Wl,--export=free)
for w in "${wraps[@]}"; do ldflags+=("-Wl,--wrap=$w"); done

# Then binaryen's wasm-opt -O3, as Emscripten does for libsodium-wrappers: ed25519 sign 1 KB +6 %,
# verify +3-7 %, X25519 +3-7 %, the rest within the noise, and 9 % smaller (2 % gzipped)
# (alternated in one process, median of 15 rounds; -O2 and -O4 were no better). Part of it is
# --low-memory-unused (-O3 without it gained about half as much): libsodium's -fno-strict-overflow
# stops clang from folding constant pointer offsets into loads and stores (fe25519_mul had 27
# extra i32.add), and wasm-opt may fold them once told that no address wraps around 2^32 into the
# first 1 KiB, which no C pointer here does. V8 then compiles fe25519_mul and fe25519_sq to
# exactly as many x86-64 instructions as libsodium-wrappers' (631 and 383), which is why verify,
# 85 % of it in those two, stays near 1.05x libsodium-wrappers.
# wasm-opt reads the features from clang's target_features section, and strips it with the names.
# Without wasm-opt (Debian: binaryen) the build still works, says so, and differs in bytes.
wasmopt=$(command -v wasm-opt || true)
if [ -n "$wasmopt" ]; then
  optflags=(-O3 --low-memory-unused --strip-debug --strip-producers --strip-target-features)
  echo "deps/build-wasm: $("$wasmopt" --version) -O3" >&2
else
  ldflags+=("-Wl,--strip-all")
  echo "deps/build-wasm: wasm-opt not found (Debian: apt-get install binaryen): lib/natrium.wasm is left as clang links it, ~5 % slower at Ed25519 and not byte-identical to the reference build" >&2
fi

# The family files are the ones src/families.h registers (families.c references each table).
families=$(sed -nE 's/^[[:space:]]*X\(([a-z0-9_]+)\).*/\1/p' src/families.h)
sources=(src/wasm.c src/constants.c src/families.c)
for f in $families; do sources+=("src/$f.c"); done
for f in src/crypto/*.c; do [ -f "$f" ] && sources+=("$f"); done

build() { # build <dir> <output>
  local dir=$1 out=$2 pids=() failed=0
  for src in "${sources[@]}"; do
    local obj="$dir/$(echo "$src" | tr / _).o"
    $cc "${cflags[@]}" -c "$src" -o "$obj" 2>"$obj.log" &
    pids+=("$!")
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.05; done
  done
  local i=0
  for pid in "${pids[@]}"; do
    if ! wait "$pid"; then
      local src=${sources[$i]}
      echo "deps/build-wasm: $src does not compile for wasm32" >&2
      grep -q 'napi_' "$dir/$(echo "$src" | tr / _).o.log" &&
        echo "  (it uses napi_* outside an #ifndef NAT_WASM block: see src/nat.h)" >&2
      sed 's/^/  /' "$dir/$(echo "$src" | tr / _).o.log" | head -n 20 >&2
      failed=1
    fi
    i=$((i + 1))
  done
  [ "$failed" = 0 ] || return 1
  local objs=()
  for src in "${sources[@]}"; do objs+=("$dir/$(echo "$src" | tr / _).o"); done
  if [ -n "$wasmopt" ]; then
    $cc "${ldflags[@]}" "${objs[@]}" "$sodium/lib/libsodium.a" -o "$dir/linked.wasm"
    "$wasmopt" "${optflags[@]}" "$dir/linked.wasm" -o "$out"
  else
    $cc "${ldflags[@]}" "${objs[@]}" "$sodium/lib/libsodium.a" -o "$out"
  fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/natrium-wasm.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a"
build "$work/a" "$work/natrium.wasm"
cp "$work/natrium.wasm" lib/natrium.wasm

# lib/unpack.wasm and lib/natrium.wasm.lzma: what lib/esm/wasm-bytes.mjs embeds for the browser
# entry (scripts/build-esm.js), build intermediates the package does not ship. The unpacker is our
# own C with no libc (src/unpack/unpack.c); the module is packed with raw LZMA1 in the properties
# the unpacker is written for. xz: Debian's xz-utils.
command -v xz >/dev/null || { echo "deps/build-wasm: xz not found (Debian: apt-get install xz-utils)" >&2; exit 1; }
${NATRIUM_WASM_CC:-clang} --target=wasm32 -O2 -std=c11 -nostdlib -ffreestanding -fvisibility=hidden \
  -Wall -Wextra -Werror -ffile-prefix-map="$root/=" -Isrc/unpack src/unpack/unpack.c \
  -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=4096 -Wl,--initial-memory=131072 -o "$work/unpack.wasm"
if [ -n "$wasmopt" ]; then "$wasmopt" -O3 --strip-debug --strip-producers "$work/unpack.wasm" -o lib/unpack.wasm
else cp "$work/unpack.wasm" lib/unpack.wasm; fi
xz --format=raw --lzma1=preset=9e,lc=3,lp=0,pb=0 -c lib/natrium.wasm >lib/natrium.wasm.lzma
echo "deps/build-wasm: lib/unpack.wasm $(wc -c <lib/unpack.wasm | tr -d ' ') bytes, lib/natrium.wasm.lzma $(wc -c <lib/natrium.wasm.lzma | tr -d ' ') bytes ($(xz --version | head -n1))"

sha=$(sha256sum lib/natrium.wasm | cut -d' ' -f1)
raw=$(wc -c <lib/natrium.wasm | tr -d ' ')
gz=$(gzip -9 -n -c lib/natrium.wasm | wc -c | tr -d ' ')
echo "deps/build-wasm: lib/natrium.wasm  $raw bytes ($gz gzipped)  sha256 $sha"

if [ "$verify" = --verify ]; then
  mkdir -p "$work/b"
  build "$work/b" "$work/again.wasm"
  if cmp -s lib/natrium.wasm "$work/again.wasm"; then
    echo "deps/build-wasm: reproducible (a second clean build gave the same bytes)"
  else
    echo "deps/build-wasm: NOT reproducible: a second build gave sha256 $(sha256sum "$work/again.wasm" | cut -d' ' -f1)" >&2
    exit 1
  fi
fi
