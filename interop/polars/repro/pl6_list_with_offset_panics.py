#!/usr/bin/env python3
"""PL6: polars panics importing a fixed-size list column that has an offset.

Spec (C Data Interface, "ArrowArray.offset": "The logical offset inside
the array (i.e. the number of items from the physical start of the
buffers)"): a fixed-size list array with an offset reads its validity from
that item on, and its child's values from offset times the list size.

polars 2.1.0 (polars-arrow/src/array/fixed_size_list/ffi.rs, impl FromFfi
for FixedSizeListArray) takes the validity with the offset applied but the
length from all the child's values (offset + length lists), and checks one
against the other before it slices: "validity mask length must be equal to
the number of values divided by size", a ComputeError, or a Rust panic
where polars imports through a stream.

Standalone: needs polars and pyarrow.  Exit 0 and "REPRODUCED PL6: ..." when
the import fails, 1 and "NOT REPRODUCED PL6: ..." when it reads the rows,
2 on a setup error.
"""
import sys

try:
    import polars
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

lists = pa.array([[9, 9], [9, 9], None, [1, 2], None, [3, 4]], pa.list_(pa.int32(), 2)).slice(3)
print("spec: an array's offset is the number of items from the physical start of its buffers")
try:
    rows = polars.DataFrame(pa.table({"l": lists}))["l"].to_list()
except BaseException as error:  # pyo3's PanicException derives from BaseException
    print(f"polars {polars.__version__}: polars.DataFrame(<fixed-size list column, offset 3>) raised "
          f"{type(error).__name__}: {str(error)[:200]}")
    print("REPRODUCED PL6: polars refuses a fixed-size list with an offset it could read")
    sys.exit(0)
print(f"polars read {rows}, exported {lists.to_pylist()}")
if rows == lists.to_pylist():
    print("NOT REPRODUCED PL6: the rows are read from the offset")
    sys.exit(1)
print("REPRODUCED PL6: the rows read differ from those exported")
sys.exit(0)
