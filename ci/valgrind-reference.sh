#!/usr/bin/env bash
# Runs the reference pair under Valgrind memcheck on the CPU (both ways), the
# simulated device and opencl where PoCL is (the GPU devices only load
# their runtimes here, and memcheck cannot follow a GPU runtime usefully),
# following every case's child process, and fails on any error or definite
# leak report.
#
# Every rule runs, on the fixtures that between them reach every path of
# the reference pair's code: a struct of int32 and nested struct columns,
# dictionaries of strings and of ints, and several batches of int32, utf8
# and int64 with an empty one among them.  The int32-only fixtures add no
# code path, and memcheck costs about 0.2 s a case (half of it the leak
# check at each case's exit), so leaving them out keeps this step near a
# minute on two cores.
#
# The programs are the default build's (RelWithDebInfo: -O2 -g), as users
# run them: memcheck reads the machine code, the debug information names
# the places; a Debug build of their own cost the test command half a
# minute of compiling and found nothing more (0 reports either way,
# 2026-11-29).
#   ci/valgrind-reference.sh [BUILD_DIR]   (default build/default, the default preset's)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build/default}"
if [ "$(realpath -m "$build_dir")" = "$(realpath -m build/default)" ]; then
  cmake --preset default >/dev/null
  # The opencl reference module where the build has the OpenCL headers.
  targets=(adc-conform adc_reference)
  # (Read whole first: grep -q would close the pipe early, and pipefail
  # would count make's broken pipe as no.)
  build_targets="$(cmake --build --preset default --target help)"
  if grep -q adc_reference_opencl <<<"$build_targets"; then
    targets+=(adc_reference_opencl)
  fi
  cmake --build --preset default -j"$(nproc)" --target "${targets[@]}" >/dev/null
fi
log_dir="$(mktemp -d)"
filters=()
for device in cpu cpu_device_arrays simulated; do
  for fixture in nested_struct dictionary multi_batch; do
    filters+=(--filter "$device/*/$fixture")
  done
done
# On opencl (PoCL, where installed), the rules on events and releases, on
# one fixture of several batches: each case's process starts PoCL, which
# costs about 1.5 s a case under memcheck even with its libraries preloaded
# (runner/preload_server.h).  36 cases: about 35 s on two cores.
for rules in '*sync_event*' '*events*' '*release*'; do
  filters+=(--filter "opencl/$rules/multi_batch")
done
# Each process logs apart (memcheck.<pid>.log), so cases run two at a time;
# each gets a generous limit because memcheck is slow.
# The suppressions are the dynamic loader's reports as it maps PoCL (its
# header says why), as --valgrind passes them.
valgrind --quiet --tool=memcheck --trace-children=yes --child-silent-after-fork=no \
  --suppressions=harness/valgrind/gpu-runtimes.supp --num-callers=40 \
  --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
  --error-exitcode=99 --log-file="$log_dir/memcheck.%p.log" \
  "$build_dir/adc-conform" --producer reference --consumer reference --device all "${filters[@]}" \
  --jobs "$(nproc)" --timeout 60 >"$log_dir/run.txt"
tail -3 "$log_dir/run.txt"
reports=$(cat "$log_dir"/memcheck.*.log | grep -c "^==[0-9]*== ." || true)
if [ "$reports" -ne 0 ]; then
  cat "$log_dir"/memcheck.*.log | head -60
  echo "valgrind: $reports report line(s)"
  exit 1
fi
echo "valgrind: 0 reports in $(ls "$log_dir"/memcheck.*.log | wc -l) processes"
rm -rf "$log_dir"
