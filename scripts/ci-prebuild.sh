#!/usr/bin/env bash
# One leg of .github/workflows/prebuild.yml, and the same steps on this machine: install a C
# toolchain when it is missing (apk on Alpine, dnf in the manylinux_2_28 container, apt on Debian;
# macOS and Windows runners come with theirs), build libsodium and this platform's prebuild, then
# run the test suite on that very binary with the WASM fallback disabled.
set -euo pipefail
cd "$(dirname "$0")/.."

need_toolchain() {
  [ "$(uname -s)" = Linux ] || return 1
  for tool in make python3 clang; do command -v "$tool" >/dev/null || return 0; done
  return 1
}
if need_toolchain; then
  if [ -f /etc/alpine-release ]; then
    apk add --no-cache build-base clang curl linux-headers python3
  elif command -v dnf >/dev/null; then
    dnf install -y -q clang make python3 || dnf install -y -q make python3 # clang is preferred, not required
  elif command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq build-essential clang python3
  fi
fi
# node-gyp wants a recent Python; manylinux images keep theirs under /opt/python
for py in /opt/python/cp312-cp312/bin/python3 /opt/python/cp311-cp311/bin/python3; do
  if [ -x "$py" ]; then export npm_config_python="$py"; break; fi
done

npm ci --no-audit --no-fund
bash scripts/prebuild.sh
rm -rf build # nothing but the prebuild may answer for the native backend
platform=$(node -p '`${process.platform}-${process.arch}`')
file=$(node -e 'console.log(require("./lib/loader").load("native").file)')
case "$file" in */prebuilds/"$platform"/*) ;; *) echo "loaded $file, not the prebuild" >&2; exit 1 ;; esac
echo "ci-prebuild: testing $file" >&2
NATRIUM_BACKEND=native NATRIUM_TEST_BACKENDS=native \
  npx --no-install mocha --reporter test/reporter.js --timeout 120000 'test/**/*.test.js'
