#!/usr/bin/env python3
"""NP3: nanoarrow's __arrow_c_stream__ and __arrow_c_array__ raise for any
requested_schema, even the schema the data already have.

Spec (Arrow PyCapsule Interface, "Schema Requests"): "The callee should
attempt to provide the data in the requested schema. However, if the
callee cannot provide the data in the requested schema, they may return
with the same schema as if None were passed to requested_schema."  Only a
schema the data cannot have (another number of fields) should make it
raise.

nanoarrow 0.9.0 (src/nanoarrow/_array_stream.pyx,
CArrayStream.__arrow_c_stream__, and _array.pyx, CArray.__arrow_c_array__)
begins `if requested_schema is not None: raise
NotImplementedError("requested_schema")`, documented there as "Not
supported".

Standalone: needs nanoarrow and pyarrow.  Exit 0 and "REPRODUCED NP3: ..."
when asking for the data's own schema raises, 1 and "NOT REPRODUCED NP3:
..." when the stream comes back, 2 on a setup error
(ci/check-reproductions.sh).
"""
import sys

try:
    import nanoarrow
    import pyarrow
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

table = pyarrow.table({"values": pyarrow.array([1, None, 3], pyarrow.int32())})
stream = nanoarrow.c_array_stream(table)
own_schema = table.schema.__arrow_c_schema__()  # exactly the data's own schema
print("spec: asked for a schema the data can have, the callee should attempt it, or give the data as for None")
try:
    capsule = stream.__arrow_c_stream__(requested_schema=own_schema)
except Exception as error:
    print(f"nanoarrow {nanoarrow.__version__}: CArrayStream.__arrow_c_stream__(requested_schema=<the data's own "
          f"schema>) raised {type(error).__name__}: {error}")
    print("REPRODUCED NP3: nanoarrow raises for any requested_schema, even the data's own")
    sys.exit(0)
print(f"nanoarrow {nanoarrow.__version__}: the stream came back ({capsule!r})")
print("NOT REPRODUCED NP3: a request for the data's own schema is met")
sys.exit(1)
