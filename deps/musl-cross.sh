#!/usr/bin/env bash
# A musl C toolchain for linux-arm64 made of Debian packages: Debian's aarch64-linux-gnu-gcc (as
# for the glibc cross build) with the arm64 builds of Debian's musl, musl-dev and musl-tools, which
# apt-get download fetches (a private apt configuration: the system's architectures and package
# state are left alone) and dpkg -x unpacks under ${NATRIUM_CACHE:-~/.cache/natrium}/musl-arm64-*/.
# musl-tools' specs file, its paths moved into that folder, turns gcc into musl-gcc. Prints the
# path of the compiler wrapper (aarch64-linux-musl-gcc) on stdout; its sysroot/ holds the loader
# and libc.so (qemu-aarch64 -L <sysroot> runs what it builds).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${NATRIUM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/natrium}
version=${NATRIUM_MUSL_VERSION:-1.2.3-1} # Debian 12's
dest="$cache/musl-arm64-$version"
log() { echo "deps/musl-cross: $*" >&2; }
command -v aarch64-linux-gnu-gcc >/dev/null || { log "needs aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu)"; exit 1; }

if [ ! -f "$dest/.complete" ]; then
  uri=$(grep -hoE '^(URIs:|deb) +[a-z]+://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null \
        | head -n1 | awk '{print $2}' || true)
  [ -n "$uri" ] || { log "no Debian mirror in the apt configuration"; exit 1; }
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/lists/partial" "$tmp/archives/partial" "$tmp/debs"
  echo "deb [arch=arm64 trusted=yes] $uri $suite main" >"$tmp/sources.list"
  opts=(-o Dir::Etc::sourcelist="$tmp/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::lists="$tmp/lists"
        -o Dir::Cache::archives="$tmp/archives" -o Dir::State::status=/dev/null
        -o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o APT::Sandbox::User=root)
  log "apt-get download musl, musl-dev, musl-tools $version for arm64 from $uri ($suite)"
  apt-get "${opts[@]}" update >/dev/null 2>&1 || { log "apt-get update failed"; exit 1; }
  (cd "$tmp/debs" && apt-get "${opts[@]}" download "musl:arm64=$version" "musl-dev:arm64=$version" "musl-tools:arm64=$version" >/dev/null) ||
    { log "apt-get download failed"; exit 1; }
  rm -rf "$dest" && mkdir -p "$dest/sysroot"
  for deb in "$tmp"/debs/*.deb; do dpkg -x "$deb" "$dest/sysroot"; done
  sys="$dest/sysroot"
  # where a merged /usr (Debian 12's own) would have it: without it -lc finds only libc.a, and musl
  # would be linked into the addon instead of being NEEDED
  ln -s ../../../lib/aarch64-linux-musl/libc.so "$sys/usr/lib/aarch64-linux-musl/libc.so"
  # the same specs with every /usr path moved into the sysroot; the loader path stays /lib/... (it
  # is where the binary's system keeps it)
  sed -e "s#/usr/#$sys/usr/#g" "$sys/usr/lib/aarch64-linux-musl/musl-gcc.specs" >"$dest/musl-gcc.specs"
  printf '#!/bin/sh\nexec aarch64-linux-gnu-gcc "$@" -specs "%s"\n' "$dest/musl-gcc.specs" >"$dest/aarch64-linux-musl-gcc"
  chmod +x "$dest/aarch64-linux-musl-gcc"
  touch "$dest/.complete"
fi
echo "$dest/aarch64-linux-musl-gcc"
