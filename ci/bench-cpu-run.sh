#!/usr/bin/env bash
# Benchmarks of the complete CPU run against the reference pair.  A
# benchmark, not a test: it prints figures and never fails on a slow machine.
#   1. Wall time with one job per CPU (target: under 0.2 s on a 2-core machine),
#      over the cases that do not wait by design; the async cases, which do
#      (the harness leaves producers 10 ms to hand out what they were not
#      asked for, the consumer feed releases its handler 10 ms after the
#      end), are timed on their own.
#   2. The runner's overhead, over the same cases: the run with --jobs 1 beside the floor of merely
#      forking as many children, one at a time, that each dlopen the reference
#      (tests/bench_fork_baseline.c), measured alternately in one run; the
#      ratio of the medians (target: at most 1.5).
#   3. Validation throughput per device: comparing a 10^7-row int32 column
#      with its fixture, beside memcmp (CPU) or a copy to the host
#      (tests/bench_validation_throughput.c).
#   4. Batches per second through the reference device stream and tasks per
#      second through the reference async pair, beside bare calls
#      (tests/bench_stream_throughput.c; target: >= 10^5 tasks/s).
# Usage: ci/bench-cpu-run.sh [BUILD_DIR]   (default build/default)
set -euo pipefail
build="${1:-build/default}"
conform="$build/adc-conform"
baseline="$build/bench_fork_baseline"
reference="$build/libadc_reference.so"
rounds=15
# Every rule family but the async ones (async.*, consumer.async.*).
no_waits=(--filter '*/array.*' --filter '*/schema.*' --filter '*/device_array.*' --filter '*/device_stream.*'
          --filter '*/plugin.*' --filter '*/consumer.[!a]*')
async_only=(--filter '*/async.*' --filter '*/consumer.async.*')
cases=$("$conform" --producer reference --consumer reference "${no_waits[@]}" --list | wc -l)
async_cases=$("$conform" --producer reference --consumer reference "${async_only[@]}" --list | wc -l)

seconds() { # wall time of a command, in seconds
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

parallel=()
serial=()
floor=()
async=()
for _ in $(seq "$rounds"); do
  parallel+=("$(seconds "$conform" --producer reference --consumer reference "${no_waits[@]}")")
  serial+=("$(seconds "$conform" --producer reference --consumer reference "${no_waits[@]}" --jobs 1)")
  floor+=("$(seconds "$baseline" "$reference" "$cases")")
  async+=("$(seconds "$conform" --producer reference --consumer reference "${async_only[@]}")")
done
printf 'benchmark: complete CPU run but the async cases, reference pair, %d cases, %s jobs: median %.3f s over %d runs (target < 0.2 s)\n' \
  "$cases" "$(nproc)" "$(median "${parallel[@]}")" "$rounds"
printf 'benchmark: the async cases, reference pair, %d cases, %s jobs: median %.3f s (they wait by design)\n' \
  "$async_cases" "$(nproc)" "$(median "${async[@]}")"
s=$(median "${serial[@]}")
f=$(median "${floor[@]}")
printf 'benchmark: runner overhead, --jobs 1: run %.3f s, fork+dlopen floor %.3f s, ratio %.2f (target <= 1.5)\n' \
  "$s" "$f" "$(echo "$s / $f" | bc -l)"
"$build/bench_validation_throughput"
"$build/bench_stream_throughput"
