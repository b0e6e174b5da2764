#!/usr/bin/env python3
"""D4: DuckDB reads a binary array whose offsets decrease below a null row
without a word.

Spec (Columnar Format, "Variable-size Binary Layout"): "Offsets must be
monotonically increasing, that is offsets[j+1] >= offsets[j] for 0 <= j <
length, even for null slots"; an array that breaks it is not valid Arrow,
and a consumer should refuse it (the suite's consumer.structure rules,
SHOULD).

DuckDB 2.0.0's Arrow scan reads each valid row's range and never the
offsets of a null row: the array is imported as if it were valid.

Standalone: needs duckdb and pyarrow.  Exit 0 and "REPRODUCED D4: ..." when
the scan reads the rows, 1 and "NOT REPRODUCED D4: ..." when it refuses
them, 2 on a setup error.
"""
import sys

try:
    import duckdb
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

offsets = pa.py_buffer(pa.array([0, 3, 6, 2], pa.int32()).buffers()[1])
array = pa.Array.from_buffers(pa.binary(), 3, [pa.py_buffer(bytes([0b011])), offsets, pa.py_buffer(b"abcdef")])
print("spec: offsets increase monotonically, even for null slots; invalid input is refused")
try:
    rows = duckdb.from_arrow(pa.table({"b": array})).fetchall()
except Exception as error:
    print(f"DuckDB {duckdb.__version__} refused: {type(error).__name__}: {error}")
    print("NOT REPRODUCED D4: the invalid offsets are refused")
    sys.exit(1)
print(f"DuckDB {duckdb.__version__} read <binary, offsets 0 3 6 2, third row null> as {rows}")
print("REPRODUCED D4: DuckDB imports offsets that decrease below a null row")
sys.exit(0)
