"""pyarrow as a producer and as a consumer under adc-conform, through the
Arrow PyCapsule Interface.

    adc-conform --producer python:interop.pyarrow.peer:make --device cpu
    adc-conform --consumer python:interop.pyarrow.peer:consume --device cpu

`make(source)` is given the fixture as a PyCapsule source (its `kind` is
"schema", "batch" or "stream") and returns pyarrow's own object for it,
imported with pyarrow's public constructors: the harness then asks that
object for __arrow_c_schema__, __arrow_c_array__, __arrow_c_device_array__
or __arrow_c_device_stream__, and judges what pyarrow exports.
"""
import pyarrow


def make(source):
    if source.kind == "schema":
        return pyarrow.schema(source)
    if source.kind == "batch":
        return pyarrow.record_batch(source)
    return pyarrow.RecordBatchReader.from_stream(source)


def bytes_allocated():
    """What pyarrow's default memory pool holds (the shim adds it to BytesAllocated)."""
    return pyarrow.total_allocated_bytes()


def consume(handover):
    """pyarrow as a consumer: imports the harness's export with pyarrow's public
    constructors and returns pyarrow's object, which the harness imports back."""
    if handover.kind == "schema":
        return pyarrow.schema(handover)
    if handover.kind == "device_stream":
        return pyarrow.RecordBatchReader.from_stream(handover)
    return pyarrow.record_batch(handover)
