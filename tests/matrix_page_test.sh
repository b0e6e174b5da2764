#!/usr/bin/env bash
# The interop matrix's HTML page in headless Chromium: a matrix of the
# reference, a producer that exports a value wrong and a consumer whose
# every other Import declines with markup and script
# (misbehaving_answers_in_markup), its page checked against its report by
# tests/matrix_page_check.py (the grid read back, the page inert).
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
"$python" "$(dirname "$0")/matrix_page_check.py" "$out/matrix.html" "$out/matrix.json"
