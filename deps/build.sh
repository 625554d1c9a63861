#!/usr/bin/env bash
# Build the pinned libsodium as a static library for one target and install it into deps/out/<target>/.
#   native  this machine, static + PIC, every runtime-dispatched fast path (configure detects them);
#           on Windows (Git Bash, msbuild on PATH) libsodium's own Visual Studio solution instead
#   arm64   linux-arm64, cross-built with aarch64-linux-gnu-gcc
#   wasm32  wasm32-wasi with clang (see DESIGN: -O2 -msimd128 without auto-vectorisation)
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
  arm64)
    cc=${CC:-aarch64-linux-gnu-gcc}
    cflags="-O3 -fPIC -ffunction-sections -fdata-sections"
    configure_args+=(--with-pic --host=aarch64-linux-gnu) ;;
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
    # -O2 without auto-vectorisation: fastest for small and large inputs (DESIGN.md). No -msimd128:
    # libsodium 1.0.22's only SIMD128 code, Argon2's (blamka-round-wasm32.h), multiplies the wrong
    # 32-bit lanes (u64x2_extmul_low takes lanes 0 and 1, BlaMka needs 0 and 2), so every
    # crypto_pwhash_argon2* answer is wrong; the portable Argon2 is right. (Our own files keep it.)
    # configure still adds -fPIC; clang 14 then aborts on errno unless TLS is local-exec.
    # make expands $(abs_top_srcdir), so __FILE__ strings do not depend on where the clone is.
    # configure skips its explicit_bzero test on WASI, so sodium_memzero() would fall back to a
    # volatile byte loop (13% of a 10-byte xchacha20poly1305 encryption); wasi-libc has it.
    cflags="-O2 -fno-vectorize -fno-slp-vectorize -ftls-model=local-exec -DHAVE_EXPLICIT_BZERO=1 -ffile-prefix-map=\$(abs_top_srcdir)=libsodium"
    # ED25519_NONDETERMINISTIC stays undefined: signatures must be RFC 8032's, as on native.
    configure_args+=(--host=wasm32-wasi --disable-pie --disable-ssp --without-pthreads) ;;
  *) echo "deps/build: unknown target '$target' (native, arm64, wasm32)" >&2; exit 2 ;;
esac

if [ "$cc" = msbuild ]; then ccver=$(msbuild -version -nologo | tail -n1)
else ccver=$($cc --version 2>/dev/null | head -n1 || echo unknown); fi
key=$(printf '%s\n' "$LIBSODIUM_SHA256" "$target" "$cc" "$ccver" "$cflags" "${configure_args[*]}" "$toolchain" \
        "${MACOSX_DEPLOYMENT_TARGET:-}" \
      | cat - "$here/build.sh" | sha256sum | cut -c1-16)
prefix="$cache/libsodium-$LIBSODIUM_VERSION-$target-$key"
out="$root/deps/out/$target"

if [ ! -f "$prefix/.complete" ]; then
  src=$(bash "$here/fetch.sh")
  work=$(mktemp -d "${TMPDIR:-/tmp}/natrium-libsodium-$target.XXXXXX")
  echo "deps/build: building libsodium $LIBSODIUM_VERSION for $target (key $key) in $work" >&2
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
  touch "$prefix/.complete"
fi

rm -rf "$out"; mkdir -p "$out"
cp -R "$prefix/include" "$prefix/lib" "$out/"
cp "$prefix/features.txt" "$out/" 2>/dev/null || true
echo "deps/build: libsodium for $target in deps/out/$target (cached at $prefix)" >&2
