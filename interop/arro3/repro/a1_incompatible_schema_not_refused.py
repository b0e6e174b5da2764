#!/usr/bin/env python3
"""A1: arro3's __arrow_c_array__ gives data in a schema other than the one
requested, where it cannot give them in that schema, instead of raising.

Spec (Arrow PyCapsule Interface, "Schema Requests"): "If the requested
schema is not compatible with the data, the callee should raise an
exception" ... and where it does not attempt the request it gives the data
as for None.  Data of one field cannot be given as a struct of no fields.

arro3-core 0.9.1 (pyo3-arrow/src/ffi/to_python/utils.rs,
to_array_pycapsules, behind RecordBatch.__arrow_c_array__) casts to the
requested schema where arrow-rs's can_cast_types says it can, and otherwise
exports the batch as it is, raising nothing.

Standalone: needs arro3-core and pyarrow.  Exit 0 and "REPRODUCED A1: ..."
when capsules come back for a struct of no fields, 1 and "NOT REPRODUCED
A1: ..." when it raises, 2 on a setup error.
"""
import sys

try:
    import arro3.core
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

batch = arro3.core.RecordBatch.from_arrow(pa.record_batch([pa.array([1, 2, 3], pa.int32())], names=["n"]))
no_fields = pa.schema([])
print("spec: a callee asked for a schema the data are not compatible with should raise")
try:
    schema_capsule, array_capsule = batch.__arrow_c_array__(no_fields.__arrow_c_schema__())
except Exception as error:
    print(f"__arrow_c_array__(<struct of no fields>) raised {type(error).__name__}: {error}")
    print("NOT REPRODUCED A1: the incompatible request is refused")
    sys.exit(1)
given = pa.Schema._import_from_c_capsule(schema_capsule)
print(f"__arrow_c_array__(<struct of no fields>) returned data of schema {given}")
print("REPRODUCED A1: arro3 gives the batch as it is for a schema it cannot satisfy")
sys.exit(0)
