#!/usr/bin/env bash
# What keeping a library's thread pool costs a run (harness/runner/kept_threads.h):
# the main CPU run, --producer X --consumer X, on --device cpu and on
# --device cpu,simulated, for the reference and for the reference with an
# idle pool of two threads (fixtures/conforming/idle_pool.c), alternately,
# the median of each and their ratio (target: at most 1.5; where each case
# ended its prepared process, the pool's run took 13.1 s to the reference's
# 0.72 s), and the prepared processes the pool's run kept (the cases whose
# report names the pool, one per process).  A benchmark, not a test: it
# prints figures and never fails on a slow machine.  ci/bench-cpu-run.sh
# runs it.
# Usage: ci/bench-kept-pool.sh [BUILD_DIR]   (default build/default; BENCH_ROUNDS rounds, 15 by default)
set -euo pipefail
build="${1:-build/default}"
conform="$build/adc-conform"
pool="$build/libconforming_idle_pool.so"
rounds="${BENCH_ROUNDS:-15}"

# shellcheck source=ci/bench-timing.sh
source "$(dirname "$0")/bench-timing.sh"

report="$(mktemp)"
trap 'rm -f "$report"' EXIT
for devices in cpu cpu,simulated; do
  reference=()
  pooled=()
  for _ in $(seq "$rounds"); do
    reference+=("$(seconds "$conform" --producer reference --consumer reference --device "$devices")")
    pooled+=("$(seconds "$conform" --producer "$pool" --consumer "$pool" --device "$devices")")
  done
  "$conform" --producer "$pool" --consumer "$pool" --device "$devices" --report-json "$report" >/dev/null 2>&1 || true
  kept=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["cases"]; print("%d cases, %d prepared processes kept the pool, %d ended by what a case left" % (len(c), sum(1 for x in c if "kept_threads" in x), sum(1 for x in c if "left_behind" in x)))' "$report")
  r=$(median "${reference[@]}")
  p=$(median "${pooled[@]}")
  printf 'benchmark: --device %s, reference %.3f s, reference with an idle pool %.3f s (medians of %d), ratio %.2f (target <= 1.5); %s\n' \
    "$devices" "$r" "$p" "$rounds" "$(echo "$p / $r" | bc -l)" "$kept"
done
