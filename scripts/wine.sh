#!/usr/bin/env bash
# Run a Windows program under Wine, from the root of the clone:
#   scripts/wine.sh <program.exe> [args...]     its stdout/stderr and exit status are the program's
#   scripts/wine.sh --setup                     only make the Wine root (CI does this first)
# The Wine is Debian 13's (10.0), in a Debian 13 root that debootstrap makes once from the mirror in
# this machine's apt configuration, kept at ${NATRIUM_CACHE:-~/.cache/natrium}/wine-debian13 (~1.5 GB,
# ~2 min on a clean machine). Debian 12's own Wine 8.0 runs Node 20 and 22 but not Node 24: its
# NtAllocateVirtualMemoryEx refuses MEM_RESERVE_PLACEHOLDER ("called with wrong alloc type flags
# (00042000)"), which V8 13.6 needs for its dispatch table, so Node 24 aborts at start with "Fatal
# process out of memory: SegmentedTable::InitializeTable (subspace allocation)". Without root (no
# chroot) the host's wine is used instead, when there is one.
# Each run enters the root in a private mount namespace with /proc, /dev and the clone bound at their
# own paths (so Z:\ paths read the same inside and out; the working directory must be in the clone),
# in a prefix set to Windows 10, which Node asks for. NATRIUM_WINE_BIND names more host folders to
# bind the same way (colon-separated; scripts/test-windows.sh passes npm's, for the package test).
# Node under Wine cannot write to a pipe (Error: open EBADF), so the program writes to files that
# are copied out when it ends.
set -euo pipefail
cwd=$PWD
cd "$(dirname "$0")/.."
root=$PWD
export NATRIUM_WINE_BIND=${NATRIUM_WINE_BIND:-}
case "$cwd/" in "$root"/*) ;; *) cwd=$root ;; esac
cache=${NATRIUM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/natrium}
sysroot=$cache/wine-debian13
suite=trixie # Debian 13
log() { echo "wine.sh: $*" >&2; }

mirror() { # the machine's own Debian mirror, as deps/fetch.sh finds it
  grep -hoE '^(URIs:|deb) +[a-z]+://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null \
    | head -n1 | awk '{print $2}' || true
}

setup() {
  [ -f "$sysroot/.complete" ] && return 0
  command -v debootstrap >/dev/null || { log "needs debootstrap (apt-get install debootstrap)"; return 1; }
  local uri; uri=$(mirror)
  [ -n "$uri" ] || { log "no Debian mirror in the apt configuration"; return 1; }
  log "making a Debian 13 root with Wine in $sysroot (from $uri)"
  rm -rf "$sysroot" && mkdir -p "$sysroot"
  debootstrap --variant=minbase "$suite" "$sysroot" "$uri" >"$cache/wine-debootstrap.log" 2>&1 ||
    { tail -n 20 "$cache/wine-debootstrap.log" >&2; return 1; }
  cp /etc/resolv.conf "$sysroot/etc/resolv.conf" 2>/dev/null || true
  inside sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64 >/dev/null' ||
    return 1
  # the prefix, reporting Windows 10; a runtime directory, which Wine 10 wants
  inside sh -c 'mkdir -p -m 700 /run/user/0; export WINEPREFIX=/wine WINEDEBUG=-all XDG_RUNTIME_DIR=/run/user/0
    /usr/lib/wine/wine64 wineboot -i >/dev/null 2>&1
    /usr/lib/wine/wine64 reg add "HKCU\\Software\\Wine" /v Version /d win10 /f >/dev/null 2>&1; /usr/lib/wine/wineserver64 -w'
  touch "$sysroot/.complete"
}

inside() { # inside <command...>: run a command in the Debian 13 root
  unshare -m sh -c '
    set -e
    r=$1; clone=$2; shift 2
    mount --make-rprivate /
    mount -t proc proc "$r/proc"
    mount --rbind /dev "$r/dev"
    for d in "$clone" $(echo "$NATRIUM_WINE_BIND" | tr ":" " "); do
      mkdir -p "$r$d"
      mount --bind "$d" "$r$d"
    done
    exec chroot "$r" "$@"' sh "$sysroot" "$root" "$@"
}

if [ "${1:-}" = --setup ]; then setup; exit; fi
[ $# -ge 1 ] || { echo "usage: scripts/wine.sh <program.exe> [args...] | --setup" >&2; exit 2; }

out=$(mktemp -d "$root/.cache/wine-out.XXXXXX")
trap 'rm -rf "$out"' EXIT
status=0
if [ "$(id -u)" = 0 ] && setup; then
  inside env WINEPREFIX=/wine WINEDEBUG=-all HOME=/root XDG_RUNTIME_DIR=/run/user/0 OUT="$out" \
    sh -c 'cd "$1" && shift && /usr/lib/wine/wine64 "$@" >"$OUT/stdout" 2>"$OUT/stderr"' sh "$cwd" "$@" || status=$?
elif command -v wine >/dev/null; then
  log "no Debian 13 root (not root?): the host's $(wine --version 2>/dev/null), which cannot run Node 24"
  export WINEPREFIX=${WINEPREFIX:-$cache/wine-prefix} WINEDEBUG=${WINEDEBUG:--all}
  if [ ! -d "$WINEPREFIX" ]; then
    wineboot -i >/dev/null 2>&1
    wine reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1
  fi
  (cd "$cwd" && wine "$@" >"$out/stdout" 2>"$out/stderr") || status=$?
else
  log "no Wine: run as root (Debian 13 root via debootstrap) or install wine64"; exit 1
fi
cat "$out/stdout"
cat "$out/stderr" >&2
exit $status
