#!/usr/bin/env bash
# The CUDA plan of a session that is lent a GPU machine (the device tool),
# in one command of at most 500 s on a 16-core machine, from the bundle
# that ci/gpu-bundle.sh packed on the development machine.  Most telling
# first; each step has a limit and a log:
#
#   smoke            one case on cuda: the bundle, the runtime and the probe.
#                    Where it does not pass, the plan stops there and every
#                    other step is listed as not run, with the reason (no
#                    cuda device: the probe's words)
#   run-cuda         the reference pair on cuda, every fixture (2,077 cases)
#   run-cuda_host    the same on cuda_host, and on cuda_managed
#   run-cuda_managed
#   self-test-cuda   every twin whose rule runs on cuda, its own rule alone,
#                    on the fixtures that show it (else three that reach
#                    every rule)
#   jobs-1-vs-64     the reference pair on cuda, the hand-written fixtures, at
#                    --jobs 1 and --jobs 64: the statuses must be the same
#   nanoarrow-cuda   nanoarrow's CUDA device (interop/nanoarrow) as producer
#                    and consumer on cuda and cuda_host, where the bundle
#                    has the adapter
#   nanoarrow-device-arrays
#                    nanoarrow's device_array.* cases on cuda at the default
#                    jobs, at --jobs 1 and under memcheck, counting the cases
#                    that met "unspecified launch failure" (seen in 2026-11-27's
#                    runs; N6, the next step, is its likely cause)
#   nanoarrow-n6     the standalone program of nanoarrow's N6 candidate (a
#                    release that frees memory a pending copy still writes)
#   cs-memcheck      compute-sanitizer's memcheck with leak check over the
#                    reference pair on cuda, a case per process
#                    (--isolation case, so that a report names its case), on
#                    the int32 fixtures
#   mps-jobs-64      where nvidia-cuda-mps-control exists: NVIDIA's MPS
#                    daemon started (it halved a process's CUDA start on an
#                    H200), the jobs-1-vs-64 subset at --jobs 64 under it,
#                    with the same statuses; the daemon stopped after
#   tests            the device-layer and reference-pair tests (cuda groups)
#
# racecheck, synccheck and initcheck check what kernels do; neither the
# harness nor the reference launches one, so they are listed as not run,
# with that reason.  No step reads as a pass where it tested nothing: a
# step that ran no case on the device it is about is "not run: no cuda
# device (the probe's reason)".  OUT_DIR receives gpu-plan-DATE.tar.gz
# (every log and JSON report) and gpu-plan-DATE.md (the machine, and per
# step its exit status, time and verdict), to be committed under
# docs/gpu-runs/.  GPU_SESSION_BUDGET (default 500 s) is the whole plan's.
# Usage: ci/gpu-session.sh [OUT_DIR]   (default: $OUT)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out="${1:-${OUT:?name OUT_DIR, or set OUT}}"
bundle=.gpu-bundle
if [ ! -f "$bundle/built-at" ]; then
  echo "gpu-session: no $bundle here: run ci/gpu-bundle.sh, and carry .gpu-bundle" >&2
  exit 2
fi

# The checkout the bundle was built in, recreated as a link to this one.
built_at=$(cat "$bundle/built-at")
if [ "$built_at" != "$PWD" ] && [ ! -e "$built_at" ]; then
  mkdir -p "$(dirname "$built_at")" && ln -s "$PWD" "$built_at"
fi
# So is the build folder they were built in (ci/gpu-bundle.sh BUILD_DIR).
build=$(cat "$bundle/build-dir" 2>/dev/null || echo build/default)
mkdir -p "$(dirname "$build")"
[ -e "$build" ] || ln -s "$PWD/$bundle/default" "$build"
export LD_LIBRARY_PATH="$PWD/$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
conform=$build/adc-conform
pair=(--producer reference --consumer reference)

stamp=$(date -u +%F)
name="gpu-plan-$stamp"
results="$(mktemp -d)/$name"
mkdir -p "$results" "$out"
summary="$results/$name.md"
budget=${GPU_SESSION_BUDGET:-500}

# compute-sanitizer: on PATH, else in the CUDA toolkit's own folders; ""
# when there is none (its step is then listed as not run).
compute_sanitizer=$(command -v compute-sanitizer || true)
for candidate in "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" \
  "${CUDA_HOME:-/usr/local/cuda}/compute-sanitizer/compute-sanitizer"; do
  [ -z "$compute_sanitizer" ] && [ -x "$candidate" ] && compute_sanitizer=$candidate
done

# Why the plan stopped after the smoke case; "" while it goes on.
stopped=""

# The devices a run's log found unavailable, grouped by the runtime's
# reason: "no cuda, cuda_host devices (REASON); no rocm device (REASON)".
unavailable_devices() {
  grep -o 'device [a-z_]* unavailable: .*' "$1" |
    awk '{ name = $2; sub(/^device [a-z_]* unavailable: /, "")
           if (seen[name]++) next
           if ($0 in names) { names[$0] = names[$0] ", " name } else { order[n++] = $0; names[$0] = name } }
         END { for (i = 0; i < n; i++)
                 printf "%sno %s device%s (%s)", i ? "; " : "", names[order[i]],
                   index(names[order[i]], ",") ? "s" : "", order[i] }'
}

not_run() { # NAME WHY
  echo "| $1 | - | - | not run: $2 |" >>"$summary"
}

# step NAME LIMIT COMMAND...: runs COMMAND with a limit of LIMIT seconds (or
# what is left of the budget), its output in NAME.log, and adds a row to
# the summary.  The verdict is "not run: ..." where the command tested
# nothing: exit 77 (a program that skipped every group, with its own "not
# run:" lines), or an adc-conform run that judged no case (exit 3) because
# its devices are missing.
step() {
  local step_name=$1 limit=$2
  shift 2
  if [ -n "$stopped" ]; then
    not_run "$step_name" "$stopped"
    return
  fi
  local left=$((budget - SECONDS))
  if [ "$left" -lt 10 ]; then
    not_run "$step_name" "the plan's $budget s were spent"
    return
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  local started=$SECONDS log="$results/$step_name.log"
  if declare -F "$1" >/dev/null; then
    # A step of this script's own: each command in it has its share of
    # the limit (timeout cannot run a shell function).
    STEP_LIMIT=$limit "$@" >"$log" 2>&1
  else
    timeout "$limit" "$@" >"$log" 2>&1
  fi
  local status=$?
  local verdict missing
  missing=$(unavailable_devices "$log")
  if [ "$status" -eq 77 ]; then
    verdict=$(grep -E '^not run: ' "$log" | paste -sd ';' - | sed 's/;not run: /; /g')
    [ -n "$verdict" ] || verdict="not run (exit 77)"
  elif [ "$status" -eq 3 ] && [ -n "$missing" ] && grep -q 'Coverage: 0 of ' "$log"; then
    verdict="not run: $missing"
  else
    verdict=$(grep -E '^(CONFORMS|DOES NOT CONFORM|NOT SHOWN TO CONFORM)|tests passed|Checks: |^same statuses|statuses differ|case\(s\) met|REPRODUCED|^inconclusive' "$log" | paste -sd ';' - | sed 's/;/; /g')
    [ -z "$missing" ] || verdict="$verdict; not run: $missing"
    # A program's groups that could not run say so (tests/test_groups.h).
    local skipped
    skipped=$(grep -E '^not run: ' "$log" | paste -sd ';' - | sed 's/;not run: /; /g')
    [ -z "$skipped" ] || verdict="$verdict; $skipped"
  fi
  printf '| %s | %d | %d s | %s |\n' "$step_name" "$status" $((SECONDS - started)) "$verdict" >>"$summary"
  echo "gpu-session: $step_name: exit $status in $((SECONDS - started)) s"
  return "$status"
}

# same_statuses A.json B.json: says whether two reports give every case the
# same status, naming the first that differ.
same_statuses() {
  python3 - "$1" "$2" <<'COMPARE'
import json, sys
def statuses(path):
    return {c["id"]: c["status"] for c in json.load(open(path))["cases"]}
a, b = statuses(sys.argv[1]), statuses(sys.argv[2])
differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
if differ:
    print("statuses differ in %d of %d cases, e.g. %s" % (len(differ), len(a), "; ".join(
        "%s %s/%s" % (k, a.get(k), b.get(k)) for k in differ[:3])))
    sys.exit(1)
print("same statuses in all %d cases" % len(a))
COMPARE
}

# The reference pair on cuda, the hand-written fixtures, at `jobs`, into
# REPORT, within SECONDS.
cuda_subset() { # SECONDS JOBS REPORT
  timeout "$1" "$conform" "${pair[@]}" --device cuda --fixtures "$PWD/fixtures/data" --jobs "$2" --report-json "$3"
}

jobs_1_vs_64() {
  cuda_subset $((STEP_LIMIT / 2)) 1 "$results/jobs-1.json"
  cuda_subset $((STEP_LIMIT / 2)) 64 "$results/jobs-64.json"
  same_statuses "$results/jobs-1.json" "$results/jobs-64.json"
}

mps_jobs_64() {
  local mps_dir
  mps_dir=$(mktemp -d)
  export CUDA_MPS_PIPE_DIRECTORY="$mps_dir/pipe" CUDA_MPS_LOG_DIRECTORY="$mps_dir/log"
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d || return 1
  cuda_subset "$STEP_LIMIT" 64 "$results/mps-jobs-64.json"
  local status=$?
  echo quit | nvidia-cuda-mps-control
  tail -5 "$CUDA_MPS_LOG_DIRECTORY"/control.log 2>/dev/null
  [ "$status" -eq 0 ] || [ "$status" -eq 3 ] || echo "adc-conform exit $status under MPS"
  same_statuses "$results/jobs-1.json" "$results/mps-jobs-64.json"
}

# Both roles run at once on a GPU (one device start): their expectations
# are the two files of interop/nanoarrow together.
nanoarrow_expectations() {
  cat interop/nanoarrow/producer-expectations.txt interop/nanoarrow/consumer-expectations.txt >"$results/nanoarrow-expectations.txt"
  echo "$results/nanoarrow-expectations.txt"
}

nanoarrow_cuda() {
  local adapter="$build/libadc_nanoarrow.so" status=0 expectations
  expectations="$(nanoarrow_expectations)"
  # cuda takes twice cuda_host's time (30 s there on an H200): its cases
  # that meet "unspecified launch failure" each end a process (below).
  for device in cuda cuda_host; do
    local share=$((STEP_LIMIT / 3))
    [ "$device" = cuda ] && share=$((STEP_LIMIT * 2 / 3))
    timeout "$share" "$conform" --producer "$adapter" --consumer "$adapter" --prefix nanoarrow --device "$device" \
      --expect "$expectations" --report-json "$results/nanoarrow-$device.json" || status=$?
    # Every case that did not pass named by an entry, every entry of this
    # device matching a case, as ci/peer-conformance.sh asks on the CPU.
    python3 ci/expectations-exact.py "$results/nanoarrow-$device.json" "$expectations" "$device" ||
      status=1
  done
  return "$status"
}

# nanoarrow's device_array.* producer cases on cuda, where the runs of
# 2026-11-27 saw 13 to 36 of them leave the device with "unspecified launch
# failure" with two or more processes on the GPU, none at --jobs 1 or
# under memcheck (CONFORMANCE.md, nanoarrow: N6 read in the source is the
# likely cause): at the default jobs, at --jobs 1, and under
# compute-sanitizer's memcheck.  How many cases met the error is printed
# for each.
nanoarrow_device_arrays() {
  local adapter="$build/libadc_nanoarrow.so" status=0 third=$((STEP_LIMIT / 3)) name
  local run=("$conform" --producer "$adapter" --consumer "$adapter" --prefix nanoarrow --device cuda
    --filter 'cuda/device_array.*' --expect "$(nanoarrow_expectations)")
  timeout "$third" "${run[@]}" --report-json "$results/nanoarrow-device-arrays.json" || status=$?
  timeout "$third" "${run[@]}" --jobs 1 --report-json "$results/nanoarrow-device-arrays-jobs-1.json" || status=$?
  if [ -n "$compute_sanitizer" ]; then
    timeout "$third" "$compute_sanitizer" --require-cuda-init no --target-processes all --error-exitcode 97 \
      --tool memcheck "${run[@]}" --report-json "$results/nanoarrow-device-arrays-memcheck.json" || status=$?
  fi
  for name in nanoarrow-device-arrays nanoarrow-device-arrays-jobs-1 nanoarrow-device-arrays-memcheck; do
    [ -f "$results/$name.json" ] && python3 - "$results/$name.json" "$name" <<'COUNT'
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
met = sum("unspecified launch failure" in json.dumps(c) for c in cases)
print("%s: %d of %d case(s) met unspecified launch failure" % (sys.argv[2], met, len(cases)))
COUNT
  done
  return "$status"
}

{
  echo "# GPU plan, $stamp"
  echo
  echo "Bundle commit: $(cat "$bundle/commit")"
  echo
  echo '```'
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
  nvcc --version 2>&1 | tail -2
  "${compute_sanitizer:-compute-sanitizer}" --version 2>&1 | tail -1
  echo "$(nproc) CPUs; $(uname -sr)"
  echo '```'
  echo
  echo '| Step | Exit | Time | Verdict |'
  echo '|---|---|---|---|'
} >"$summary"

# Each limit is about twice the step's time on an H200 (2026-11-27,
# docs/gpu-runs/2026-11-27), most telling first; the plan's budget cuts
# the last steps short where the machine is slower.
step smoke 30 "$conform" --producer reference --device cuda --filter 'cuda/array.release.sets_null/int32_nulls' \
  --jobs 1 --verbose
smoke_status=$?
if [ "$smoke_status" -ne 0 ]; then
  reason=$(grep -o 'device cuda unavailable: .*' "$results/smoke.log" 2>/dev/null | head -1 |
    sed 's/^device cuda unavailable: //')
  if [ -n "$reason" ]; then
    stopped="no cuda device ($reason)"
  else
    stopped="the smoke case did not pass (exit $smoke_status; smoke.log)"
  fi
fi
step run-cuda 40 "$conform" "${pair[@]}" --device cuda --report-json "$results/run-cuda.json"
step run-cuda_host 40 "$conform" "${pair[@]}" --device cuda_host --report-json "$results/run-cuda_host.json"
step run-cuda_managed 40 "$conform" "${pair[@]}" --device cuda_managed --report-json "$results/run-cuda_managed.json"
step self-test-cuda 150 "$build/test_broken_implementations" --device cuda --own-rule \
  --fixture int32_nulls --fixture dictionary --fixture multi_batch
step jobs-1-vs-64 30 jobs_1_vs_64
if [ -f "$build/libadc_nanoarrow.so" ]; then
  step nanoarrow-cuda 130 nanoarrow_cuda
  step nanoarrow-device-arrays 90 nanoarrow_device_arrays
else
  not_run nanoarrow-cuda "the bundle has no nanoarrow adapter (built without nanoarrow's sources)"
fi
if [ -x "$build/nanoarrow_repro_n6_cuda_release_frees_memory_in_use" ]; then
  # Exit 0: N6 reproduced (CONFORMANCE.md, nanoarrow); 1: not; 2: setup
  # error or inconclusive.
  step nanoarrow-n6 20 "$build/nanoarrow_repro_n6_cuda_release_frees_memory_in_use"
else
  not_run nanoarrow-n6 "the bundle has no N6 reproduction (built without nanoarrow's CUDA device)"
fi
if [ -n "$compute_sanitizer" ]; then
  # The harness's parent never initialises CUDA: compute-sanitizer must not
  # wait for it to, and must follow the case processes.  Its own exit
  # status for a report, 97, stays apart from the harness's 1.
  step cs-memcheck 60 "$compute_sanitizer" --require-cuda-init no --target-processes all --error-exitcode 97 \
    --tool memcheck --leak-check full "$conform" "${pair[@]}" --device cuda --filter 'cuda/*/int32*' \
    --isolation case --timeout 120
else
  not_run cs-memcheck "no compute-sanitizer on PATH or in the CUDA toolkit's folder"
fi
for tool in racecheck synccheck initcheck; do
  not_run "cs-$tool" "$tool checks kernels' accesses, and neither the harness nor the reference launches a kernel"
done
if command -v nvidia-cuda-mps-control >/dev/null; then
  step mps-jobs-64 20 mps_jobs_64
else
  not_run mps-jobs-64 "no nvidia-cuda-mps-control on this machine"
fi
step tests 90 sh -c "'$build/test_device_layer'; '$build/test_reference_pair'"

tar -czf "$out/$name.tar.gz" -C "$(dirname "$results")" "$name"
cp "$summary" "$out/"
cat "$summary"
