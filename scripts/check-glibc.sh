#!/usr/bin/env bash
# Fail when a binary needs a glibc symbol version newer than the floor (default 2.28, the glibc of
# RHEL 8 / Debian 10, which Node 20+ itself requires). Prints the highest version it found.
#   scripts/check-glibc.sh prebuilds/linux-x64/natrium.glibc.node [floor]
set -euo pipefail
file=${1:?usage: scripts/check-glibc.sh <file> [floor]}
floor=${2:-2.28}
# the host objdump reads only the host's architecture; the cross binutils read arm64
dump() { ${OBJDUMP:-objdump} -T "$file" 2>/dev/null || aarch64-linux-gnu-objdump -T "$file"; }
max=$(dump | grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/GLIBC_//' | sort -V | tail -n1)
if [ "$(printf '%s\n%s\n' "$max" "$floor" | sort -V | tail -n1)" != "$floor" ]; then
  echo "check-glibc: $file needs GLIBC_$max, above the floor $floor:" >&2
  dump | grep -E "GLIBC_$max\b" >&2
  exit 1
fi
echo "check-glibc: $file needs at most GLIBC_$max (floor $floor)"
