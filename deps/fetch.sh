#!/usr/bin/env bash
# Obtain the pinned libsodium source tarball, verify its SHA-256 and unpack it under deps/src/.
# Sources, in order: $NATRIUM_LIBSODIUM_TARBALL; the local cache; ../shared/cache/ (beside the
# clone); the upstream tag archive; Debian's source package via apt-get source (the mirror is taken
# from this machine's own apt configuration). Prints the unpacked source folder on stdout.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
. "$here/libsodium.env"
cache=${NATRIUM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/natrium}
name="libsodium-$LIBSODIUM_TAG.tar.gz"
dest="$cache/tarballs/$name"
mkdir -p "$cache/tarballs"

log() { echo "deps/fetch: $*" >&2; }
verified() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$LIBSODIUM_SHA256" ]; }
take() { # copy a verified candidate into the cache
  [ -f "$1" ] || return 1
  verified "$1" || { log "rejected $1: SHA-256 mismatch"; return 1; }
  [ "$1" -ef "$dest" ] || cp "$1" "$dest"
  log "using $1"
}

from_upstream() {
  local url="https://github.com/jedisct1/libsodium/archive/refs/tags/$LIBSODIUM_TAG.tar.gz"
  log "trying $url"
  curl -fsSL --connect-timeout 10 --max-time 120 -o "$dest.dl" "$url" 2>/dev/null && take "$dest.dl"
  local ok=$?; rm -f "$dest.dl"; return $ok
}

from_debian() {
  # Debian's orig tarball is the same upstream tag archive. Use a private apt configuration with a
  # deb-src line for unstable on the machine's own mirror; the system's apt state is left alone.
  command -v apt-get >/dev/null || return 1
  local uri
  uri=$(grep -hoE '^(URIs:|deb) +[a-z]+://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null \
        | head -n1 | awk '{print $2}') || true
  [ -n "$uri" ] || { log "no Debian mirror in apt configuration"; return 1; }
  local tmp; tmp=$(mktemp -d)
  mkdir -p "$tmp/lists/partial" "$tmp/archives/partial"
  echo "deb-src [trusted=yes] $uri unstable main" > "$tmp/sources.list"
  local opts=(-o Dir::Etc::sourcelist="$tmp/sources.list" -o Dir::Etc::sourceparts=- \
              -o Dir::State::lists="$tmp/lists" -o Dir::Cache::archives="$tmp/archives" \
              -o APT::Get::List-Cleanup=0)
  log "trying apt-get source libsodium from $uri (unstable)"
  if apt-get "${opts[@]}" update >/dev/null 2>&1 &&
     (cd "$tmp" && apt-get "${opts[@]}" source --download-only "libsodium=$LIBSODIUM_VERSION-*" >/dev/null 2>&1 ||
                   apt-get "${opts[@]}" source --download-only libsodium >/dev/null 2>&1); then
    local orig="$tmp/libsodium_$LIBSODIUM_VERSION.orig.tar.gz"
    take "$orig" && { rm -rf "$tmp"; return 0; }
  fi
  rm -rf "$tmp"; return 1
}

verified "$dest" ||
  { [ -n "${NATRIUM_LIBSODIUM_TARBALL:-}" ] && take "$NATRIUM_LIBSODIUM_TARBALL"; } ||
  take "$(dirname "$root")/shared/cache/$name" ||
  from_upstream ||
  from_debian ||
  { log "could not obtain $name with SHA-256 $LIBSODIUM_SHA256"; exit 1; }

src="$root/deps/src/libsodium-$LIBSODIUM_TAG"
if [ ! -f "$src/.natrium-unpacked" ]; then
  rm -rf "$src"; mkdir -p "$root/deps/src"
  tar xzf "$dest" -C "$root/deps/src"
  touch "$src/.natrium-unpacked"
fi
echo "$src"
