#!/usr/bin/env bash
# Benchmarks of device runtimes at scale (CONFORMANCE.md, "Prepared
# processes"): what the reference pair's runs cost where a device's runtime
# is costly to start.  A benchmark, not a test: it prints figures and never
# fails on a slow machine.
#   1. The simulated device behind its model of a costly runtime
#      (ADC_SIMULATED_START_SECONDS=0.2: a process's start takes 0.2 s, one
#      at a time, as CUDA's context creation on an H200): the whole fixture
#      set at the default jobs, and at --jobs 1 and --jobs 64, in cases per
#      second; the statuses of each run against a run without the model.
#   2. The main job with an OpenCL platform (PoCL) where one is installed
#      (--device all, default jobs), and opencl's share (--device opencl).
#   3. The main job without one (OCL_ICD_VENDORS=/nonexistent).
# BENCH_MODEL_JOBS narrows the model's job counts (the test command asks
# for the default alone: the figures at 1 and 64 take 9 s more).
# With BENCH_BEFORE=1, each figure also in a process per case
# (--isolation case), the way every case ran before prepared processes:
# the model's whole set then takes about 7 minutes (2077 starts of 0.2 s,
# one at a time), so the test command leaves it out.
# Usage: ci/bench-device-runtimes.sh [BUILD_DIR]   (default build/default)
set -euo pipefail
build="${1:-build/default}"
conform="$build/adc-conform"
rounds="${BENCH_ROUNDS:-3}"
model_dir="$(mktemp -d)"
reports="$(mktemp -d)"
trap 'rm -rf "$model_dir" "$reports"' EXIT

# shellcheck source=ci/bench-timing.sh
source "$(dirname "$0")/bench-timing.sh"
# The statuses of a report, one "<id> <status>" line per case.
statuses() {
  python3 -c 'import json,sys; [print(c["id"], c["status"]) for c in json.load(open(sys.argv[1]))["cases"]]' "$1"
}
same_statuses() { # "same statuses as without the model" or how many differ
  local differing
  differing=$(diff <(statuses "$1") <(statuses "$2") | grep -c '^>' || true)
  if [ "$differing" -eq 0 ]; then echo "same statuses as without the model"; else echo "$differing statuses DIFFER"; fi
}
pair=(--producer reference --consumer reference)
cases=$("$conform" "${pair[@]}" --device simulated --list | wc -l)

# 1. The model.
"$conform" "${pair[@]}" --device simulated --report-json "$reports/quiet.json" >/dev/null 2>&1 || true
model=(env ADC_SIMULATED_START_SECONDS=0.2 ADC_SIMULATED_RUNTIME_DIR="$model_dir")
isolations=(auto)
[ "${BENCH_BEFORE:-0}" = 1 ] && isolations+=(case)
for isolation in "${isolations[@]}"; do
  for jobs in ${BENCH_MODEL_JOBS:-default 1 64}; do
    jobs_option=()
    [ "$jobs" != default ] && jobs_option=(--jobs "$jobs")
    [ "$isolation" = case ] && [ "$jobs" != default ] && continue # minutes each
    times=()
    for _ in $(seq "$rounds"); do
      times+=("$(seconds "${model[@]}" "$conform" "${pair[@]}" --device simulated --isolation "$isolation" \
        "${jobs_option[@]}" --report-json "$reports/model.json")")
    done
    wall=$(median "${times[@]}")
    printf 'benchmark: costly-runtime model (0.2 s start, one at a time), whole set on simulated (%d cases), --isolation %s, jobs %s: median %.2f s over %d runs, %.0f cases/s; %s\n' \
      "$cases" "$isolation" "$jobs" "$wall" "$rounds" "$(echo "$cases / $wall" | bc -l)" \
      "$(same_statuses "$reports/quiet.json" "$reports/model.json")"
  done
done

# 2. and 3. The main job, with and without an OpenCL platform.
"$conform" "${pair[@]}" --device opencl --filter 'opencl/plugin.*' --report-json "$reports/probe.json" \
  >/dev/null 2>&1 || true
has_opencl=$(python3 -c 'import json,sys; print(1 if json.load(open(sys.argv[1]))["summary"]["judged_cases"] else 0)' \
  "$reports/probe.json")
for isolation in "${isolations[@]}"; do
  if [ "$has_opencl" = 1 ]; then
    times=()
    shares=()
    for _ in $(seq "$rounds"); do
      times+=("$(seconds "$conform" "${pair[@]}" --device all --isolation "$isolation")")
      shares+=("$(seconds "$conform" "${pair[@]}" --device opencl --isolation "$isolation")")
    done
    printf 'benchmark: the main job with PoCL (--device all, default jobs), --isolation %s: median %.2f s (goal <= 1 s); opencl alone %.2f s\n' \
      "$isolation" "$(median "${times[@]}")" "$(median "${shares[@]}")"
  else
    echo "benchmark: the main job with an OpenCL platform: none here"
  fi
  times=()
  for _ in $(seq "$rounds"); do
    times+=("$(seconds env OCL_ICD_VENDORS=/nonexistent "$conform" "${pair[@]}" --device all --isolation "$isolation")")
  done
  printf 'benchmark: the main job without an OpenCL platform (--device all, default jobs), --isolation %s: median %.2f s (goal <= 0.5 s)\n' \
    "$isolation" "$(median "${times[@]}")"
done
