#!/usr/bin/env python3
"""R4: arrow-rs reads a sparse union's children without the union's offset.

Spec (C Data Interface, "ArrowArray.offset", and the Columnar Format's
"Sparse Union": the children have the union's length, and the value of slot
i is child[type_ids[i]] at slot i): with an offset, slot i of the union is
the children's slot offset + i, as for a struct.

arrow-rs (arrow-array/src/array/union_array.rs, impl From<ArrayData> for
UnionArray) applies the offset to the type ids (and a dense union's
offsets) but makes each child with make_array(child) unsliced: a sparse
union imported with an offset reads its children from slot 0.  arro3-core
0.9.1 and DataFusion 55.0.0 import through it.

Standalone: needs arro3-core and pyarrow.  Exit 0 and "REPRODUCED R4: ..."
when the values read differ, 1 and "NOT REPRODUCED R4: ..." when they are
the union's, 2 on a setup error.
"""
import sys

try:
    import arro3.core
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

types = pa.array([0, 0, 0, 0, 1, 0], pa.int8())
union = pa.UnionArray.from_sparse(types, [pa.array([-1, -2, -3, 10, 0, 30], pa.int32()),
                                          pa.array(["", "", "", "", "twenty", ""])], ["number", "text"])
batch = pa.RecordBatch.from_arrays([union.slice(3)], ["sparse"])
print("spec: a sparse union with an offset reads its children from that offset, as a struct does")
try:
    back = pa.record_batch(arro3.core.RecordBatch.from_arrow(batch)).column(0).to_pylist()
except BaseException as error:
    print(f"setup error: the import raised {type(error).__name__}: {error}")
    sys.exit(2)
print(f"pyarrow exports {union.slice(3).to_pylist()} (offset 3); arro3-core's import reads {back}")
if back != union.slice(3).to_pylist():
    print("REPRODUCED R4: arrow-rs reads a sparse union's children from slot 0, not from its offset")
    sys.exit(0)
print("NOT REPRODUCED R4: the union's values are read from its offset")
sys.exit(1)
