#!/usr/bin/env bash
# Installs the Debian 12 packages the build and tests need, when missing.
# hipcc and libamdhip64-dev build the ROCm reference module (there is no
# AMD GPU here: its cases end not_supported with HIP's own reason); the CUDA
# toolkit is preinstalled on every machine of this project.  python3-venv
# makes the virtual environment that holds the peers' packages (ci/peers-venv.sh).
# clang and libclang-rt-14-dev (libFuzzer and the sanitizer runtimes) build
# the fuzz targets (tests/fuzz).  python3-jsonschema and libxml2-utils
# (xmllint) validate the JSON and JUnit reports against their schemas in
# tests/test_reports.c.  nlohmann-json3-dev is the JSON library nanoarrow's
# integration reader is built with (interop/nanoarrow).  opencl-headers and
# ocl-icd-opencl-dev build the opencl device (harness driver, reference
# module); pocl-opencl-icd is the OpenCL platform its cases run on (PoCL:
# OpenCL 3.0 on the CPU, with worker threads of its own), and clinfo says
# what the ICD loader finds (CONFORMANCE.md, "OpenCL").  chromium opens the
# interop matrix's HTML page headless (tests/matrix_page_test.sh).
set -euo pipefail
packages=(build-essential cmake pkg-config libcjson-dev check valgrind bc clang-format git python3-venv hipcc
          libamdhip64-dev clang libclang-rt-14-dev python3-jsonschema libxml2-utils nlohmann-json3-dev
          opencl-headers ocl-icd-opencl-dev pocl-opencl-icd clinfo chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
