#!/usr/bin/env python3
"""R1: arrow-rs 59.0 imports a dictionary's ordered flag as unordered.

Spec (C Data Interface, "ArrowSchema.flags"): ARROW_FLAG_DICTIONARY_ORDERED
"is set if the ordering of dictionary indices is semantically meaningful".

arrow-rs 59.0.0 (arrow-schema/src/ffi.rs, impl TryFrom<&FFI_ArrowSchema> for
Field) builds the Field from the format, the name, the nullability and the
metadata, never from the flag, so an ordered dictionary becomes unordered
on import; arro3-core 0.9.1 is built on it.  Fixed upstream in arrow-rs
59.2.0 (#10514).

Standalone: needs arro3-core and pyarrow.  Exit 0 and "REPRODUCED R1: ..."
when the round trip loses the flag, 1 and "NOT REPRODUCED R1: ..." when it
keeps it, 2 on a setup error.
"""
import sys

try:
    import arro3.core
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

ordered = pa.dictionary(pa.int8(), pa.utf8(), ordered=True)
batch = pa.record_batch([pa.array(["low", "high", "low"]).cast(ordered)], names=["level"])
back = pa.record_batch(arro3.core.RecordBatch.from_arrow(batch))
print("spec: ARROW_FLAG_DICTIONARY_ORDERED is set where the order of dictionary indices means something")
print(f"pyarrow exports {batch.schema.field(0).type}; arro3-core's import, exported again, gives "
      f"{back.schema.field(0).type}")
if not back.schema.field(0).type.ordered:
    print("REPRODUCED R1: arrow-rs imports an ordered dictionary as unordered")
    sys.exit(0)
print("NOT REPRODUCED R1: the dictionary stays ordered")
sys.exit(1)
