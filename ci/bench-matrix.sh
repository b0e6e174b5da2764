#!/usr/bin/env bash
# What an interop matrix costs (adc-conform matrix): the peers and the
# reference of a set (ci/peer-matrix.sh's: cpu, simulated), round after
# round, the median of each figure: seconds, and
# pairs x fixtures per second (the rate the matrix covers the pairs' data at,
# whatever the interfaces each pair has) and cases per second.  A benchmark,
# not a test: it prints figures and never fails; it says so and stops where
# a peer cannot be loaded.
# Usage: ci/bench-matrix.sh [BUILD_DIR] [SET]   (build/default, set cpu; BENCH_ROUNDS rounds, 5 by default)
set -euo pipefail
build="$(realpath -m "${1:-build/default}")" set="${2:-cpu}"
rounds="${BENCH_ROUNDS:-5}"
cd "$(dirname "$0")/.."
# shellcheck source=ci/bench-timing.sh
source ci/bench-timing.sh
export ADC_PYTHON="${ADC_PYTHON:-$build/peers-venv/bin/python3}" RUST_BACKTRACE=0
case "$set" in
  cpu) devices=cpu,cpu_device_arrays ;;
  simulated) devices=simulated ;;
  *) echo "usage: ci/bench-matrix.sh [BUILD_DIR] [cpu|simulated]" >&2; exit 2 ;;
esac
libraries=() n_libraries=1 # the reference, and each --library
while read -r argument; do
  libraries+=("$argument")
  case "$argument" in
    --library=*) spec="${argument#--library=*=}" n_libraries=$((n_libraries + 1)) ;;
    *) continue ;;
  esac
  case "$spec" in
    python:*)
      module="${spec#python:}"
      if ! "$ADC_PYTHON" -c "import ${module%%:*}" 2>/dev/null; then
        echo "benchmark: skipped, $ADC_PYTHON cannot import ${module%%:*} (ci/peers-venv.sh $build)"
        exit 0
      fi
      ;;
  esac
done < <(python3 ci/peers.py matrix "$build" "$devices")
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
seconds=() rates=() case_rates=()
for _ in $(seq "$rounds"); do
  "$build/adc-conform" matrix "${libraries[@]}" --device "$devices" --report-json "$report" >/dev/null 2>&1 || true
  read -r s r c < <(python3 - "$report" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
pairs = {(c["producer"], c["consumer"]) for c in report["cases"]}
fixtures = {c["case"]["fixture"] for c in report["cases"]}
devices = len(report["matrix"]["devices"])
wall = report["summary"]["wall_seconds"]
print(f"{wall:.3f} {len(pairs) * len(fixtures) * devices / wall:.1f} {report['summary']['cases'] / wall:.1f}")
PY
)
  seconds+=("$s") rates+=("$r") case_rates+=("$c")
done
printf 'benchmark: matrix %s (%d libraries) %.2f s, %.0f pairs x fixtures x devices per second, %.0f cases per second (medians of %d)\n' \
  "$set" "$n_libraries" "$(median "${seconds[@]}")" "$(median "${rates[@]}")" \
  "$(median "${case_rates[@]}")" "$rounds"
