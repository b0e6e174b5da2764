#!/usr/bin/env bash
# The Arrow C++ peer: runs the harness on the adapter (interop/arrow-cpp),
# producer and consumer, on cpu, cpu_device_arrays and simulated, judged by
# interop/arrow-cpp/expectations.txt through adc-conform --expect.  Stricter
# than --expect alone, so that any change of the suite or of Arrow C++
# shows: every case that does not pass (a SHOULD's warning and not_supported
# included) must be matched by an entry, and every entry must match a case.
#   ci/arrow-cpp-conformance.sh BUILD_DIR [REPORT.json]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:?usage: ci/arrow-cpp-conformance.sh BUILD_DIR [REPORT.json]}"
report="${2:-$build_dir/arrow-cpp-report.json}"
library="$build_dir/libadc_arrow_cpp.so"
[ -f "$library" ] || { echo "no $library: configure with ADC_ARROW_CPP_PYTHON (ci/arrow-cpp-venv.sh)"; exit 2; }
status=0
"$build_dir/adc-conform" --producer "$library" --consumer "$library" --prefix ArrowCpp --device all \
  --filter 'cpu/*' --filter 'cpu_device_arrays/*' --filter 'simulated/*' \
  --expect interop/arrow-cpp/expectations.txt --report-json "$report" | tail -n 4 || status=$?
if [ "$status" -ne 0 ]; then
  echo "adc-conform --expect exited $status: the cases above did not end as interop/arrow-cpp/expectations.txt says"
  exit 1
fi
python3 - "$report" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
unlisted = [c["id"] + ": " + c["status"] for c in report["cases"]
            if c["status"] != "pass" and "expectation" not in c]
unmatched = report["summary"].get("unmatched_expectations", [])
for line in unlisted:
    print("not in interop/arrow-cpp/expectations.txt:", line)
for entry in unmatched:
    print("matches no case:", json.dumps(entry))
sys.exit(1 if unlisted or unmatched else 0)
PY
