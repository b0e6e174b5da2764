#!/usr/bin/env bash
# The Arrow C++ peer (interop/arrow-cpp) judged by
# interop/arrow-cpp/expectations.txt (ci/peer-conformance.sh says how).
#   ci/arrow-cpp-conformance.sh BUILD_DIR [REPORT.json]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:?usage: ci/arrow-cpp-conformance.sh BUILD_DIR [REPORT.json]}"
exec ci/peer-conformance.sh "$build_dir" "$build_dir/libadc_arrow_cpp.so" ArrowCpp \
  interop/arrow-cpp/expectations.txt "${2:-$build_dir/arrow-cpp-report.json}"
