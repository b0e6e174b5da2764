#!/usr/bin/env bash
# Makes BUILD_DIR/arrow-cpp-venv, a virtual environment of the build (never
# the system's Python) holding PyPI's pyarrow wheel, whose libarrow and
# headers the Arrow C++ adapter (interop/arrow-cpp) is built against, and
# PyPI's nanoarrow wheel beside it, judged as a Python peer through the
# PyCapsule Interface (interop/python/nanoarrow_peer.py).  The versions are
# pinned: interop/arrow-cpp/expectations.txt and
# interop/python/*-expectations.txt record what these versions do, and a new
# one is a deliberate change of both.
#   ci/arrow-cpp-venv.sh build/default
set -euo pipefail
build_dir="${1:?usage: ci/arrow-cpp-venv.sh BUILD_DIR}"
pyarrow_version="26.0.1"
nanoarrow_version="0.9.0"
venv="$build_dir/arrow-cpp-venv"
python="$venv/bin/python3"
if [ -x "$python" ] && "$python" -c "import nanoarrow, pyarrow, sys; sys.exit(pyarrow.__version__ != '$pyarrow_version' or nanoarrow.__version__ != '$nanoarrow_version')" 2>/dev/null; then
  exit 0
fi
mkdir -p "$build_dir"
[ -x "$python" ] || python3 -m venv "$venv"
"$python" -m pip install --quiet "pyarrow==$pyarrow_version" "nanoarrow==$nanoarrow_version"
"$python" -c "import nanoarrow, pyarrow; print('pyarrow', pyarrow.__version__, 'and nanoarrow', nanoarrow.__version__, 'in', '$venv')"
