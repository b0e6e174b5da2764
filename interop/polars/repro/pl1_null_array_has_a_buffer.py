#!/usr/bin/env python3
"""PL1: polars exports a column of type null with one buffer.

Spec (C Data Interface, "ArrowArray.n_buffers": "The number of physical
buffers backing this array. The number of buffers is a function of the
data type, as described in the Columnar format specification"; Columnar
Format, "Null Layout": a null array has no buffers): n_buffers is 0.

polars 2.1.0 (polars-arrow/src/array/null.rs, impl ToFfi for NullArray)
exports `vec![None]`, one null buffer, "for backward compatibility" with
older Arrow C++ importers.

Standalone: needs polars (pyarrow for the column).  Exit 0 and "REPRODUCED
PL1: ..." when the exported null column has a buffer, 1 and "NOT
REPRODUCED PL1: ..." when it has none, 2 on a setup error.
"""
import ctypes
import sys

try:
    import polars
    import pyarrow as pa
except ImportError as error:
    print(f"setup error: {error}")
    sys.exit(2)


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
ArrowArrayStream._fields_ = [("get_schema", ctypes.c_void_p), ("get_next", GET_NEXT),
                             ("get_last_error", ctypes.c_void_p), ("release", ctypes.c_void_p),
                             ("private_data", ctypes.c_void_p)]
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

capsule = polars.DataFrame(pa.table({"nothing": pa.nulls(9)})).__arrow_c_stream__()
stream = ctypes.cast(ctypes.pythonapi.PyCapsule_GetPointer(capsule, b"arrow_array_stream"),
                     ctypes.POINTER(ArrowArrayStream))
batch = ArrowArray()
if stream.contents.get_next(stream, ctypes.byref(batch)) != 0 or batch.release is None:
    print("setup error: the stream gave no batch")
    sys.exit(2)
n_buffers = batch.children[0].contents.n_buffers
ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))(batch.release)(ctypes.byref(batch))
print("spec: n_buffers is a function of the type; a null array has no buffers")
print(f"polars {polars.__version__} exports column 'nothing' (type null) with n_buffers {n_buffers}")
if n_buffers != 0:
    print("REPRODUCED PL1: polars's NullArray exports one buffer")
    sys.exit(0)
print("NOT REPRODUCED PL1: the null column has no buffers")
sys.exit(1)
