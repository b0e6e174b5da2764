#!/usr/bin/env bash
# The CUDA plan of a session that is lent a GPU machine (the device tool),
# in two commands of under ten minutes each, from the bundle that
# ci/gpu-bundle.sh packed on the development machine:
#
#   suite       the reference pair on cuda, cuda_host and cuda_managed, then
#               every device in one report; the device-layer and reference
#               pair tests; the self-test table (every broken twin on every
#               device this machine has, the CUDA ones included)
#   sanitizers  the reference pair on cuda under compute-sanitizer's
#               memcheck (with leak check), racecheck, synccheck and
#               initcheck, and under --valgrind where valgrind exists
#
# Each step runs whatever the one before did, with a time limit, and is
# logged; the steps of a part share GPU_SESSION_BUDGET seconds (default 540,
# under the device tool's ten minutes a command), most telling first, and a
# step the budget no longer covers is listed as not run; OUT_DIR receives gpu-PART-DATE.tar.gz (every log and JSON report)
# and gpu-PART-DATE.md (the machine, and per step its exit status, time and
# verdict line), to be committed under docs/gpu-runs/.
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
mkdir -p build
[ -e build/default ] || ln -s "../$bundle/default" build/default
export LD_LIBRARY_PATH="$PWD/$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
conform=build/default/adc-conform
pair=(--producer reference --consumer reference)

stamp=$(date -u +%F)
name="gpu-$part-$stamp"
results="$(mktemp -d)/$name"
mkdir -p "$results" "$out"
summary="$results/$name.md"

budget=${GPU_SESSION_BUDGET:-540}

# step NAME LIMIT COMMAND...: runs COMMAND with a limit of LIMIT seconds (or
# what is left of the budget), its output in NAME.log, and adds a row to
# the summary.
step() {
  local step_name=$1 limit=$2
  shift 2
  local left=$((budget - SECONDS))
  if [ "$left" -lt 10 ]; then
    echo "| $step_name | - | - | not run: the part's $budget s were spent |" >>"$summary"
    return
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  local started=$SECONDS
  timeout "$limit" "$@" >"$results/$step_name.log" 2>&1
  local status=$?
  local verdict
  verdict=$(grep -E '^(CONFORMS|DOES NOT CONFORM|NOT SHOWN TO CONFORM)|tests passed|Checks: ' "$results/$step_name.log" | tail -1)
  printf '| %s | %d | %d s | %s |\n' "$step_name" "$status" $((SECONDS - started)) "$verdict" >>"$summary"
  echo "gpu-session: $step_name: exit $status in $((SECONDS - started)) s"
}

{
  echo "# GPU session, $part, $stamp"
  echo
  echo "Bundle commit: $(cat "$bundle/commit")"
  echo
  echo '```'
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
  nvcc --version 2>&1 | tail -2
  compute-sanitizer --version 2>&1 | tail -1
  uname -sr
  echo '```'
  echo
  echo '| Step | Exit | Time | Verdict |'
  echo '|---|---|---|---|'
} >"$summary"

if [ "$part" = suite ]; then
  for device in cuda cuda_host cuda_managed; do
    step "run-$device" 120 "$conform" "${pair[@]}" --device "$device" --verbose --report-json "$results/run-$device.json"
  done
  step test-device-layer 60 build/default/test_device_layer
  step self-test 300 build/default/test_broken_implementations
  # Written where the test was built to write it: the bundle's build folder.
  table="$built_at/build/default/self-test-table.md"
  [ -f "$table" ] && cp "$table" "$results/"
  step test-reference-pair 120 build/default/test_reference_pair
  step run-all 120 "$conform" "${pair[@]}" --device all --report-json "$results/run-all.json"
else
  # The harness's parent never initialises CUDA: compute-sanitizer must
  # not wait for it to, and must follow the case processes.  Its own exit
  # status for a report, 97, stays apart from the harness's 1.
  sanitizer=(compute-sanitizer --require-cuda-init no --target-processes all --error-exitcode 97)
  step cs-memcheck 200 "${sanitizer[@]}" --tool memcheck --leak-check full "$conform" "${pair[@]}" --device cuda --timeout 120
  step cs-synccheck 120 "${sanitizer[@]}" --tool synccheck "$conform" "${pair[@]}" --device cuda --timeout 120
  step cs-racecheck 120 "${sanitizer[@]}" --tool racecheck "$conform" "${pair[@]}" --device cuda --timeout 120
  step cs-initcheck 120 "${sanitizer[@]}" --tool initcheck "$conform" "${pair[@]}" --device cuda --timeout 120
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
