#!/usr/bin/env python3
"""PL8: polars reads a dictionary array whose index below a null row lies
outside the dictionary without a word.

Spec (Columnar Format, "Dictionary-encoded Layout"): "the values are
represented by an array of non-negative integers representing the index of
the value in the dictionary"; an index outside the dictionary, null row or
not, is not valid Arrow, and a consumer should refuse it (the suite's
consumer.structure rules, SHOULD).

polars 2.1.0 imports the indices of a dictionary array without checking
those of null rows.

Standalone: needs polars and pyarrow.  Exit 0 and "REPRODUCED PL8: ..." when
the import reads the rows, 1 and "NOT REPRODUCED PL8: ..." when it refuses
them, 2 on a setup error.
"""
import subprocess
import sys

try:
    import polars
    import pyarrow  # noqa: F401 (the child needs it)
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

# In a child: an index out of range might be read, and kill the process.
IMPORT = """
import polars, pyarrow as pa
indices = pa.Array.from_buffers(pa.int8(), 3, [pa.py_buffer(bytes([0b011])), pa.py_buffer(bytes([0, 1, 100]))])
array = pa.DictionaryArray.from_buffers(pa.dictionary(pa.int8(), pa.utf8()), 3, indices.buffers(),
                                        pa.array(["low", "high"]))
try:
    rows = polars.DataFrame(pa.table({"d": array}))["d"].to_list()
except BaseException as error:
    print("raised", type(error).__name__, error)
else:
    print("read", rows)
"""
child = subprocess.run([sys.executable, "-c", IMPORT], capture_output=True, text=True, timeout=60)
said = child.stdout.strip().splitlines()[-1] if child.stdout.strip() else ""
print("spec: dictionary indices lie within the dictionary, even below null rows; invalid input is refused")
if child.returncode == 0 and said.startswith("read"):
    print(f"polars {polars.__version__}: <dictionary of 2, indices 0 1 100, third row null> {said}")
    print("REPRODUCED PL8: polars imports an index outside the dictionary below a null row")
    sys.exit(0)
if child.returncode == 0 and said.startswith("raised"):
    print(f"polars {polars.__version__}: {said}")
    print("NOT REPRODUCED PL8: the index is refused")
    sys.exit(1)
print(f"setup error: the child exited {child.returncode}: {child.stderr.strip()[-300:]}")
sys.exit(2)
