#!/usr/bin/env bash
# The main job: install what is missing, build, and run the harness against
# the bundled reference producer and consumer on every device.  Extra arguments go to
# adc-conform (e.g. --report-json report.json).
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default -j"$(nproc)" >/dev/null
exec build/default/adc-conform --producer reference --consumer reference --device all "$@"
