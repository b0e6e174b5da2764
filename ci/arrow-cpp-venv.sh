#!/usr/bin/env bash
# Makes BUILD_DIR/arrow-cpp-venv, a virtual environment of the build (never
# the system's Python) holding PyPI's pyarrow wheel, whose libarrow and
# headers the Arrow C++ adapter (interop/arrow-cpp) is built against.  The
# version is pinned: interop/arrow-cpp/expectations.txt records what this
# version does, and a new one is a deliberate change of both.
#   ci/arrow-cpp-venv.sh build/default
set -euo pipefail
build_dir="${1:?usage: ci/arrow-cpp-venv.sh BUILD_DIR}"
pyarrow_version="26.0.1"
venv="$build_dir/arrow-cpp-venv"
python="$venv/bin/python3"
if [ -x "$python" ] && "$python" -c "import pyarrow, sys; sys.exit(pyarrow.__version__ != '$pyarrow_version')" 2>/dev/null; then
  exit 0
fi
mkdir -p "$build_dir"
python3 -m venv "$venv"
"$python" -m pip install --quiet "pyarrow==$pyarrow_version"
"$python" -c "import pyarrow; print('pyarrow', pyarrow.__version__, 'in', '$venv')"
