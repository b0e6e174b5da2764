#!/usr/bin/env bash
# Every test: the formatting check, the Check suites on a normal build (with
# every peer of interop/peers.tsv judged, the walkthrough's program
# and the downstream example against the installed package) and on
# an ASan + UBSan build (-fno-sanitize-recover=all), the reference pair on
# every device (the simulated device's worker threads included) under
# ThreadSanitizer, the reference pair under Valgrind memcheck with zero
# reports, the libFuzzer targets (25 s each), and the CPU-run benchmark.
# OpenCL runs on PoCL, which ci/install-deps.sh installs (CONFORMANCE.md,
# "OpenCL": what runs on it in each step).
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh
jobs="$(nproc)"
# PoCL keeps its kernel cache here rather than in $HOME/.cache, where each
# platform start leaves a file.
export POCL_CACHE_DIR="$PWD/build/pocl-cache"
mkdir -p "$POCL_CACHE_DIR"
# What the ICD loader finds: the opencl cases run on it.
clinfo -l 2>&1 || echo "WARNING: clinfo failed; the opencl cases end not_supported with the reason"
# Each section says when it starts, in seconds since the test command did:
# the whole command must stay under 15 minutes on two cores.
started=$SECONDS
section() { echo "== $1 (at $((SECONDS - started)) s) =="; }

section "Formatting"
ci/check-format.sh

section "default build: Check suites, and the peers (interop/peers.tsv)"
# Every peer's pinned packages, in a virtual environment of the build: the
# Python peers, and pyarrow's libarrow for the Arrow C++ adapter
# (interop/arrow-cpp); the default preset finds it there.  Without PyPI
# those peers and their tests are left out, loudly, and every other test
# runs.
ci/peers-venv.sh build/default || echo "WARNING: no peers' packages; Arrow C++ and the Python peers are not judged in this run"
# nanoarrow's C sources, from PyPI's sdist, for the nanoarrow peer
# (interop/nanoarrow); left out the same way without PyPI.
ci/nanoarrow-source.sh build/default || echo "WARNING: no nanoarrow sources; nanoarrow is not judged in this run"
cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
ctest --preset default
section "Self-test table (every twin, build/default/self-test-table.md): totals"
tail -n 5 build/default/self-test-table.md

section "Downstream example against the installed package"
# cmake --install into a temporary prefix, examples/downstream configured,
# built and tested against it from an empty build folder (ctest runs it as
# downstream_example too; here it is said on its own).
ci/test-downstream-example.sh build/default

# (The tests labelled slow, the self-test table, async_repeatability and
# verdicts_under_load, run in the default build only: under ASan the table
# alone takes minutes.  So do costly_runtime_model and kept_threads, whose
# subjects are the runner's timing with a slow device and a library's idle
# threads, not memory: the same code (the runner's slots for a costly
# device, the thread count every prepared process takes after a case) runs
# under ASan in reference_pair_opencl and every other run; and the twins'
# device-id and round-trip tables.  So does matrix, whose subject is what a
# matrix reports (blame, cells, shards, each pair rule's twins): the same
# code, the matrix command, its pair rules on every interface with their
# wrapped releases and kept records, and its three writers, runs under
# ASan in matrix_page, on the data fixtures, which fails on any crash (a
# leak LeakSanitizer tells as a case's process ends is one: measured, it
# caught the kept records lost again).  So does python_side, whose subject
# is the verdict a Python library's behaviour gets (a factory that raises,
# crashes or hangs, an object of the wrong kind, a pair's Python libraries):
# the shim's own C code runs under ASan in pycapsule_rules, every capsule
# rule through it with its twins; python_side was the longest ASan test,
# 46 s of its 155 beside a CPU hog.)
section "ASan + UBSan build: Check suites"
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$jobs"
ctest --preset asan

section "ThreadSanitizer build: the reference pair on every device, the device layer"
# Only these: the broken and misbehaving libraries race on purpose.  A race
# halts the case, which then ends crash and fails the test.  The build
# preset builds these tests' programs alone (CMakePresets.json).
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j"$jobs"
ctest --preset tsan

section "Valgrind memcheck: harness and reference pair (every rule, three fixtures)"
ci/valgrind-reference.sh build/default

section "libFuzzer: 25 s per target"
# The fixture reader, the comparison with its mirror, the verdict wire,
# the round trips of random files of every type (1 minute 40 s in all); each
# replays its committed corpus, then fuzzes from it (tests/fuzz).
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$jobs"
ctest --preset fuzz

section "Benchmark"
# One round (15 by default, medians): every round runs the main job on the
# whole fixture set twice, and the test command must stay within its
# budget; the figures are printed, never judged (BENCH_ROUNDS=15 for
# medians worth comparing).
# The engines' figures come from their peer tests' runs above
# (ci/bench-engines.sh --from-reports), which already took that time.
BENCH_ROUNDS=1 BENCH_ENGINES_FROM_REPORTS=1 ci/bench-cpu-run.sh build/default
# Device runtimes at scale: the costly-runtime model and the main job with
# PoCL, one round each, the model at the default jobs alone
# (ci/bench-device-runtimes.sh; BENCH_BEFORE=1 adds the figures a process
# per case gives, minutes on the model).
BENCH_ROUNDS=1 BENCH_MODEL_JOBS=default ci/bench-device-runtimes.sh build/default
# The interop matrix's rate, on the C peers' simulated set (0.5 s a round;
# the cpu set's figure is its ctest, peer_matrix_cpu).
BENCH_ROUNDS=1 ci/bench-matrix.sh build/default simulated
echo "== All tests passed in $((SECONDS - started)) s =="
