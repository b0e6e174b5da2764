"""nanoarrow's Python package as a producer under adc-conform, through the
Arrow PyCapsule Interface.

    adc-conform --producer python:interop.python.nanoarrow_peer:make --device cpu

`make(source)` is given the fixture as a PyCapsule source (its `kind` is
"schema", "batch" or "stream") and returns nanoarrow's own object for it,
imported with nanoarrow's public constructors: the harness then asks that
object for __arrow_c_schema__, __arrow_c_array__, __arrow_c_device_array__
or __arrow_c_device_stream__, and judges what nanoarrow exports.

A batch is a CDeviceArray (nanoarrow.device.c_device_array), the one
nanoarrow 0.9 object with both __arrow_c_array__ and
__arrow_c_device_array__; a stream is a CArrayStream
(nanoarrow.c_array_stream), which has __arrow_c_stream__ and no device
stream method.
"""
import nanoarrow
import nanoarrow.device


def make(source):
    if source.kind == "schema":
        return nanoarrow.c_schema(source)
    if source.kind == "batch":
        return nanoarrow.device.c_device_array(source)
    return nanoarrow.c_array_stream(source)
