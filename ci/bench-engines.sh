#!/usr/bin/env bash
# What each query engine's cpu run costs beside arro3's, the lightest of the
# Python peers (interop/peers.tsv): `adc-conform --producer` with each
# engine's factory on --device cpu, in the build's peers venv
# (ci/peers-venv.sh), RUST_BACKTRACE=0 as ci/peer-conformance.sh runs them,
# round after round; the median of each and its ratio to arro3's (target:
# at most 5; at c957d96, before prepared processes kept an engine's pool,
# DuckDB took 69 s, DataFusion 61 s and polars 111 s to arro3's 1.6 s).  A
# benchmark, not a test: it prints figures and never fails on a slow
# machine; it says so and stops where the venv lacks the engines.
# With --from-reports it runs nothing: it prints the same ratio from the
# wall times of the peers' producer runs the build's tests wrote
# (BUILD_DIR/peer-<name>-producer.json: cpu and cpu_device_arrays, beside
# the other tests ctest ran at once), as the test command does, whose time
# those runs already took.
# Usage: ci/bench-engines.sh [BUILD_DIR] [--from-reports]
#        (default build/default; BENCH_ROUNDS rounds, 5 by default)
set -euo pipefail
build="${1:-build/default}"
rounds="${BENCH_ROUNDS:-5}"
export ADC_PYTHON="${ADC_PYTHON:-$build/peers-venv/bin/python3}" RUST_BACKTRACE=0
cd "$(dirname "$0")/.."
# shellcheck source=ci/bench-timing.sh
source ci/bench-timing.sh

engines=(arro3 duckdb datafusion polars)
if [ "${2:-}" = "--from-reports" ]; then
  python3 - "$build" "${engines[@]}" <<'PY'
import json, os, sys
walls = {}
for engine in sys.argv[2:]:
    path = os.path.join(sys.argv[1], f"peer-{engine}-producer.json")
    if not os.path.exists(path):
        print(f"benchmark: skipped, no {path} (the peer_{engine}_producer test writes it)")
        sys.exit(0)
    walls[engine] = json.load(open(path))["environment"]["wall_seconds"]
base = walls[sys.argv[2]]
for engine, wall in walls.items():
    print(f"benchmark: {engine} producer on cpu and cpu_device_arrays {wall:.2f} s (its peer test's run, "
          f"beside other tests), {wall / base:.1f}x {sys.argv[2]}'s {base:.2f} s (target <= 5)")
PY
  exit 0
fi
for engine in "${engines[@]}"; do
  module="interop.$engine.peer"
  if ! "$ADC_PYTHON" -c "import $module" 2>/dev/null; then
    echo "benchmark: skipped, $ADC_PYTHON cannot import $module (ci/peers-venv.sh $build installs the engines)"
    exit 0
  fi
done
declare -A times
for _ in $(seq "$rounds"); do
  for engine in "${engines[@]}"; do
    times[$engine]+=" $(seconds "$build/adc-conform" --producer "python:interop.$engine.peer:make" --device cpu)"
  done
done
# shellcheck disable=SC2086 # the figures, one argument each
base=$(median ${times[arro3]})
for engine in "${engines[@]}"; do
  # shellcheck disable=SC2086
  t=$(median ${times[$engine]})
  printf 'benchmark: %s producer on cpu %.2f s (median of %d), %.1fx arro3'"'"'s %.2f s (target <= 5)\n' \
    "$engine" "$t" "$rounds" "$(echo "$t / $base" | bc -l)" "$base"
done
