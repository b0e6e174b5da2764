"""nanoarrow's Python package as a consumer under adc-conform, through the
Arrow PyCapsule Interface.

    adc-conform --consumer python:interop.python.nanoarrow_consumer:consume --device cpu

`consume(handover)` imports the harness's export with nanoarrow's public
constructors and returns nanoarrow's own object, whose interface method the
harness then asks for the data back, to compare with the fixture
(README, "Running against a Python library").
"""
import nanoarrow
import nanoarrow.device


def consume(handover):
    if handover.kind == "schema":
        return nanoarrow.c_schema(handover)
    if handover.kind == "batch":
        return nanoarrow.c_array(handover)
    if handover.kind == "device_batch":
        return nanoarrow.device.c_device_array(handover)
    return nanoarrow.c_array_stream(handover)
