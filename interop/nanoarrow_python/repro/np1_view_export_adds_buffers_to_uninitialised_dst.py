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
reads and writes through the garbage `dst.private_data`.  To make that
garbage the same every time, malloc's next chunks of the structure's size
are filled with 0xA5 first (as the memory a consumer hands a C producer
would be), then the array is exported, in a child process: its death by a
signal, or nanoarrow's own error from ArrowArrayAddVariadicBuffers (what
the garbage gives where it reads as a count), is the misbehaviour.

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
import ctypes
import nanoarrow
array = nanoarrow.c_array(["a", "a value longer than twelve bytes"], nanoarrow.string_view())
assert array.n_buffers > 3, array.n_buffers
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
# glibc hands the chunks freed last back first (its per-thread cache keeps
# 7); 80 bytes is sizeof(struct ArrowArray), the structure ArrowMalloc gives.
chunks = [libc.malloc(80) for _ in range(7)]
for chunk in chunks:
    ctypes.memset(chunk, 0xA5, 80)
for chunk in reversed(chunks):
    libc.free(chunk)
try:
    schema_capsule, array_capsule = array.__arrow_c_array__()
except Exception as error:
    print("raised", type(error).__name__, error)
else:
    print("exported")
"""

child = subprocess.run([sys.executable, "-c", EXPORT], capture_output=True, text=True, timeout=50)
print("spec: __arrow_c_array__ exports a binary view array, variadic buffers included")
said = child.stdout.strip().splitlines()[-1] if child.stdout.strip() else ""
if child.returncode < 0 or "ArrowArrayAddVariadicBuffers" in said:
    what = f"killed the process ({signal.Signals(-child.returncode).name})" if child.returncode < 0 else said
    print(f"nanoarrow {nanoarrow.__version__}: CArray.__arrow_c_array__() on a string_view array "
          f"with 4 buffers {what}")
    print("REPRODUCED NP1: c_array_shallow_copy adds the variadic buffers to the uninitialised dst")
    sys.exit(0)
if child.returncode == 0 and said == "exported":
    print(f"nanoarrow {nanoarrow.__version__}: the export returned its capsules")
    print("NOT REPRODUCED NP1: a string_view array with variadic buffers exports")
    sys.exit(1)
print(f"setup error: the child exited {child.returncode}: {said} {child.stderr.strip()[-300:]}")
sys.exit(2)
