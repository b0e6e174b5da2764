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
if [ "$status" -ne 0 ]; then
  echo "adc-conform --expect exited $status: the cases above did not end as $expectations says"
  exit 1
fi
python3 - "$report" "$expectations" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
unlisted = [c["id"] + ": " + c["status"] for c in report["cases"]
            if c["status"] != "pass" and "expectation" not in c]
judged_here = ("cpu", "cpu_device_arrays", "simulated")  # the --filter globs above
unmatched = [entry for entry in report["summary"].get("unmatched_expectations", [])
             if entry["glob"].split("/")[0] in judged_here or "*" in entry["glob"].split("/")[0]]
for line in unlisted:
    print(f"not in {sys.argv[2]}:", line)
for entry in unmatched:
    print("matches no case:", json.dumps(entry))
sys.exit(1 if unlisted or unmatched else 0)
PY
