#!/usr/bin/env bash
# Fail unless a Windows DLL imports nothing but Windows' own KERNEL32, ADVAPI32 and msvcrt: no
# libgcc_s, libwinpthread or other DLL that a Windows machine lacks. Node-API comes from node.exe
# through delay-load stubs (scripts/build-mingw.sh), which GNU ld keeps out of the import table.
# Prints each imported DLL with the number of functions taken from it.
#   scripts/check-win32-imports.sh prebuilds/win32-x64/natrium.node
set -euo pipefail
file=${1:?usage: scripts/check-win32-imports.sh <dll>}
objdump=${OBJDUMP:-x86_64-w64-mingw32-objdump}
allowed='^(kernel32|advapi32|msvcrt)\.dll$'

# objdump -p: "The Import Tables" lists each DLL as "DLL Name: X", then its functions, one a line
table=$("$objdump" -p "$file" | awk '
  /^The Import Tables/ { on = 1; next }
  on && /^The |^There is/ { on = 0 }
  on && /DLL Name:/ { dll = $NF; order[++n] = dll; count[dll] = 0; next }
  on && dll != "" && /^[ \t]+[0-9a-f]+[ \t]+[0-9]+[ \t]+[A-Za-z_]/ { count[dll]++ }
  END { for (i = 1; i <= n; i++) print order[i], count[order[i]] }')
[ -n "$table" ] || { echo "check-win32-imports: no import table in $file" >&2; exit 1; }
bad=0
while read -r dll count; do
  echo "check-win32-imports: $dll ($count functions)"
  if ! tr '[:upper:]' '[:lower:]' <<<"$dll" | grep -qE "$allowed"; then
    echo "check-win32-imports: $file imports $dll, which is not one of Windows' own DLLs allowed here" >&2
    bad=1
  fi
done <<<"$table"
exit $bad
