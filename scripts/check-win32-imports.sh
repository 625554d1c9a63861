#!/usr/bin/env bash
# Fail unless a Windows DLL imports nothing but Windows' own KERNEL32, ADVAPI32 and msvcrt, and
# (delay-loaded) node.exe: no libgcc_s, libwinpthread or other DLL that a Windows machine lacks.
# Prints each imported DLL with its number of functions.
#   scripts/check-win32-imports.sh prebuilds/win32-x64/natrium.node
set -euo pipefail
file=${1:?usage: scripts/check-win32-imports.sh <dll>}
objdump=${OBJDUMP:-x86_64-w64-mingw32-objdump}
allowed='^(kernel32|advapi32|msvcrt)\.dll$'

# objdump -p lists the import table, then the delay-import table, each DLL as "DLL Name: X"
# followed by its functions, one per line
table=$("$objdump" -p "$file" | awk '
  /^The Import Tables/ { kind = "import" }
  /^The Delay Import Tables|^Delay Import Tables/ { kind = "delay" }
  /^The Export Tables|^There is an export table/ { kind = "" }
  kind != "" && /DLL Name:/ { dll = $NF; names[kind " " dll] = 0; next }
  kind != "" && dll != "" && /^\s+[0-9a-f]+\s+[0-9]+\s+[A-Za-z_]/ { names[kind " " dll]++ }
  /^$/ { }
  END { for (k in names) print k, names[k] }' | sort)
[ -n "$table" ] || { echo "check-win32-imports: no import table in $file" >&2; exit 1; }
bad=0
while read -r kind dll count; do
  printf 'check-win32-imports: %-6s %-14s %4s functions\n' "$kind" "$dll" "$count"
  if ! tr '[:upper:]' '[:lower:]' <<<"$dll" | grep -qE "$allowed"; then
    echo "check-win32-imports: $file needs $dll, which Windows does not have" >&2
    bad=1
  fi
done <<<"$table"
grep -qi '^delay node\.exe ' <<<"$table" || { echo "check-win32-imports: node.exe is not delay-loaded" >&2; bad=1; }
exit $bad
