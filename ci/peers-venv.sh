#!/usr/bin/env bash
# Makes BUILD_DIR/peers-venv, a virtual environment of the build (never the
# system's Python) holding every package interop/peers.tsv pins: PyPI's
# pyarrow wheel, whose libarrow and headers the Arrow C++ adapter
# (interop/arrow-cpp) is built against, and the Python peers judged through
# the PyCapsule Interface.  The versions are pinned there: each peer's
# expectations record what its version does, and a new one is a deliberate
# change of both.  Does nothing when every pin is installed already.
#   ci/peers-venv.sh build/default
set -euo pipefail
build_dir="$(realpath -m "${1:?usage: ci/peers-venv.sh BUILD_DIR}")"
cd "$(dirname "$0")/.."
mapfile -t pins < <(python3 ci/peers.py packages)
venv="$build_dir/peers-venv"
python="$venv/bin/python3"
# Installed as pinned: each pin's distribution at its version.
installed() {
  "$python" - "${pins[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version, PackageNotFoundError
try:
    sys.exit(any(version(p.split("==")[0]) != p.split("==")[1] for p in sys.argv[1:]))
except PackageNotFoundError:
    sys.exit(1)
PY
}
if [ -x "$python" ] && installed; then
  exit 0
fi
mkdir -p "$build_dir"
[ -x "$python" ] || python3 -m venv "$venv"
"$python" -m pip install --quiet "${pins[@]}"
echo "${pins[*]} in $venv"
