#!/usr/bin/env python3
"""P1: pyarrow's RecordBatch.__arrow_c_device_array__ leaves the
ArrowDeviceArray's reserved words unwritten.

Spec (C Device Data Interface, "The ArrowDeviceArray structure", reserved):
"These bytes MUST be zero'd out after initialization by the producer in
order to ensure safe evolution of the ABI in the future."

pyarrow 26.0.1 (types.pxi, alloc_c_device_array) allocates the structure
with malloc, sets only array.release, and ExportDeviceRecordBatch (Arrow
C++'s bridge.cc, finding F1) writes device_type, device_id, array and
sync_event, never reserved: the three words keep whatever malloc gave.
To show it deterministically, malloc's next chunks of the structure's size
are filled with 0xA5 first (as the memory a consumer hands a C producer
would be), then the batch is exported.

Standalone: needs pyarrow alone.  Exit 0 and "REPRODUCED P1: ..." when the
words are not zero, 1 and "NOT REPRODUCED P1: ..." when they are, 2 on a
setup error (ci/check-reproductions.sh).
"""
import ctypes
import sys

try:
    import pyarrow
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

DEVICE_ARRAY_SIZE = 128  # sizeof(struct ArrowDeviceArray) on 64-bit
RESERVED_OFFSET = 104  # ArrowArray (80), device_id (8), device_type (4 + 4 padding), sync_event (8)

libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
get_pointer.restype = ctypes.c_void_p
get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

batch = pyarrow.record_batch({"x": pyarrow.array([1, None, 3], pyarrow.int32())})

# glibc hands the chunks freed last back first (its per-thread cache keeps 7).
chunks = [libc.malloc(DEVICE_ARRAY_SIZE) for _ in range(7)]
for chunk in chunks:
    ctypes.memset(chunk, 0xA5, DEVICE_ARRAY_SIZE)
for chunk in reversed(chunks):
    libc.free(chunk)

schema_capsule, array_capsule = batch.__arrow_c_device_array__()
address = get_pointer(array_capsule, b"arrow_device_array")
reserved = list((ctypes.c_uint64 * 3).from_address(address + RESERVED_OFFSET))
shown = ", ".join(f"{word:#018x}" for word in reserved)
print("spec: ArrowDeviceArray.reserved MUST be zero'd out by the producer")
print(f"pyarrow {pyarrow.__version__}: RecordBatch.__arrow_c_device_array__() gave reserved = {{{shown}}}")
if any(reserved):
    print("REPRODUCED P1: pyarrow's __arrow_c_device_array__ leaves ArrowDeviceArray.reserved unwritten")
    sys.exit(0)
print("NOT REPRODUCED P1: ArrowDeviceArray.reserved is zero")
sys.exit(1)
