#!/usr/bin/env bash
# Every test: the formatting check, the Check suites on a normal build and on
# an ASan + UBSan build (-fno-sanitize-recover=all), the reference pair on
# every device (the simulated device's worker threads included) under
# ThreadSanitizer, the reference pair under Valgrind memcheck with zero
# reports, the libFuzzer targets (60 s each), and the CPU-run benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
jobs="$(nproc)"

echo "== Formatting =="
ci/check-format.sh

echo "== default build: Check suites =="
cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
ctest --preset default
echo "== Self-test table (every twin, build/default/self-test-table.md): totals =="
tail -n 4 build/default/self-test-table.md

# (async_repeatability, 100 runs of the async cases, runs in the default build only.)
echo "== ASan + UBSan build: Check suites =="
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$jobs"
ctest --preset asan

echo "== ThreadSanitizer build: the reference pair on every device, the device layer =="
# Only these: the broken and misbehaving libraries race on purpose.  A race
# halts the case, which then ends crash and fails the test.
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j"$jobs"
ctest --preset tsan

echo "== Valgrind memcheck: harness and reference pair =="
ci/valgrind-reference.sh build/valgrind

echo "== libFuzzer: 60 s per target =="
# The fixture reader, the comparison with its mirror, the verdict wire;
# each replays its committed corpus, then fuzzes from it (tests/fuzz).
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$jobs"
ctest --preset fuzz

echo "== Benchmark =="
ci/bench-cpu-run.sh build/default
