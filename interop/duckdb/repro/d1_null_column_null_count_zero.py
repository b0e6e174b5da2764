#!/usr/bin/env python3
"""D1: DuckDB exports a column of type null with null_count 0.

Spec (C Data Interface, "ArrowArray.null_count": "The number of null items
in the array. MAY be -1 if not yet computed"; Columnar Format, "Null
Layout": every value of a null array is null): a null array of length n
has n nulls, so its null_count is n or -1.

DuckDB 2.0.0 (src/common/arrow/appender/null_data.cpp,
ArrowNullData::Append) adds the rows it appends to row_count and never to
null_count, which ArrowAppender::Finalize exports: 0.

Standalone: needs duckdb and pyarrow.  Exit 0 and "REPRODUCED D1: ..." when
the export says 0 nulls, 1 and "NOT REPRODUCED D1: ..." otherwise, 2 on a
setup error.
"""
import ctypes
import sys

try:
    import duckdb
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)

# pyarrow's import counts a null array's nulls itself: read the exported
# ArrowArray as DuckDB wrote it.
class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64),
                       ("offset", ctypes.c_int64), ("n_buffers", ctypes.c_int64),
                       ("n_children", ctypes.c_int64), ("buffers", ctypes.c_void_p),
                       ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
                       ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p),
                       ("private_data", ctypes.c_void_p)]


class ArrowArrayStream(ctypes.Structure):
    pass


GET_NEXT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowArray))
RELEASE = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))
ArrowArrayStream._fields_ = [("get_schema", ctypes.c_void_p), ("get_next", GET_NEXT),
                             ("get_last_error", ctypes.c_void_p), ("release", RELEASE),
                             ("private_data", ctypes.c_void_p)]
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

table = pa.table({"nothing": pa.nulls(9)})
capsule = duckdb.from_arrow(table).__arrow_c_stream__()
stream = ctypes.cast(ctypes.pythonapi.PyCapsule_GetPointer(capsule, b"arrow_array_stream"),
                     ctypes.POINTER(ArrowArrayStream))
batch = ArrowArray()
if stream.contents.get_next(stream, ctypes.byref(batch)) != 0 or batch.length == 0:
    print("setup error: the stream gave no batch")
    sys.exit(2)
column = batch.children[0].contents
length, null_count = column.length, column.null_count
ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))(batch.release)(ctypes.byref(batch))
print("spec: a null array of length n has n nulls (null_count n, or -1 if not computed)")
print(f"DuckDB {duckdb.__version__} exports column 'nothing' (type null) of length {length} with "
      f"null_count {null_count}")
if null_count not in (length, -1):
    print("REPRODUCED D1: ArrowNullData::Append never counts the nulls it appends")
    sys.exit(0)
print("NOT REPRODUCED D1: the null column has as many nulls as rows")
sys.exit(1)
