#!/usr/bin/env bash
# The installed package, as a downstream project sees it.  Installs the
# suite from a build folder (default: build/default, already built) into a
# temporary prefix, moves the prefix elsewhere (an installed suite must not
# depend on where it was installed, nor on this source or build tree), and
# then:
#   1. runs the installed adc-conform on the reference pair and checks, from
#      its JSON report, that it used the installed library and fixtures;
#   2. configures examples/downstream from an empty build folder with
#      CMAKE_PREFIX_PATH, builds it and runs its ctest, which must pass with
#      its one known failure expected;
#   3. does the same with the expectations entry removed, and checks that
#      ctest then fails: the gate can fail.
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir="$PWD"
build="${1:-build/default}"
[ -x "$build/adc-conform" ] || { echo "no $build/adc-conform: build it first" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
jobs=2

step() { echo "-- $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

step "cmake --install $build into a temporary prefix, then moved"
cmake --install "$build" --prefix "$work/installed" >"$work/install.log"
mv "$work/installed" "$work/prefix"
prefix="$work/prefix"
for file in bin/adc-conform include/adc/plugin_abi.h include/adc/arrow_c_abi.h include/adc/simulated_device.h \
            share/pkgconfig/arrow-device-conformance.pc \
            lib/cmake/ArrowDeviceConformance/ArrowDeviceConformanceConfig.cmake \
            lib/cmake/ArrowDeviceConformance/ArrowDeviceConformanceConfigVersion.cmake; do
  [ -e "$prefix/$file" ] || fail "$file is not installed"
done
libdir="$(dirname "$(find "$prefix" -name libadc_reference.so | head -n 1)")"
[ -f "$libdir/libadc_reference.so" ] || fail "libadc_reference.so is not installed"
for module in libadc_reference_cuda.so libadc_reference_rocm.so; do
  if [ -f "$build/$module" ]; then
    [ -f "$libdir/$module" ] || fail "$module is built but not installed next to libadc_reference.so"
    ! ldd "$libdir/$module" | grep -q "not found" || fail "$module: $(ldd "$libdir/$module" | grep 'not found')"
  fi
done
ls "$prefix"/share/arrow-device-conformance/fixtures/*.json >/dev/null || fail "no installed fixtures"

step "the installed adc-conform finds the installed reference library and fixtures"
"$prefix/bin/adc-conform" --producer reference --consumer reference --device cpu --filter 'cpu/baseline.*' \
  --report-json "$work/installed.json" >"$work/installed.log" || { cat "$work/installed.log"; fail "run failed"; }
python3 - "$work/installed.json" "$prefix" <<'PY'
import json, sys
report, prefix = json.load(open(sys.argv[1])), sys.argv[2] + "/"
env = report["environment"]
used = {"producer": env["producer"]["path"], "consumer": env["consumer"]["path"],
        "fixtures_dir": env["fixtures_dir"]}
outside = {k: v for k, v in used.items() if not v.startswith(prefix)}
if outside:
    sys.exit(f"FAIL: the installed adc-conform used paths outside the prefix: {outside}")
if not report["summary"]["conforms"]:
    sys.exit("FAIL: the reference pair does not conform when installed")
print("   " + ", ".join(f"{k}: {v[len(prefix):]}" for k, v in used.items()))
PY

step "pkg-config: the headers compile from the .pc file"
cflags="$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --cflags arrow-device-conformance)"
echo '#include "adc/plugin_abi.h"
int main(void) { return ARROW_DEVICE_CUDA == 2 ? 0 : 1; }' >"$work/pc.c"
# shellcheck disable=SC2086  # cflags is a list of flags
cc -std=c11 -Wall -Wextra -Wpedantic -Werror $cflags "$work/pc.c" -o "$work/pc" && "$work/pc" ||
  fail "a program including adc/plugin_abi.h through pkg-config does not build or run"

# Configures, builds and tests the example in `$1` from an empty build
# folder `$2`; returns ctest's status, its output in $2.log.
build_and_test() {
  local source="$1" binary="$2"
  rm -rf "$binary"
  cmake -S "$source" -B "$binary" -DCMAKE_PREFIX_PATH="$prefix" >"$binary.log" 2>&1 ||
    { cat "$binary.log"; fail "configuring $source"; }
  cmake --build "$binary" -j"$jobs" >>"$binary.log" 2>&1 || { cat "$binary.log"; fail "building $source"; }
  ctest --test-dir "$binary" --output-on-failure -V >>"$binary.log" 2>&1
}

step "examples/downstream: configure, build, ctest (one known failure, expected)"
build_and_test "$source_dir/examples/downstream" "$work/example-build" ||
  { cat "$work/example-build.log"; fail "the downstream example's ctest failed"; }
grep -q "EXPECTATIONS MET" "$work/example-build.log" || fail "no 'EXPECTATIONS MET' in the ctest output"
grep -q "expected_fail" "$work/example-build.log" || fail "the known failure was not reported as expected_fail"
grep -E "^[0-9]+: (CONFORMS|DOES NOT CONFORM|Expectations)" "$work/example-build.log" | sed 's/^/   /'

step "the same without its expectations entry: ctest must fail"
cp -r "$source_dir/examples/downstream" "$work/example-without-entry"
sed -i '/^cpu\/device_array.reserved.zeroed/d' "$work/example-without-entry/known-failures.txt"
if build_and_test "$work/example-without-entry" "$work/example-without-entry-build"; then
  cat "$work/example-without-entry-build.log"
  fail "ctest passed although mylib's known failure is no longer expected"
fi
grep -q "device_array.reserved.zeroed" "$work/example-without-entry-build.log" ||
  fail "ctest failed, but not on device_array.reserved.zeroed"
echo "   ctest failed, as it must"
echo "downstream example: PASS"
