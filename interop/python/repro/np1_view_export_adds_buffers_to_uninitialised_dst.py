#!/usr/bin/env python3
"""NP1: nanoarrow's Python package crashes exporting a string or binary
view array with variadic buffers through the PyCapsule Interface.

Spec (Arrow PyCapsule Interface, "ArrowArray Export"): __arrow_c_array__
exports the object as a pair of ArrowSchema and ArrowArray capsules; the
C Data Interface's "Binary view" layout has, after its validity and views
buffers, one or more variadic data buffers and a buffer of their sizes.

nanoarrow 0.9.0 (src/nanoarrow/_utils.pyx, c_array_shallow_copy, which
CArray.__arrow_c_array__ and CDeviceArray.__arrow_c_device_array__ call to
fill the exported structure) builds the copy in a structure of its own,
`tmp`, and moves it into `dst` at the end; but for more than three buffers
it calls ArrowArrayAddVariadicBuffers(dst, ...) on `dst`, which nothing has
initialised yet (ArrowMalloc'd, only its release set to NULL), so nanoarrow
reads and writes through the garbage `dst.private_data`.  The export is
made in a child process, whose death by a signal is the misbehaviour.

Standalone: needs nanoarrow alone.  Exit 0 and "REPRODUCED NP1: ..." when
the export kills the process, 1 and "NOT REPRODUCED NP1: ..." when it
returns the capsules, 2 on a setup error (ci/check-reproductions.sh).
"""
import signal
import subprocess
import sys

try:
    import nanoarrow
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

# A string_view array whose second value is longer than 12 bytes, so that
# it lives in a variadic buffer: validity, views, one data buffer, sizes.
EXPORT = """
import nanoarrow
array = nanoarrow.c_array(["a", "a value longer than twelve bytes"], nanoarrow.string_view())
assert array.n_buffers > 3, array.n_buffers
schema_capsule, array_capsule = array.__arrow_c_array__()
print("exported")
"""

child = subprocess.run([sys.executable, "-c", EXPORT], capture_output=True, text=True, timeout=50)
print("spec: __arrow_c_array__ exports a binary view array, variadic buffers included")
if child.returncode < 0:
    name = signal.Signals(-child.returncode).name
    print(f"nanoarrow {nanoarrow.__version__}: CArray.__arrow_c_array__() on a string_view array "
          f"with 4 buffers killed the process ({name})")
    print("REPRODUCED NP1: c_array_shallow_copy adds the variadic buffers to the uninitialised dst")
    sys.exit(0)
if child.returncode == 0 and "exported" in child.stdout:
    print(f"nanoarrow {nanoarrow.__version__}: the export returned its capsules")
    print("NOT REPRODUCED NP1: a string_view array with variadic buffers exports")
    sys.exit(1)
print(f"setup error: the child exited {child.returncode}: {child.stderr.strip()[-300:]}")
sys.exit(2)
