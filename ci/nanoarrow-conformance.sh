#!/usr/bin/env bash
# The nanoarrow peer (interop/nanoarrow) judged by
# interop/nanoarrow/expectations.txt (ci/peer-conformance.sh says how).
#   ci/nanoarrow-conformance.sh BUILD_DIR [REPORT.json]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:?usage: ci/nanoarrow-conformance.sh BUILD_DIR [REPORT.json]}"
exec ci/peer-conformance.sh "$build_dir" "$build_dir/libadc_nanoarrow.so" nanoarrow \
  interop/nanoarrow/expectations.txt "${2:-$build_dir/nanoarrow-report.json}"
