#!/usr/bin/env python3
"""R2: arrow-rs exports a map whose keys are sorted with the flag clear.

Spec (C Data Interface, "ArrowSchema.flags"): ARROW_FLAG_MAP_KEYS_SORTED "is
set if the keys within each map value are sorted".

arrow-rs (arrow-schema/src/ffi.rs, impl TryFrom<&Field> for FFI_ArrowSchema)
builds the child schema from the data type, which sets MAP_KEYS_SORTED for
DataType::Map(_, true), then calls .with_flags(flags) with the field's own
flags (nullable, dictionary ordered): with_flags replaces the flags, so the
map's flag is gone.  arro3-core 0.9.1 and DataFusion 55.0.0 export through it.

Standalone: needs arro3-core and pyarrow.  Exit 0 and "REPRODUCED R2: ..."
when the export clears the flag, 1 and "NOT REPRODUCED R2: ..." when it
keeps it, 2 on a setup error.
"""
import sys

try:
    import arro3.core
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

sorted_map = pa.map_(pa.utf8(), pa.int64(), keys_sorted=True)
batch = pa.record_batch([pa.array([[("a", 1), ("b", 2)]], type=sorted_map)], names=["m"])
imported = arro3.core.RecordBatch.from_arrow(batch)
back = pa.record_batch(imported)
print("spec: ARROW_FLAG_MAP_KEYS_SORTED is set where the keys within each map value are sorted")
print(f"pyarrow exports keys_sorted={batch.schema.field(0).type.keys_sorted}; arro3-core's export of "
      f"what it imported gives keys_sorted={back.schema.field(0).type.keys_sorted}")
if not back.schema.field(0).type.keys_sorted:
    print("REPRODUCED R2: arrow-rs exports a sorted map with ARROW_FLAG_MAP_KEYS_SORTED clear")
    sys.exit(0)
print("NOT REPRODUCED R2: the map's keys stay sorted")
sys.exit(1)
