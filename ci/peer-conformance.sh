#!/usr/bin/env bash
# A public implementation judged as a peer: runs the harness on its library,
# producer and consumer, on cpu, cpu_device_arrays and simulated, judged by
# its expectations file through adc-conform --expect.  Stricter than
# --expect alone, so that any change of the suite or of the peer shows: every
# case that does not pass (a SHOULD's warning and not_supported included)
# must be matched by an entry, and every entry must match a case (but one
# for a device this run does not open, such as cuda: a GPU's run judges it).
#   ci/peer-conformance.sh BUILD_DIR LIBRARY PREFIX EXPECTATIONS REPORT.json
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: ci/peer-conformance.sh BUILD_DIR LIBRARY PREFIX EXPECTATIONS REPORT.json"
build_dir="${1:?$usage}" library="${2:?$usage}" prefix="${3:?$usage}" expectations="${4:?$usage}" report="${5:?$usage}"
[ -f "$library" ] || { echo "no $library: this build has no such peer (README, \"Running against Arrow C++\", \"Running against nanoarrow\")"; exit 2; }
status=0
"$build_dir/adc-conform" --producer "$library" --consumer "$library" --prefix "$prefix" --device all \
  --filter 'cpu/*' --filter 'cpu_device_arrays/*' --filter 'simulated/*' \
  --expect "$expectations" --report-json "$report" | tail -n 4 || status=$?
# A crash in the suite's own code is no verdict of the peer's, whatever
# its expectations say: the suite's defect, named first.
[ ! -f "$report" ] || python3 ci/no-suite-crash.py "$report"
if [ "$status" -ne 0 ]; then
  echo "adc-conform --expect exited $status: the cases above did not end as $expectations says"
  exit 1
fi
# The --filter globs above name the devices judged here.
python3 ci/expectations-exact.py "$report" "$expectations" cpu cpu_device_arrays simulated
