#!/usr/bin/env python3
"""D5: DuckDB's __arrow_c_stream__ leaves requested_schema unread.

Spec (Arrow PyCapsule Interface, "Schema Requests"): the callee "should
attempt to provide the data in the requested schema" and "if the requested
schema is not compatible with the data, the callee should raise an
exception".

DuckDB 2.0.0 (its relation's __arrow_c_stream__) exports the data in its
own types whatever schema is asked: asked for the large string the data
came as, it gives a string; asked for a struct of no fields, which one
column cannot be, it gives the column.

Standalone: needs duckdb and pyarrow.  Exit 0 and "REPRODUCED D5: ..." when
both requests are ignored, 1 and "NOT REPRODUCED D5: ..." otherwise, 2 on a
setup error.
"""
import sys

try:
    import duckdb
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

table = pa.table({"text": pa.array(["a", "b"], pa.large_utf8())})
relation = duckdb.from_arrow(table)
print("spec: the callee should attempt the schema asked, and raise where the data cannot be given in it")
own = pa.RecordBatchReader._import_from_c_capsule(
    relation.__arrow_c_stream__(table.schema.__arrow_c_schema__())).schema
print(f"asked for {table.schema.field(0).type}: gave {own.field(0).type}")
try:
    none = pa.RecordBatchReader._import_from_c_capsule(
        relation.__arrow_c_stream__(pa.schema([]).__arrow_c_schema__())).schema
except Exception as error:
    print(f"asked for a struct of no fields: raised {type(error).__name__}: {error}")
    none = None
else:
    print(f"asked for a struct of no fields: gave {len(none)} field(s)")
if own.field(0).type != table.schema.field(0).type and none is not None and len(none) > 0:
    print("REPRODUCED D5: DuckDB gives its own schema whatever schema is requested")
    sys.exit(0)
print("NOT REPRODUCED D5: the request is attempted or refused")
sys.exit(1)
