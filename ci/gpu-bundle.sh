#!/usr/bin/env bash
# Packs, on this machine, what a GPU machine of the device tool needs to run
# the CUDA plan of ci/gpu-session.sh without building there: those machines
# reach no package archive and have neither cJSON nor Check.  The bundle,
# .gpu-bundle/ (ignored by git), holds the default build's harness, the
# reference library and its CUDA module, the broken and misbehaving twins,
# the three test programs that touch devices, and the shared libraries from
# Debian they load.  Carry it: run(carry=[".gpu-bundle"], command="bash
# ci/gpu-session.sh", timeout_s=540): the whole plan in one command
# (CONFORMANCE.md, "Devices").
# Usage: ci/gpu-bundle.sh [BUILD_DIR]   (default: build/default, configured
# by its preset; a build folder named is built as it was configured, for a
# checkout whose default build lives elsewhere, as a git worktree's may)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/default}
bundle=.gpu-bundle
if [ "$build" = build/default ]; then
  cmake --preset default >/dev/null
  cmake --build --preset default -j"$(nproc)" >/dev/null
else
  cmake --build "$build" -j"$(nproc)" >/dev/null
fi
rm -rf "$bundle"
mkdir -p "$bundle/default" "$bundle/lib"
cp "$build/adc-conform" "$build/test_reference_pair" "$build/test_broken_implementations" \
  "$build/test_device_layer" "$bundle/default/"
# N6's reproduction (interop/nanoarrow/repro), where nanoarrow has its CUDA device.
n6="$build/nanoarrow_repro_n6_cuda_release_frees_memory_in_use"
[ -x "$n6" ] && cp "$n6" "$bundle/default/"
for library in "$build"/lib*.so; do
  case "$library" in
    *arrow_cpp*) ;; # the Arrow C++ peer needs its venv: not part of the device plan
    *) cp "$library" "$bundle/default/" ;;
  esac
done
# The libraries those programs load that a GPU machine may lack, as this
# machine resolves them (libcudart: the runtime the CUDA module was built
# against; the machine's driver must be 580 or newer for CUDA 13).
for soname in libcjson.so.1 libsubunit.so.0 libcudart.so.13; do
  path=$(ldconfig -p | awk -v name="$soname" '$1 == name && !found {print $NF; found = 1}')
  if [ -z "$path" ]; then
    echo "gpu-bundle: $soname not found on this machine" >&2
    exit 1
  fi
  cp -L "$path" "$bundle/lib/"
done
# Without their debug information (RelWithDebInfo's -g): 68 MB with it
# (65 MiB, 135 libraries and 4 programs), over what the device tool carries
# with the tree (64 MiB), and 19 MB without (measured 2026-11-26).  A
# backtrace on the GPU machine then names functions, not lines.
find "$bundle" -type f -name '*.so*' -exec strip --strip-debug {} +
strip --strip-debug "$bundle"/default/adc-conform "$bundle"/default/test_*
# The programs hold the absolute paths of the checkout and build folder they
# were built in (fixtures, the harness and twins the tests start);
# ci/gpu-session.sh recreates both.
echo "$PWD" >"$bundle/built-at"
echo "$build" >"$bundle/build-dir"
git rev-parse HEAD >"$bundle/commit"
echo "gpu-bundle: $(du -sh "$bundle" | cut -f1) in $bundle (the device tool carries at most 64 MiB with the tree)"
