#!/usr/bin/env python3
"""PL5: polars's __arrow_c_stream__ leaves requested_schema unread.

Spec (Arrow PyCapsule Interface, "Schema Requests"): the callee "should
attempt to provide the data in the requested schema" and, where the data
are not compatible with it, "should raise an exception".

polars 2.1.0 (DataFrame.__arrow_c_stream__) exports its own types whatever
schema is asked: asked for the string the data came as, it gives a string
view; asked for a struct of no fields, which one column cannot be, it gives
the column.

Standalone: needs polars and pyarrow.  Exit 0 and "REPRODUCED PL5: ..." when
both requests are ignored, 1 and "NOT REPRODUCED PL5: ..." otherwise, 2 on
a setup error.
"""
import sys

try:
    import polars
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

table = pa.table({"text": pa.array(["a", "b"], pa.utf8())})
frame = polars.DataFrame(table)
print("spec: the callee should attempt the schema asked, and raise where the data cannot be given in it")
own = pa.RecordBatchReader._import_from_c_capsule(frame.__arrow_c_stream__(table.schema.__arrow_c_schema__())).schema
print(f"asked for {table.schema.field(0).type}: gave {own.field(0).type}")
try:
    none = pa.RecordBatchReader._import_from_c_capsule(
        frame.__arrow_c_stream__(pa.schema([]).__arrow_c_schema__())).schema
except Exception as error:
    print(f"asked for a struct of no fields: raised {type(error).__name__}: {error}")
    none = None
else:
    print(f"asked for a struct of no fields: gave {len(none)} field(s)")
if own.field(0).type != table.schema.field(0).type and none is not None and len(none) > 0:
    print("REPRODUCED PL5: polars gives its own schema whatever schema is requested")
    sys.exit(0)
print("NOT REPRODUCED PL5: the request is attempted or refused")
sys.exit(1)
