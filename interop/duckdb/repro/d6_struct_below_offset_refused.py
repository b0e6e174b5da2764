#!/usr/bin/env python3
"""D6: DuckDB refuses a struct column that has an offset.

Spec (C Data Interface, "ArrowArray.offset": "The logical offset inside
the array (i.e. the number of items from the physical start of the
buffers)"): a consumer reads an array with an offset from that item on; a
struct's children are read from the struct's offset.

DuckDB 2.0.0 raises InvalidInputException ("an Arrow batch carried column
0 with a struct or union below an offset the conversion would drop")
rather than read the rows.

Standalone: needs duckdb and pyarrow.  Exit 0 and "REPRODUCED D6: ..." when
the scan refuses the column, 1 and "NOT REPRODUCED D6: ..." when it reads
the rows, 2 on a setup error.
"""
import sys

try:
    import duckdb
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

inner = pa.StructArray.from_arrays([pa.array([0, 0, 0, 1, 2, 3], pa.int32())], names=["x"])
outer = pa.StructArray.from_arrays([inner], names=["s"]).slice(3)
table = pa.table({"col": outer})
print("spec: an array's offset is the number of items from the physical start of its buffers")
try:
    rows = duckdb.from_arrow(table).fetchall()
except Exception as error:
    print(f"DuckDB {duckdb.__version__}: scanning a struct of a struct with offset 3 raised "
          f"{type(error).__name__}: {str(error)[:200]}")
    print("REPRODUCED D6: DuckDB refuses a struct column below an offset")
    sys.exit(0)
print(f"DuckDB read {rows}")
print("NOT REPRODUCED D6: the rows are read from the offset")
sys.exit(1)
