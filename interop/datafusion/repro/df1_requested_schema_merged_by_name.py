#!/usr/bin/env python3
"""DF1: DataFusion fails a requested schema that is the data's own, where a
struct has two children of one name.

Spec (Arrow PyCapsule Interface, "Schema Requests"): the callee "should
attempt to provide the data in the requested schema"; the data's own
schema is always one it can give.  Field names need not be unique (C Data
Interface, "ArrowSchema.name").

DataFusion 55.0.0 (datafusion-python crates/core/src/dataframe.rs,
DataFrame.__arrow_c_stream__ -> project_schema) merges the requested schema
into its own with Schema::try_merge, which merges a struct's children by
name: two children named "a" of types int16 and bool cannot merge, and the
request raises.

Standalone: needs datafusion and pyarrow.  Exit 0 and "REPRODUCED DF1: ..."
when the request of the data's own schema raises, 1 and "NOT REPRODUCED
DF1: ..." when it gives the data, 2 on a setup error.
"""
import sys

try:
    import datafusion
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

nested = pa.StructArray.from_arrays([pa.array([1, 2], pa.int16()), pa.array([True, False])], names=["a", "a"])
table = pa.table({"nested": nested})
frame = datafusion.SessionContext().from_arrow(table)
own = pa.RecordBatchReader._import_from_c_capsule(frame.__arrow_c_stream__()).schema
print("spec: the callee should attempt the schema asked; the data's own schema can always be given")
try:
    pa.RecordBatchReader._import_from_c_capsule(frame.__arrow_c_stream__(own.__arrow_c_schema__())).read_all()
except Exception as error:
    print(f"DataFusion {datafusion.__version__}: __arrow_c_stream__(<its own schema: struct<a: int16, a: bool>>) "
          f"raised {type(error).__name__}: {error}")
    print("REPRODUCED DF1: DataFusion merges the requested schema by field name and fails")
    sys.exit(0)
print("NOT REPRODUCED DF1: the data come in their own schema")
sys.exit(1)
