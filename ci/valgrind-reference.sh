#!/usr/bin/env bash
# Runs the reference pair on the CPU (both ways) and the simulated device under Valgrind
# memcheck (the GPU devices only load their runtimes here, and memcheck
# cannot follow a GPU runtime usefully), following every case's
# child process, and fails on any error or definite leak report.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build/valgrind}"
cmake --preset valgrind >/dev/null
cmake --build --preset valgrind -j"$(nproc)" --target adc-conform adc_reference >/dev/null
log_dir="$(mktemp -d)"
# One job at a time keeps memcheck's logs apart; each child gets a generous
# timeout because memcheck is slow.
for device in cpu cpu_device_arrays simulated; do
  valgrind --quiet --tool=memcheck --trace-children=yes --child-silent-after-fork=no \
    --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --error-exitcode=99 --log-file="$log_dir/memcheck.%p.log" \
    "$build_dir/adc-conform" --producer reference --consumer reference --device "$device" --jobs 1 --timeout 60 \
    >"$log_dir/run.txt"
  tail -3 "$log_dir/run.txt"
done
reports=$(cat "$log_dir"/memcheck.*.log | grep -c "^==[0-9]*== ." || true)
if [ "$reports" -ne 0 ]; then
  cat "$log_dir"/memcheck.*.log | head -60
  echo "valgrind: $reports report line(s)"
  exit 1
fi
echo "valgrind: 0 reports in $(ls "$log_dir"/memcheck.*.log | wc -l) processes"
rm -rf "$log_dir"
