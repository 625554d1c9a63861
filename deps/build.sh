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
    cc=${CC:-clang --target=wasm32-wasi}
    # configure still adds -fPIC; clang 14 then aborts on errno unless TLS is local-exec.
    cflags="-O2 -msimd128 -fno-vectorize -fno-slp-vectorize -ftls-model=local-exec -ffile-prefix-map=\$(abs_top_srcdir)=libsodium"
    configure_args+=(--host=wasm32-wasi --disable-pie --disable-ssp --without-pthreads) ;;
  *) echo "deps/build: unknown target '$target' (native, arm64, wasm32)" >&2; exit 2 ;;
esac

if [ "$cc" = msbuild ]; then ccver=$(msbuild -version -nologo | tail -n1)
else ccver=$($cc --version 2>/dev/null | head -n1 || echo unknown); fi
key=$(printf '%s\n' "$LIBSODIUM_SHA256" "$target" "$cc" "$ccver" "$cflags" "${configure_args[*]}" \
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
      CC="$cc" CFLAGS="$cflags" "$src/configure" --prefix="$prefix" "${configure_args[@]}" >configure.log 2>&1 ||
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
