#!/usr/bin/env bash
# npm run test:asan: the addon and libsodium built with clang's AddressSanitizer and
# UndefinedBehaviorSanitizer (deps/build.sh asan), then the mocha suite (native backend) and a fuzzer run
# (scripts/fuzz.js) with the ASan runtime preloaded into Node. Any report ends the run with a
# failure. The build and the run use a staging copy under .cache/asan/, so build/ keeps the plain
# addon. Extra arguments go to mocha. FUZZ_BATCHES / FUZZ_CALLS size the fuzzer run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
stage="$root/.cache/asan"

runtime=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
[ -f "$runtime" ] || { echo "test:asan needs clang's sanitizer runtimes (Debian: libclang-rt-14-dev)" >&2; exit 1; }
[ -f lib/natrium.wasm ] || npm run build:wasm

bash deps/build.sh asan
rm -rf "$stage" && mkdir -p "$stage/deps/out"
cp -R binding.gyp package.json src lib test scripts bench "$stage/"
cp -R deps/out/asan "$stage/deps/out/native"
ln -s "$root/node_modules" "$stage/node_modules"

prefix=$(dirname "$(dirname "$(command -v node)")")
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$prefix/include/node/node_api.h" ]; then
  export npm_config_nodedir="$prefix"
fi
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -shared-libasan"
(
  cd "$stage"
  CC=clang CXX=clang++ LINK=clang++ CFLAGS="$san -g -O1" LDFLAGS="$san" npx --no-install node-gyp rebuild >"$stage/build.log" 2>&1 ||
    { tail -n 40 "$stage/build.log" >&2; exit 1; }
)
nm -D "$stage/build/Release/natrium.node" | grep -c __asan_init >/dev/null || { echo "test:asan: the addon is not instrumented" >&2; exit 1; }

# Node itself is not instrumented: leaks are its own (detect_leaks=0); allocations past the
# process's limits return NULL (libsodium and the binding check), as without the sanitizer.
export LD_PRELOAD="$runtime"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:handle_segv=1:detect_odr_violation=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# The suite on the native backend only: the sanitizers instrument the addon and libsodium, not the
# wasm module V8 runs, so the suite's wasm half would take half the time and check nothing more
# here (it runs uninstrumented in npm test). The fuzzer below still calls both, native against wasm.
export NATRIUM_TEST_BACKENDS=native

cd "$stage"
status=0
echo "== test:asan: the mocha suite, addon and libsodium instrumented" >&2
# (not the checks that need gdb breakpoints or the repository's .github: they test the plain build)
npx --no-install mocha --reporter test/reporter.js --timeout 600000 'test/**/*.test.js' \
  --grep 'gdb|GitHub workflows' --invert "$@" || status=$?
echo "== test:asan: fuzzer, ${FUZZ_BATCHES:-16} batches of ${FUZZ_CALLS:-2000} calls" >&2
node scripts/fuzz.js --batches "${FUZZ_BATCHES:-16}" --calls "${FUZZ_CALLS:-2000}" --seed 5000 --timeout 1200 || status=$?
exit $status
