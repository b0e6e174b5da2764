#!/usr/bin/env bash
# The interop matrix of the peers (interop/peers.tsv) and the reference on a
# set of devices: every peer judged there in a role, each one's exports
# into each one's imports (adc-conform matrix), checked against what is
# committed under interop/matrix/: SET.cells.tsv, the expected grid (each
# pair's worst status and its passed and total cases per device), and
# SET-expectations.txt, an entry naming the finding behind every case that
# found something wrong (CONFORMANCE.md, "The interop matrix").  Writes
# REPORT_DIR/matrix-SET.json and .html.  Where a peer cannot be loaded
# (its Python package or its library missing) it is skipped (exit 77),
# saying so: the committed grid holds every peer.
#   ci/peer-matrix.sh BUILD_DIR cpu|simulated [--write]
#     cpu        devices cpu and cpu_device_arrays
#     simulated  device simulated
#     --write    rewrite the committed grid from this run (after a change
#                whose every new disagreement has its entry)
set -euo pipefail
usage="usage: ci/peer-matrix.sh BUILD_DIR cpu|simulated [--write]"
build_dir="$(realpath -m "${1:?$usage}")" set="${2:?$usage}"
write=""
case "${3:-}" in
  "") ;;
  --write) write=--write ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
[ $# -le 3 ] || { echo "$usage" >&2; exit 2; }
cd "$(dirname "$0")/.."
case "$set" in
  cpu) devices=cpu,cpu_device_arrays ;;
  simulated) devices=simulated ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
export ADC_PYTHON="${ADC_PYTHON:-$build_dir/peers-venv/bin/python3}"
# As for a peer's own run (ci/peer-conformance.sh): a panic's backtrace costs
# time and says nothing the exception does not.
export RUST_BACKTRACE=0
libraries=()
while read -r argument; do
  libraries+=("$argument")
  case "$argument" in
    --library=*) spec="${argument#--library=*=}" ;;
    *) continue ;;
  esac
  case "$spec" in
    python:*)
      module="${spec#python:}"
      module="${module%%:*}"
      if ! [ -x "$ADC_PYTHON" ] || ! "$ADC_PYTHON" -c "import $module" 2>/dev/null; then
        echo "skipped: $ADC_PYTHON cannot import $module (ci/peers-venv.sh $build_dir installs every peer's packages)"
        exit 77
      fi
      ;;
    *)
      if ! [ -f "${spec%:*}" ]; then
        echo "skipped: this build has no ${spec%:*} (README, \"Peers\")"
        exit 77
      fi
      ;;
  esac
done < <(python3 ci/peers.py matrix "$build_dir" "$devices")
# A set with nothing committed yet is run only to write it.
if [ -z "$write" ] && ! [ -f "interop/matrix/$set.cells.tsv" ]; then
  echo "ci/peer-matrix.sh: interop/matrix/$set.cells.tsv is not committed: --write writes it from a run (name every disagreement in interop/matrix/$set-expectations.txt first)" >&2
  exit 2
fi
named="interop/matrix/$set-expectations.txt"
expect=(--expect "$named")
report="$build_dir/matrix-$set.json"
status=0
"$build_dir/adc-conform" matrix "${libraries[@]}" --device "$devices" "${expect[@]}" --report-json "$report" \
  --html "$build_dir/matrix-$set.html" > "$build_dir/matrix-$set.txt" || status=$?
tail -n 2 "$build_dir/matrix-$set.txt"
[ ! -f "$report" ] || python3 ci/no-suite-crash.py "$report"
if [ "$status" -ne 0 ] && [ -z "$write" ]; then
  echo "adc-conform matrix exited $status: the cases above did not end as $named says"
  grep -A3 'not as expected\|unexpected' "$build_dir/matrix-$set.txt" | head -20 || true
  exit 1
fi
python3 ci/matrix-check.py "$report" "interop/matrix/$set.cells.tsv" "$named" $write
