#!/usr/bin/env bash
# Print the NUM()/STR() lines of src/constants.c from libsodium's installed headers: every
# crypto_*, randombytes_* and sodium_* macro with an upper-case suffix (string-valued ones as STR).
set -euo pipefail
inc=${1:-$(dirname "$0")/out/native/include/sodium}
cd "$inc"
grep -hoE '^#define (crypto|randombytes|sodium|SODIUM)_[A-Za-z0-9_]+ ' ./*.h | awk '{print $2}' |
  grep -vE '_H$|^SODIUM_(EXPORT|MIN|SIZE_MAX|C99|EXPORT_WEAK|MISUSE)|_ALIGN|edwards25519sha512batch' | grep -E '_[A-Z0-9_]+$' | sort -u |
  while read -r c; do
    v=$(grep -hE "^#define $c " ./*.h | head -n1 | sed -E "s/^#define $c +//")
    case "$v" in \"*|*_STRPREFIX) echo "STR($c)" ;; *) echo "NUM($c)" ;; esac
  done
