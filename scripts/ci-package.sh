#!/usr/bin/env bash
# The package job of .github/workflows/prebuild.yml, and the same steps here: with every leg's
# prebuilds merged into prebuilds/ and the .wasm in lib/, pack the tarball, check it carries all of
# them, and run test/package.test.js (offline install with --ignore-scripts, native, then WASM).
#   scripts/ci-package.sh                 expects every platform of the release
#   scripts/ci-package.sh FILE...         expects just these (e.g. prebuilds/linux-x64/natrium.glibc.node)
set -euo pipefail
cd "$(dirname "$0")/.."
expected=("$@")
if [ ${#expected[@]} -eq 0 ]; then
  expected=(lib/natrium.wasm lib/esm/wasm-bytes.mjs lib/esm/browser.mjs lib/esm/workerd.mjs lib/esm/init.mjs
    prebuilds/linux-x64/natrium.glibc.node prebuilds/linux-x64/natrium.musl.node
    prebuilds/linux-arm64/natrium.glibc.node prebuilds/linux-arm64/natrium.musl.node
    prebuilds/darwin-x64/natrium.node prebuilds/darwin-arm64/natrium.node
    prebuilds/win32-x64/natrium.node)
fi

node scripts/build-esm.js # lib/esm: a build output the tarball carries (the entries for browsers, workers, Deno)
rm -f natrium-*.tgz
tarball=$(npm pack --ignore-scripts --silent | tail -n1)
listing=$(tar tzf "$tarball")
missing=0
for f in "${expected[@]}"; do
  grep -qx "package/$f" <<<"$listing" || { echo "ci-package: $f is not in $tarball" >&2; missing=1; }
done
[ "$missing" = 0 ]
echo "ci-package: $tarball carries ${#expected[@]} expected files ($(wc -c <"$tarball") bytes)"
npx --no-install mocha --reporter test/reporter.js --timeout 120000 test/package.test.js
