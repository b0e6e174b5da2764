#!/usr/bin/env bash
# Runs the harness against Arrow C++ (the adapter of interop/arrow-cpp, built
# in BUILD_DIR) as producer and consumer on the CPU, the CPU through the
# device entry points and the simulated device, and compares every case with
# interop/arrow-cpp/expectations.txt: an unlisted shortfall, a listed case
# that ends otherwise (a pass included) or a line matching nothing fails.
#   ci/arrow-cpp-conformance.sh build/default [REPORT.json]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:?usage: ci/arrow-cpp-conformance.sh BUILD_DIR [REPORT.json]}"
report="${2:-$build_dir/arrow-cpp-report.json}"
library="$build_dir/libadc_arrow_cpp.so"
[ -f "$library" ] || { echo "no $library: configure with ADC_ARROW_CPP_PYTHON (ci/arrow-cpp-venv.sh)"; exit 2; }
status=0
"$build_dir/adc-conform" --producer "$library" --consumer "$library" --prefix ArrowCpp --device all \
  --filter 'cpu/*' --filter 'cpu_device_arrays/*' --filter 'simulated/*' --report-json "$report" >/dev/null ||
  status=$?
# 1 is "a MUST case failed", which the expectations judge; anything else is
# a run that did not finish.
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
  echo "adc-conform exited $status"
  exit 1
fi
python3 ci/compare-expectations.py "$report" interop/arrow-cpp/expectations.txt
