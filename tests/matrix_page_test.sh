#!/usr/bin/env bash
# The interop matrix's HTML page in headless Chromium: a matrix of the
# reference, a producer that exports a value wrong and a consumer whose
# every other Import declines with markup and script
# (misbehaving_answers_in_markup), its page checked against its report by
# tests/matrix_page_check.py (the grid read back, the page inert), and no
# case crashed.
#   tests/matrix_page_test.sh BUILD_DIR PYTHON3
set -euo pipefail
build_dir="${1:?usage: tests/matrix_page_test.sh BUILD_DIR PYTHON3}" python="${2:?}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
status=0
"$build_dir/adc-conform" matrix \
  --library "markup=$build_dir/libmisbehaving_answers_in_markup.so:misbehaving" \
  --library "wrong=$build_dir/libbroken_producer_wrong_value.so:broken" \
  --device cpu --fixtures "$(dirname "$0")/../fixtures/data" \
  --report-json "$out/matrix.json" --html "$out/matrix.html" > "$out/console.txt" || status=$?
# Cases fail on purpose: exit 1 with the page written; anything else is not.
if [ "$status" -ne 1 ]; then
  cat "$out/console.txt"
  echo "adc-conform matrix exited $status, not 1"
  exit 1
fi
# No case of these libraries crashes: under ASan a crash here is the suite's
# own memory error or leak, told as the case's process ended (the asan
# preset runs this test, not test_matrix: ci/run-all-tests.sh).
"$python" - "$out/matrix.json" <<'PY'
import json, sys
crashed = [c["id"] + ": " + c["case"]["message"][:300] for c in json.load(open(sys.argv[1]))["cases"]
           if c["case"]["status"] == "crash"]
for line in crashed:
    print("crashed:", line)
sys.exit(1 if crashed else 0)
PY
"$python" "$(dirname "$0")/matrix_page_check.py" "$out/matrix.html" "$out/matrix.json"
