#!/usr/bin/env bash
# Benchmarks of the main job and of the complete CPU run against the
# reference pair.  A benchmark, not a test: it prints figures and never
# fails on a slow machine.
#   0. The main job (ci/run-reference.sh: --device all) with 2 jobs: wall
#      time and cases judged (target: at most 0.5 s on 2 idle cores without
#      a GPU), and per device the median and longest case; and with the
#      default jobs (one per CPU, plus one), as ci/run-reference.sh runs it.
#      The main job's rounds leave an OpenCL platform (PoCL) out, so that
#      the figure stays the one issue I set its target for; opencl's share
#      is the run on it alone, timed after them where a platform is.
#   1. Wall time with one job per CPU (target: under 0.2 s on a 2-core machine),
#      over the cases that do not wait by design; the async cases, which do
#      (the harness leaves producers 10 ms to hand out what they were not
#      asked for, the consumer feed releases its handler 10 ms after the
#      end), are timed on their own.
#   2. The runner's overhead, over the same cases: the run with --jobs 1 beside the floor of merely
#      forking as many children, one at a time, that each dlopen the reference
#      (tests/benchmarks/bench_fork_baseline.c), measured alternately in one run; the
#      ratio of the medians (target: at most 1.5).
#   3. Validation throughput per device: comparing a 10^7-row int32 column
#      with its fixture, beside memcmp (CPU) or a copy to the host
#      (tests/benchmarks/bench_validation_throughput.c).
#   4. Batches per second through the reference device stream and tasks per
#      second through the reference async pair, beside bare calls
#      (tests/benchmarks/bench_stream_throughput.c; target: >= 10^5 tasks/s).
#   5. The logical comparison beside the exact one on 10^6-row int32 and utf8
#      columns, and on the same rows in 8192-row batches and as string views
#      (tests/benchmarks/bench_logical_compare.c).
#   6. The main CPU run of the reference beside the reference with an idle
#      thread pool, which prepared processes keep (ci/bench-kept-pool.sh;
#      target: a ratio of at most 1.5).
#   7. Each query engine's cpu run beside arro3's (ci/bench-engines.sh;
#      target: at most 5 times; skipped where the peers venv lacks them).
# Usage: ci/bench-cpu-run.sh [BUILD_DIR]   (default build/default)
set -euo pipefail
build="${1:-build/default}"
conform="$build/adc-conform"
baseline="$build/bench_fork_baseline"
reference="$build/libadc_reference.so"
rounds="${BENCH_ROUNDS:-15}" # fewer for a quick look
# Every rule family but the async ones (async.*, consumer.async.*).
no_waits=(--filter '*/array.*' --filter '*/schema.*' --filter '*/device_array.*' --filter '*/device_stream.*'
          --filter '*/plugin.*' --filter '*/consumer.[!a]*')
async_only=(--filter '*/async.*' --filter '*/consumer.async.*')
cases=$("$conform" --producer reference --consumer reference "${no_waits[@]}" --list | wc -l)
async_cases=$("$conform" --producer reference --consumer reference "${async_only[@]}" --list | wc -l)

# shellcheck source=ci/bench-timing.sh
source "$(dirname "$0")/bench-timing.sh"

main_job=(--producer reference --consumer reference --device all --jobs 2)
# No OpenCL vendor: the opencl device is probed once, found without a
# platform, and its cases cost no process.
without_opencl=(env OCL_ICD_VENDORS=/nonexistent)
parallel=()
serial=()
floor=()
async=()
main=()
main_default=()
for _ in $(seq "$rounds"); do
  main+=("$(seconds "${without_opencl[@]}" "$conform" "${main_job[@]}")")
  main_default+=("$(seconds "${without_opencl[@]}" "$conform" --producer reference --consumer reference --device all)")
  parallel+=("$(seconds "$conform" --producer reference --consumer reference "${no_waits[@]}")")
  serial+=("$(seconds "$conform" --producer reference --consumer reference "${no_waits[@]}" --jobs 1)")
  floor+=("$(seconds "$baseline" "$reference" "$cases")")
  async+=("$(seconds "$conform" --producer reference --consumer reference "${async_only[@]}")")
done
report="$(mktemp)"
"${without_opencl[@]}" "$conform" "${main_job[@]}" --report-json "$report" >/dev/null
printf 'benchmark: the main job (--device all, no OpenCL platform), reference pair, 2 jobs: median %.3f s over %d runs (target <= 0.5 s); %s\n' \
  "$(median "${main[@]}")" "$rounds" \
  "$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print("%d of %d cases judged" % (s["judged_cases"], s["cases"]))' "$report")"
printf 'benchmark: the main job with the default jobs (%d): median %.3f s\n' "$(($(nproc) + 1))" \
  "$(median "${main_default[@]}")"
# Per device, over the cases that ran a process (a device found unavailable
# settles its cases without one: they take 0 ms).
python3 - "$report" <<'PER_DEVICE'
import json, statistics, sys
cases = json.load(open(sys.argv[1]))["cases"]
for device in dict.fromkeys(c["device"] for c in cases):
    times = [c["duration_ms"] for c in cases if c["device"] == device]
    ran = [t for t in times if t > 0]
    if ran:
        print("benchmark:   %-18s %4d cases, median %.2f ms, longest %.2f ms" % (device, len(times), statistics.median(ran), max(ran)))
    else:
        print("benchmark:   %-18s %4d cases, none ran a process (device unavailable)" % (device, len(times)))
PER_DEVICE
# opencl's share: the run on it alone, where a platform is (one round: it
# takes about 10 s, against the test command's budget); a
# few cases first say whether one is (the exit status says only whether
# they showed conformance).
"$conform" --producer reference --consumer reference --device opencl --filter 'opencl/plugin.*' \
  --report-json "$report" >/dev/null 2>&1 || true
if python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["summary"]["judged_cases"] else 1)' "$report"; then
  printf "benchmark: opencl's share of the main job, --device opencl alone, 2 jobs: %.3f s (one run)\n" \
    "$(seconds "$conform" --producer reference --consumer reference --device opencl --jobs 2)"
else
  echo "benchmark: opencl's share of the main job: no OpenCL platform here"
fi
rm -f "$report"
printf 'benchmark: complete CPU run but the async cases, reference pair, %d cases, %s jobs: median %.3f s over %d runs (target < 0.2 s)\n' \
  "$cases" "$(nproc)" "$(median "${parallel[@]}")" "$rounds"
printf 'benchmark: the async cases, reference pair, %d cases, %s jobs: median %.3f s (they wait by design)\n' \
  "$async_cases" "$(nproc)" "$(median "${async[@]}")"
s=$(median "${serial[@]}")
f=$(median "${floor[@]}")
printf 'benchmark: runner overhead, --jobs 1: run %.3f s (%.0f cases/s), fork+dlopen floor %.3f s, ratio %.2f (target <= 1.5)\n' \
  "$s" "$(echo "$cases / $s" | bc -l)" "$f" "$(echo "$s / $f" | bc -l)"
"$build/bench_validation_throughput"
"$build/bench_stream_throughput"
"$build/bench_logical_compare"
# 6. What keeping a library's thread pool costs (ci/bench-kept-pool.sh).
BENCH_ROUNDS="$rounds" "$(dirname "$0")/bench-kept-pool.sh" "$build"
# 7. Each engine's cpu run beside arro3's (ci/bench-engines.sh; with
# BENCH_ENGINES_FROM_REPORTS=1, from the peers' runs the tests made).
BENCH_ROUNDS="$(((rounds + 2) / 3))" "$(dirname "$0")/bench-engines.sh" "$build" \
  ${BENCH_ENGINES_FROM_REPORTS:+--from-reports}
