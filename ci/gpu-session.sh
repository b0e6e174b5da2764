#!/usr/bin/env bash
# The CUDA plan of a session that is lent a GPU machine (the device tool),
# in two commands of under ten minutes each, from the bundle that
# ci/gpu-bundle.sh packed on the development machine:
#
#   suite       one case on cuda (a smoke test of the bundle and the
#               runtime, and the probe: where it ends not_supported there is
#               no cuda device, for the runtime's reason), the reference pair
#               on cuda, the device-layer and reference-pair tests, the
#               self-test table on cuda alone (each twin's own rule on the
#               fixtures that show it, else on three that reach every rule),
#               the reference pair on cuda_host and cuda_managed, then every
#               device in one report (on the hand-written fixtures)
#   sanitizers  one case under compute-sanitizer (with --jobs 1), then the
#               reference pair on cuda under its memcheck with leak check,
#               and under --valgrind where valgrind exists.  racecheck,
#               synccheck and initcheck check what kernels do, and the
#               harness and the reference launch none: they are listed as
#               not run, with that reason, never as passing
#
# Each step runs whatever the one before did, with a time limit, and is
# logged; the steps of a part share GPU_SESSION_BUDGET seconds (default 540,
# under the device tool's ten minutes a command), most telling first, and a
# step the budget no longer covers is listed as not run; OUT_DIR receives
# gpu-PART-DATE.tar.gz (every log and JSON report) and gpu-PART-DATE.md (the
# machine, and per step its exit status, time and verdict line), to be
# committed under docs/gpu-runs/.
#
# No step reads as a pass where it tested nothing: a step that ran no case
# on the device it is about (no such device here) is listed as "not run: no
# cuda device (the probe's reason)", and a run that judged other devices but
# found some missing names those after its verdict.
# Usage: ci/gpu-session.sh suite|sanitizers [OUT_DIR]   (default: $OUT)
set -uo pipefail
cd "$(dirname "$0")/.."
part="${1:?usage: ci/gpu-session.sh suite|sanitizers [OUT_DIR]}"
out="${2:-${OUT:?name OUT_DIR, or set OUT}}"
bundle=.gpu-bundle
if [ ! -f "$bundle/built-at" ]; then
  echo "gpu-session: no $bundle here: run ci/gpu-bundle.sh, and carry .gpu-bundle" >&2
  exit 2
fi
case "$part" in suite | sanitizers) ;; *)
  echo "gpu-session: unknown part '$part' (suite or sanitizers)" >&2
  exit 2
  ;;
esac

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
name="gpu-$part-$stamp"
results="$(mktemp -d)/$name"
mkdir -p "$results" "$out"
summary="$results/$name.md"

budget=${GPU_SESSION_BUDGET:-540}

# compute-sanitizer: on PATH, else in the CUDA toolkit's own folders; ""
# when there is none (its steps are then listed as not run).
compute_sanitizer=$(command -v compute-sanitizer || true)
for candidate in "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" \
  "${CUDA_HOME:-/usr/local/cuda}/compute-sanitizer/compute-sanitizer"; do
  [ -z "$compute_sanitizer" ] && [ -x "$candidate" ] && compute_sanitizer=$candidate
done

# The reason the probe gave for there being no cuda device; "" while none
# is known (the smoke step sets it).
no_cuda=""

# The devices a run's log found unavailable, grouped by the runtime's
# reason: "no cuda, cuda_host devices (REASON); no rocm device (REASON)".
# adc-conform names each ("device NAME unavailable: REASON"), on the line of
# each not_supported case (--verbose) or once per device.
unavailable_devices() {
  grep -o 'device [a-z_]* unavailable: .*' "$1" |
    awk '{ name = $2; sub(/^device [a-z_]* unavailable: /, "")
           if (seen[name]++) next
           if ($0 in names) { names[$0] = names[$0] ", " name } else { order[n++] = $0; names[$0] = name } }
         END { for (i = 0; i < n; i++)
                 printf "%sno %s device%s (%s)", i ? "; " : "", names[order[i]],
                   index(names[order[i]], ",") ? "s" : "", order[i] }'
}

# step NAME LIMIT COMMAND...: runs COMMAND with a limit of LIMIT seconds (or
# what is left of the budget), its output in NAME.log, and adds a row to
# the summary.  The verdict is "not run: ..." where the command tested
# nothing: exit 77 (test_broken_implementations --device on a device that
# is not here, with its own "not run:" line), or an adc-conform run that
# judged no case (exit 3) because its devices are missing.
step() {
  local step_name=$1 limit=$2
  shift 2
  if [ "$1" = "" ]; then
    echo "| $step_name | - | - | not run: no compute-sanitizer on PATH or in the CUDA toolkit's folder |" >>"$summary"
    return
  fi
  local left=$((budget - SECONDS))
  if [ "$left" -lt 10 ]; then
    echo "| $step_name | - | - | not run: the part's $budget s were spent |" >>"$summary"
    return
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  local started=$SECONDS log="$results/$step_name.log"
  timeout "$limit" "$@" >"$log" 2>&1
  local status=$?
  local verdict missing
  missing=$(unavailable_devices "$log")
  if [ "$status" -eq 77 ]; then
    verdict=$(grep -E '^not run: ' "$log" | paste -sd ';' - | sed 's/;not run: /; /g')
    [ -n "$verdict" ] || verdict="not run (exit 77)"
  elif [ "$status" -eq 3 ] && [ -n "$missing" ] && grep -q 'Coverage: 0 of ' "$log"; then
    verdict="not run: $missing"
  else
    verdict=$(grep -E '^(CONFORMS|DOES NOT CONFORM|NOT SHOWN TO CONFORM)|tests passed|Checks: ' "$log" | tail -1)
    [ -z "$missing" ] || verdict="$verdict; not run: $missing"
  fi
  printf '| %s | %d | %d s | %s |\n' "$step_name" "$status" $((SECONDS - started)) "$verdict" >>"$summary"
  echo "gpu-session: $step_name: exit $status in $((SECONDS - started)) s"
}

# cuda_step NAME LIMIT COMMAND...: a step whose program skips a device that
# is not here and passes on the others (test_reference_pair): run only where
# the probe found cuda, else listed as not run with the probe's reason.
cuda_step() {
  if [ -n "$no_cuda" ]; then
    echo "| $1 | - | - | not run: no cuda device ($no_cuda) |" >>"$summary"
    return
  fi
  step "$@"
}

{
  echo "# GPU session, $part, $stamp"
  echo
  echo "Bundle commit: $(cat "$bundle/commit")"
  echo
  echo '```'
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
  nvcc --version 2>&1 | tail -2
  "${compute_sanitizer:-compute-sanitizer}" --version 2>&1 | tail -1
  uname -sr
  echo '```'
  echo
  echo '| Step | Exit | Time | Verdict |'
  echo '|---|---|---|---|'
} >"$summary"

one_case=(--filter 'cuda/array.release.sets_null/int32_nulls' --jobs 1 --verbose)
# The hand-written fixtures (fixtures/data): 501 cases per CUDA device where
# the bundled set, generated layouts included, makes 2,077, each case a
# process that starts CUDA.  The steps that run several CUDA devices
# (test-reference-pair three in 90 s, run-all three among eight in 50 s)
# cannot pay the whole set on each; they use these, and run-cuda runs the
# whole set on cuda, so every generated layout still meets a GPU once.
hand_written="$PWD/fixtures/data"
if [ "$part" = suite ]; then
  # The limits add up to 470 s, under the part's budget, most telling first.
  step smoke 30 "$conform" --producer reference --device cuda "${one_case[@]}"
  no_cuda=$(grep -o 'device cuda unavailable: .*' "$results/smoke.log" 2>/dev/null | head -1 |
    sed 's/^device cuda unavailable: //')
  step run-cuda 60 "$conform" "${pair[@]}" --device cuda --verbose --report-json "$results/run-cuda.json"
  # Needs no GPU: its cuda test is of the event check made before the
  # runtime is asked anything.
  step test-device-layer 30 "$build/test_device_layer"
  # Every device, on the hand-written fixtures; it passes over a device that
  # is not here, so it runs only where the probe found cuda.
  cuda_step test-reference-pair 90 env ADC_TEST_FIXTURES="$hand_written" "$build/test_reference_pair"
  # Every twin whose rule runs on cuda (95), there alone, its own rule alone
  # (--own-rule), on the fixtures that show it, else on three that reach
  # every rule: about 215 cases in all, 2 a twin, each starting CUDA in its
  # process.  Whether a twin also fails other rules (its precision) is
  # judged on the CPU and the simulated device, where every rule runs, by
  # every run of the test command; here, whether cuda catches it.  Without
  # cuda it exits 77: not run.
  step self-test-cuda 150 "$build/test_broken_implementations" --device cuda --own-rule \
    --fixture int32_nulls --fixture dictionary --fixture multi_batch
  # Two more CUDA devices in 30 s each: the hand-written fixtures (501
  # cases each), where the whole set would be 2,077 CUDA starts each.
  step run-cuda_host 30 "$conform" "${pair[@]}" --device cuda_host --fixtures "$hand_written" --verbose \
    --report-json "$results/run-cuda_host.json"
  step run-cuda_managed 30 "$conform" "${pair[@]}" --device cuda_managed --fixtures "$hand_written" --verbose \
    --report-json "$results/run-cuda_managed.json"
  step run-all 50 "$conform" "${pair[@]}" --device all --fixtures "$hand_written" \
    --report-json "$results/run-all.json"
else
  # The harness's parent never initialises CUDA: compute-sanitizer must
  # not wait for it to, and must follow the case processes.  Its own exit
  # status for a report, 97, stays apart from the harness's 1.
  sanitizer=("$compute_sanitizer" --require-cuda-init no --target-processes all --error-exitcode 97)
  [ -n "$compute_sanitizer" ] || sanitizer=("")
  step cs-smoke 60 "${sanitizer[@]}" --tool memcheck "$conform" --producer reference --device cuda "${one_case[@]}"
  # Each case a process under the sanitizer (a second or more of its own
  # start each): the hand-written fixtures, 501 cases, fit its 300 s on 16
  # cores where the whole set's 2,077 might not.
  step cs-memcheck 300 "${sanitizer[@]}" --tool memcheck --leak-check full "$conform" "${pair[@]}" --device cuda \
    --fixtures "$hand_written" --timeout 120
  for tool in racecheck synccheck initcheck; do
    echo "| cs-$tool | - | - | not run: $tool checks kernels' accesses, and neither the harness nor the reference launches a kernel |" >>"$summary"
  done
  if command -v valgrind >/dev/null; then
    step valgrind-cuda 120 "$conform" "${pair[@]}" --device cuda --valgrind --filter 'cuda/*/int32*' \
      --report-json "$results/valgrind-cuda.json"
  else
    echo "| valgrind-cuda | - | - | not run: no valgrind on this machine |" >>"$summary"
  fi
fi

tar -czf "$out/$name.tar.gz" -C "$(dirname "$results")" "$name"
cp "$summary" "$out/"
cat "$summary"
