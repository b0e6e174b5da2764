#!/usr/bin/env bash
# A Python library judged through the Arrow PyCapsule Interface, as a
# producer (adc-conform --producer python:MODULE:FACTORY, the default SIDE)
# or as a consumer (--consumer python:MODULE:FUNCTION), README "Running
# against a Python library", on cpu and cpu_device_arrays, by its
# expectations file, exactly as ci/peer-conformance.sh judges the C peers:
# every case that does not pass must be matched by an entry, and every
# entry must match a case.  The Python is $ADC_PYTHON, else the build's
# virtual environment (ci/arrow-cpp-venv.sh); without one that imports
# REQUIRED_MODULE the peer is skipped (exit 77), saying so.
#   ci/python-peer-conformance.sh BUILD_DIR MODULE:CALLABLE REQUIRED_MODULE EXPECTATIONS REPORT.json [producer|consumer]
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: ci/python-peer-conformance.sh BUILD_DIR MODULE:CALLABLE REQUIRED_MODULE EXPECTATIONS REPORT.json [producer|consumer]"
build_dir="${1:?$usage}" factory="${2:?$usage}" required="${3:?$usage}" expectations="${4:?$usage}" report="${5:?$usage}"
side="${6:-producer}"
if [ "$side" != producer ] && [ "$side" != consumer ]; then
  echo "ci/python-peer-conformance.sh: the side is 'producer' or 'consumer', not '$side'" >&2
  exit 2
fi
export ADC_PYTHON="${ADC_PYTHON:-$build_dir/arrow-cpp-venv/bin/python3}"
if ! [ -x "$ADC_PYTHON" ] || ! "$ADC_PYTHON" -c "import $required" 2>/dev/null; then
  echo "skipped: $ADC_PYTHON cannot import $required (ci/arrow-cpp-venv.sh $build_dir makes a virtual environment with pyarrow and nanoarrow)"
  exit 77
fi
status=0
"$build_dir/adc-conform" "--$side" "python:$factory" --device cpu,cpu_device_arrays \
  --expect "$expectations" --report-json "$report" | tail -n 4 || status=$?
# A crash in the suite's own code is no verdict of the peer's, whatever
# its expectations say: the suite's defect, named first.
[ ! -f "$report" ] || python3 ci/no-suite-crash.py "$report"
if [ "$status" -ne 0 ]; then
  echo "adc-conform --expect exited $status: the cases above did not end as $expectations says"
  exit 1
fi
python3 ci/expectations-exact.py "$report" "$expectations" cpu cpu_device_arrays
