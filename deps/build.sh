#!/usr/bin/env bash
# Build the pinned libsodium as a static library for one target and install it into deps/out/<target>/.
#   native  this machine, static + PIC, every runtime-dispatched fast path (configure detects them);
#           on Windows (Git Bash, msbuild on PATH) libsodium's own Visual Studio solution instead
#   arm64   linux-arm64, cross-built with aarch64-linux-gnu-gcc
#   asan    this machine, with clang's AddressSanitizer and UndefinedBehaviorSanitizer (test:asan)
#   musl    linux-x64 for musl libc (Alpine), with Debian's musl-gcc
#   arm64-musl  linux-arm64 for musl, aarch64-linux-gnu-gcc with Debian's arm64 musl (deps/musl-cross.sh)
#   win32   win32-x64, cross-built on Linux with mingw-w64 (x86_64-w64-mingw32-gcc)
#   wasm32  wasm32-wasi with clang, -O2 -msimd128 with auto-vectorisation, Argon2's SIMD128 fixed
# Builds are cached outside the clone, keyed by version, target, flags, compiler and this script,
# so fresh clones and CI reuse them and any change to the key rebuilds.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
. "$here/libsodium.env"
target=${1:-native}
cache=${NATRIUM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/natrium}
jobs=$(nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2)
case "$(uname -s)" in MINGW*|MSYS*|CYGWIN*) windows=true ;; *) windows=false ;; esac

configure_args=(--disable-shared --enable-static --disable-dependency-tracking)
tools=()     # AR=... RANLIB=... for configure, when the host's own tools cannot read the objects
toolchain='' # more of the toolchain's identity for the cache key (beyond the compiler version)
case "$target" in
  native)
    if $windows; then
      # configure + make needs a Unix toolchain; the solution builds the same library with MSVC,
      # static and /MT like node-gyp's addons (the StaticRelease configuration)
      cc=msbuild
      cflags="builds/msvc/vs2022/libsodium.sln -p:Configuration=StaticRelease -p:Platform=x64"
      configure_args=()
    else
      # clang's code for libsodium's SIMD paths is faster than gcc 12's (xchacha20poly1305 1 MB: ~20 %)
      cc=${CC:-$(command -v clang >/dev/null 2>&1 && echo clang || echo cc)}
      cflags="-O3 -fPIC -ffunction-sections -fdata-sections"
      configure_args+=(--with-pic)
    fi ;;
  asan)
    # npm run test:asan: libsodium instrumented too, so that a bad pointer or length the binding
    # passes is caught inside libsodium (clang's AddressSanitizer and UndefinedBehaviorSanitizer).
    # Not the alignment check: libsodium's x86-64 SIMD code loads words from unaligned addresses
    # by design (salsa20 xmm6int/u1.h), which x86-64 allows; our own code keeps that check.
    cc=clang
    cflags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize=alignment -fno-sanitize-recover=undefined -fPIC"
    configure_args+=(--with-pic) ;;
  arm64)
    cc=${CC:-aarch64-linux-gnu-gcc}
    cflags="-O3 -fPIC -ffunction-sections -fdata-sections"
    configure_args+=(--with-pic --host=aarch64-linux-gnu) ;;
  musl)
    # musl-gcc is gcc with musl's headers and libraries instead of glibc's (a specs file); its
    # programs run here (Debian's musl package has the loader), so configure is not cross-compiling
    cc=${CC:-musl-gcc}
    cflags="-O3 -fPIC -ffunction-sections -fdata-sections"
    configure_args+=(--with-pic)
    toolchain=$(sha256sum "$(dirname "$(grep -o '[^ "]*musl-gcc\.specs' "$(command -v "$cc")" 2>/dev/null)")/libc.a" 2>/dev/null || echo "musl libc.a not found") ;;
  arm64-musl)
    cc=${CC:-$(bash "$here/musl-cross.sh")}
    cflags="-O3 -fPIC -ffunction-sections -fdata-sections"
    configure_args+=(--with-pic --host=aarch64-linux-musl)
    toolchain=$(sha256sum "$(dirname "$cc")/sysroot/usr/lib/aarch64-linux-musl/libc.a" 2>/dev/null || echo "musl libc.a not found") ;;
  win32)
    # configure finds every x86-64 intrinsics header for mingw, but its two ways to read XCR0 both
    # fail there: _xgetbv() needs -mxsave with gcc (without it the always-inline intrinsic does
    # not compile and HAVE__XGETBV stays unset), and the inline-asm way (HAVE_AVX_ASM) is refused
    # on Windows because it also gates the SysV-only sandy2x assembly. runtime.c then never reads
    # XCR0 and turns AVX, AVX2, AVX-512 and with them AES-256-GCM off. -mxsave only makes the
    # xsave intrinsics usable; gcc never emits those instructions on its own.
    # gcc cannot align the Windows x64 stack beyond 16 bytes (GCC bug 54412), so 32- and 64-byte
    # vector moves there must be unaligned ones. Debian's mingw gcc already emits only those (its
    # own patch); -muse-unaligned-vector-move (binutils 2.38+) makes the assembler ensure it for
    # any mingw gcc, and test/build.test.js checks the DLL has no aligned ymm/zmm move at all.
    cc=${NATRIUM_MINGW_CC:-x86_64-w64-mingw32-gcc}
    cflags="-O3 -mxsave -ffunction-sections -fdata-sections -Wa,-muse-unaligned-vector-move"
    configure_args+=(--host=x86_64-w64-mingw32)
    toolchain=$(printf '#include <_mingw.h>\n__MINGW64_VERSION_STR\n' | $cc -E -P - 2>/dev/null | tail -n1) ;;
  wasm32)
    # $CC is the native compiler (node-gyp reads it too), so the wasm one has its own variable.
    cc="${NATRIUM_WASM_CC:-clang} --target=wasm32-wasi"
    # GNU ar writes no symbol index wasm-ld can read ("archive has no index"): use LLVM's tools.
    ar=$(command -v llvm-ar || command -v llvm-ar-14) || { echo "deps/build: wasm32 needs llvm-ar (Debian: llvm)" >&2; exit 1; }
    ranlib=$(command -v llvm-ranlib || command -v llvm-ranlib-14) || { echo "deps/build: wasm32 needs llvm-ranlib (Debian: llvm)" >&2; exit 1; }
    tools=(AR="$ar" RANLIB="$ranlib")
    # wasi-libc's headers are compiled in, and it is versioned apart from clang
    libc=$($cc -print-file-name=libc.a)
    toolchain="$ar $ranlib $( { [ -f "$libc" ] && sha256sum <"$libc"; } || echo "no libc.a")"
    # -O2 -msimd128 with clang's auto-vectorisation. Against the flags before (-O2, no SIMD128, no
    # vectorising; variants alternated in one process, CPU time, median of 15 rounds, Node 20):
    # ed25519 sign 1 KB 1.35x, verify 1.12x, X25519 1.10x, ML-KEM-768 keypair 1.17x, secretbox
    # 1 KB 1.12x, AEGIS-256 1 KB 1.31x, scrypt 1.33x, Argon2id 1.52x (its SIMD128 code, once
    # fix_blamka has corrected it), nothing slower. Most of it is the vectorising, above all of
    # ed25519's constant-time table lookups: -O2 -msimd128 without it signed at 0.74x this. -O3
    # with or without it, and clang 16, added nothing (-O3 is 12 KB larger gzipped); per-file
    # flags for ed25519_ref10.c (no vectorising, -O3, more inlining) were slower or equal.
    # configure still adds -fPIC; clang 14 then aborts on errno unless TLS is local-exec.
    # make expands $(abs_top_srcdir), so __FILE__ strings do not depend on where the clone is.
    # configure skips its explicit_bzero test on WASI, so sodium_memzero() would fall back to a
    # volatile byte loop (13% of a 10-byte xchacha20poly1305 encryption); wasi-libc has it.
    cflags="-O2 -msimd128 -ftls-model=local-exec -DHAVE_EXPLICIT_BZERO=1 -ffile-prefix-map=\$(abs_top_srcdir)=libsodium"
    # ED25519_NONDETERMINISTIC stays undefined: signatures must be RFC 8032's, as on native.
    configure_args+=(--host=wasm32-wasi --disable-pie --disable-ssp --without-pthreads) ;;
  *) echo "deps/build: unknown target '$target' (native, asan, arm64, musl, arm64-musl, win32, wasm32)" >&2; exit 2 ;;
esac

if [ "$cc" = msbuild ]; then ccver=$(msbuild -version -nologo | tail -n1)
else ccver=$($cc --version 2>/dev/null | head -n1 || echo unknown); fi
key=$(printf '%s\n' "$LIBSODIUM_SHA256" "$target" "$cc" "$ccver" "$cflags" "${configure_args[*]}" "$toolchain" \
        "${MACOSX_DEPLOYMENT_TARGET:-}" \
      | cat - "$here/build.sh" | sha256sum | cut -c1-16)
prefix="$cache/libsodium-$LIBSODIUM_VERSION-$target-$key"
out="$root/deps/out/$target"

# libsodium 1.0.22's SIMD128 Argon2 (crypto_pwhash/argon2/blamka-round-wasm32.h) computes BlaMka's
# x + y + 2 * lo32(x) * lo32(y) per 64-bit lane with wasm_u64x2_extmul_low_u32x4(x, y), which
# multiplies 32-bit lanes 0 and 1; the low halves of the two 64-bit lanes are lanes 0 and 2, so
# every Argon2 hash comes out wrong (libsodium-wrappers 0.8.4 is built without SIMD128 and is not
# affected). fix_blamka corrects that one line in a copy of the source: lanes 0 and 2 are shuffled
# into 0 and 1 first. Of the corrections tried in V8 (Node 20), argon2id t=2 m=19 MiB ran 1.65x the
# portable Argon2 this way, 1.55x with one two-input shuffle, 1.35x masking the high halves and
# multiplying with i64x2.mul (which V8 emulates on x86-64). A libsodium without this line (fixed
# upstream, or changed) stops the build, to be looked at.
fix_blamka() { # fix_blamka <copy of the source>
  local f="$1/src/libsodium/crypto_pwhash/argon2/blamka-round-wasm32.h"
  local bad='const v128_t z = wasm_u64x2_extmul_low_u32x4(x, y);'
  local good='const v128_t z = wasm_u64x2_extmul_low_u32x4(wasm_i32x4_shuffle(x, x, 0, 2, 0, 2),
                                                     wasm_i32x4_shuffle(y, y, 0, 2, 0, 2));'
  if [ "$(grep -cF "$bad" "$f" 2>/dev/null)" != 1 ]; then
    echo "deps/build: $f no longer has the line fix_blamka corrects: check libsodium's SIMD128 Argon2 and update deps/build.sh" >&2
    return 1
  fi
  BAD=$bad GOOD=$good perl -0pi -e 's/\Q$ENV{BAD}\E/$ENV{GOOD}/' "$f"
  grep -qF 'wasm_i32x4_shuffle(x, x, 0, 2, 0, 2)' "$f" || { echo "deps/build: fix_blamka did not apply" >&2; return 1; }
}

# libsodium's Ed25519 hashes with its portable SHA-512, which is most of a signature over a long
# message (1 MB sign 0.64x node:crypto, Zen 4). ed25519_sha512_ours renames its references in the
# four Ed25519 members of the archive (ref10 keypair.c, sign.c, open.c and the ed25519ph API),
# and only there, to nat_sodium_sha512* (src/crypto/sha2.c: the same function signatures,
# the same state struct, the same bytes, AVX2 where the CPU has it). So the addon's Ed25519 runs
# our SHA-512, and anything that links this archive and signs must link sha2.c too (the addon,
# bench/ceiling.c). Renaming object symbols rather than editing sources keeps libsodium's own
# code byte for byte. wasm32 objects cannot be renamed by llvm-objcopy 14: there the link wraps the
# same four symbols instead (--wrap, deps/build-wasm.sh), and this archive is left as built. MSVC
# builds have no objcopy: those keep libsodium's SHA-512 (slower, same answers), and say so.
ed25519_sha512_ours() { # ed25519_sha512_ours <libsodium.a>
  local lib objcopy ar_tool ranlib_tool us='' members=(libsodium_la-keypair.o libsodium_la-sign.o libsodium_la-open.o libsodium_la-sign_ed25519.o)
  case "$target" in
    arm64) objcopy=$(command -v aarch64-linux-gnu-objcopy || command -v llvm-objcopy || true)
           ar_tool=$(command -v aarch64-linux-gnu-ar || echo ar); ranlib_tool=$(command -v aarch64-linux-gnu-ranlib || echo ranlib) ;;
    *) objcopy=$(command -v objcopy || command -v llvm-objcopy || true); ar_tool=ar; ranlib_tool=ranlib ;;
  esac
  lib="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" # the renaming runs in a scratch folder
  if [ -z "$objcopy" ]; then
    echo "deps/build: no objcopy: Ed25519 keeps libsodium's portable SHA-512 (same signatures, slower)" >&2
    return 0
  fi
  [ "$(uname -s)" = Darwin ] && us=_ # Mach-O symbols carry a leading underscore
  local tmp rc=0; tmp=$(mktemp -d "${TMPDIR:-/tmp}/natrium-ed25519.XXXXXX")
  (
    cd "$tmp"
    for m in "${members[@]}"; do
      [ "$("$ar_tool" t "$lib" | grep -cxF "$m")" = 1 ] || { echo "deps/build: $m is not in libsodium.a exactly once: check ed25519_sha512_ours" >&2; exit 1; }
      "$ar_tool" x "$lib" "$m"
      args=()
      for f in '' _init _update _final; do
        args+=(--redefine-sym "${us}crypto_hash_sha512$f=${us}nat_sodium_sha512$f")
      done
      # an objcopy that cannot rewrite this object format leaves the archive as it was
      "$objcopy" "${args[@]}" "$m" || { echo "deps/build: $objcopy could not rename $m: Ed25519 keeps libsodium's SHA-512" >&2; exit 2; }
    done
    "$ar_tool" r "$lib" "${members[@]}"
    "$ranlib_tool" "$lib"
  ) || rc=$?
  rm -rf "$tmp"
  [ "$rc" = 0 ] || [ "$rc" = 2 ]
}

if [ ! -f "$prefix/.complete" ]; then
  src=$(bash "$here/fetch.sh")
  work=$(mktemp -d "${TMPDIR:-/tmp}/natrium-libsodium-$target.XXXXXX")
  echo "deps/build: building libsodium $LIBSODIUM_VERSION for $target (key $key) in $work" >&2
  if [ "$target" = wasm32 ]; then
    # the unpacked source is shared (other targets, other clones): correct a copy of it (not in
    # $work/src, which is the build tree's own src/)
    cp -R "$src" "$work/source"
    src="$work/source"
    fix_blamka "$src"
  fi
  if [ "$cc" = msbuild ]; then
    # the solution writes into its own tree (bin/, obj/, and a copy of builds/msvc/version.h)
    cp -R "$src/." "$work/"
    # shellcheck disable=SC2086 # $cflags holds the solution and its msbuild properties
    (cd "$work" && msbuild $cflags -m -v:minimal -nologo) >"$work/make.log" 2>&1 ||
      { tail -n 60 "$work/make.log" >&2; exit 1; }
    rm -rf "$prefix"; mkdir -p "$prefix/lib"
    cp "$(find "$work/bin" -path '*static*' -name libsodium.lib | head -n1)" "$prefix/lib/libsodium.lib"
    cp -R "$work/src/libsodium/include" "$prefix/include"
  else
    (
      cd "$work"
      CC="$cc" CFLAGS="$cflags" "$src/configure" --prefix="$prefix" "${configure_args[@]}" ${tools[@]+"${tools[@]}"} >configure.log 2>&1 ||
        { tail -n 40 configure.log >&2; exit 1; }
      make -j"$jobs" >make.log 2>&1 || { tail -n 60 make.log >&2; exit 1; }
      rm -rf "$prefix"
      make install >install.log 2>&1 || { tail -n 20 install.log >&2; exit 1; }
      grep -E '^#define HAVE_' config.log >"$prefix/features.txt" 2>/dev/null || true
    )
  fi
  rm -rf "$work"
  if [ "$target" = wasm32 ]; then
    echo "deps/build: wasm32: archive left as built; deps/build-wasm.sh links Ed25519 to our SHA-512 (--wrap)" >&2
  elif [ "$cc" != msbuild ]; then
    ed25519_sha512_ours "$prefix/lib/libsodium.a"
  fi
  touch "$prefix/.complete"
fi

rm -rf "$out"; mkdir -p "$out"
cp -R "$prefix/include" "$prefix/lib" "$out/"
cp "$prefix/features.txt" "$out/" 2>/dev/null || true
echo "deps/build: libsodium for $target in deps/out/$target (cached at $prefix)" >&2
