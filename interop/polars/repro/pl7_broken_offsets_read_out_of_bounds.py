#!/usr/bin/env python3
"""PL7: polars reads out of bounds importing a binary array whose offsets
decrease below a null row, and the process dies.

Spec (Columnar Format, "Variable-size Binary Layout"): "Offsets must be
monotonically increasing, that is offsets[j+1] >= offsets[j] for 0 <= j <
length, even for null slots"; an array that breaks it is not valid Arrow,
which a consumer should refuse rather than read.

polars 2.1.0 (polars-arrow/src/array/binary/ffi.rs, impl FromFfi for
BinaryArray) takes the offsets unchecked ("assumption that data from FFI is
well constructed": OffsetsBuffer::new_unchecked) and checks only the last
one against the values' length; making its string views, it reads a slot
whose end lies before its start.

Standalone: needs polars and pyarrow.  Exit 0 and "REPRODUCED PL7: ..." when
the import kills its process, 1 and "NOT REPRODUCED PL7: ..." when polars
returns or raises, 2 on a setup error.
"""
import signal
import subprocess
import sys

try:
    import polars
    import pyarrow  # noqa: F401 (the child needs it)
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

# Three binary values; the third is null and its offsets go from 6 back to 2.
IMPORT = """
import polars, pyarrow as pa
offsets = pa.py_buffer(pa.array([0, 3, 6, 2], pa.int32()).buffers()[1])
array = pa.Array.from_buffers(pa.binary(), 3, [pa.py_buffer(bytes([0b011])), offsets, pa.py_buffer(b"abcdef")])
try:
    polars.DataFrame(pa.table({"b": array}))
except BaseException as error:
    print("raised", type(error).__name__, error)
else:
    print("imported")
"""
child = subprocess.run([sys.executable, "-c", IMPORT], capture_output=True, text=True, timeout=60)
said = child.stdout.strip().splitlines()[-1] if child.stdout.strip() else ""
print("spec: offsets increase monotonically, even for null slots; invalid input is refused, not read")
if child.returncode < 0:
    print(f"polars {polars.__version__}: polars.DataFrame(<binary, offsets 0 3 6 2, third row null>) "
          f"killed the process ({signal.Signals(-child.returncode).name})")
    print("REPRODUCED PL7: polars takes the offsets unchecked and reads out of bounds")
    sys.exit(0)
if child.returncode == 0 and said:
    print(f"polars {polars.__version__}: {said}")
    print("NOT REPRODUCED PL7: the import returned or raised")
    sys.exit(1)
print(f"setup error: the child exited {child.returncode}: {child.stderr.strip()[-300:]}")
sys.exit(2)
