#!/usr/bin/env python3
"""R3: arrow-rs panics importing a struct below a struct, with an offset.

Spec (C Data Interface, "ArrowArray.offset"): "The logical offset inside
the array (i.e. the number of items from the physical start of the buffers)";
a struct's children are read from the struct's offset on.

arrow-rs (arrow-data/src/data.rs, ArrayData::slice; arrow-array/src/array/
struct_array.rs, impl From<ArrayData> for StructArray) slices a struct's
children by the struct's offset when it makes the StructArray, and
ArrayData::slice of a struct already sliced its children: an inner struct
is sliced twice, past its end, and the import panics ("assertion failed:
end <= self.len()").  arro3-core 0.9.1 and DataFusion 55.0.0 import through it.

Standalone: needs arro3-core and pyarrow.  Exit 0 and "REPRODUCED R3: ..."
when the import panics, 1 and "NOT REPRODUCED R3: ..." when it reads the
rows, 2 on a setup error.
"""
import sys

try:
    import arro3.core
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

inner = pa.StructArray.from_arrays([pa.array([0, 0, 0, 1, 2, 3], pa.int32())], names=["x"])
outer = pa.StructArray.from_arrays([inner], names=["s"])
batch = pa.RecordBatch.from_arrays([outer.slice(3)], ["col"])
print("spec: an array's offset is the number of items from the physical start of its buffers")
try:
    back = pa.record_batch(arro3.core.RecordBatch.from_arrow(batch))
except BaseException as error:  # pyo3's PanicException derives from BaseException
    print(f"arro3.core.RecordBatch.from_arrow(a struct of a struct, offset 3) raised "
          f"{type(error).__name__}: {error}")
    print("REPRODUCED R3: arrow-rs slices the inner struct's children twice and panics")
    sys.exit(0)
print(f"the import read {back.column(0).to_pylist()}")
if back.column(0).to_pylist() == outer.slice(3).to_pylist():
    print("NOT REPRODUCED R3: the rows are read from the offset")
    sys.exit(1)
print("REPRODUCED R3: the rows read differ from those exported")
sys.exit(0)
