#!/usr/bin/env bash
# A public implementation judged as a peer, in one role, as its row of
# interop/peers.tsv says: its library (built here) or Python factory, its
# prefix and its devices, judged by interop/NAME/ROLE-expectations.txt
# through adc-conform --expect, and stricter than --expect alone, so that
# any change of the suite or of the peer shows: every case that does not
# pass (a SHOULD's warning and not_supported included) must be matched by
# an entry, and every entry must match a case (but one for a device this
# run does not open, such as cuda: a GPU's run judges it).  A Python peer
# runs in the build's virtual environment (ci/peers-venv.sh), or
# $ADC_PYTHON; where that Python cannot import the peer's module, or the
# build has not its library, it is skipped (exit 77), saying so.
#   ci/peer-conformance.sh BUILD_DIR NAME producer|consumer [REPORT.json]
set -euo pipefail
usage="usage: ci/peer-conformance.sh BUILD_DIR NAME producer|consumer [REPORT.json]"
build_dir="$(realpath -m "${1:?$usage}")" name="${2:?$usage}" role="${3:?$usage}"
report="$(realpath -m "${4:-$build_dir/peer-$name-$role.json}")"
cd "$(dirname "$0")/.."
if [ "$role" != producer ] && [ "$role" != consumer ]; then
  echo "ci/peer-conformance.sh: the role is 'producer' or 'consumer', not '$role'" >&2
  exit 2
fi
side="$(python3 ci/peers.py get "$name" "$role")"
devices="$(python3 ci/peers.py get "$name" "${role}_devices")"
prefix="$(python3 ci/peers.py get "$name" prefix)"
expectations="interop/$name/$role-expectations.txt"
if [ "$side" = - ]; then
  echo "ci/peer-conformance.sh: interop/peers.tsv judges $name as no $role" >&2
  exit 2
fi
run=("$build_dir/adc-conform" "--$role")
case "$side" in
  python:*)
    export ADC_PYTHON="${ADC_PYTHON:-$build_dir/peers-venv/bin/python3}"
    # A Rust library prints a symbolised backtrace of each panic where
    # RUST_BACKTRACE asks for one (polars declines a type with a panic: 55 ms
    # a declined case, 8 s of its cpu run); the panic's message is in the
    # exception the harness reports either way.
    export RUST_BACKTRACE=0
    module="${side#python:}"
    module="${module%%:*}"
    if ! [ -x "$ADC_PYTHON" ] || ! "$ADC_PYTHON" -c "import $module" 2>/dev/null; then
      echo "skipped: $ADC_PYTHON cannot import $module (ci/peers-venv.sh $build_dir installs every peer's packages)"
      exit 77
    fi
    run+=("$side")
    ;;
  *)
    if ! [ -f "$build_dir/$side" ]; then
      echo "skipped: this build has no $side (README, \"Peers\")"
      exit 77
    fi
    run+=("$build_dir/$side")
    ;;
esac
[ "$prefix" = - ] || run+=(--prefix "$prefix")
status=0
"${run[@]}" --device "$devices" --expect "$expectations" --report-json "$report" | tail -n 4 || status=$?
# A crash in the suite's own code is no verdict of the peer's, whatever
# its expectations say: the suite's defect, named first.
[ ! -f "$report" ] || python3 ci/no-suite-crash.py "$report"
if [ "$status" -ne 0 ]; then
  echo "adc-conform --expect exited $status: the cases above did not end as $expectations says"
  exit 1
fi
# shellcheck disable=SC2086 # the devices, one argument each
python3 ci/expectations-exact.py "$report" "$expectations" ${devices//,/ }
