"""nanoarrow's Python package as a producer and as a consumer under
adc-conform, through the Arrow PyCapsule Interface.

    adc-conform --producer python:interop.nanoarrow_python.peer:make --device cpu
    adc-conform --consumer python:interop.nanoarrow_python.peer:consume --device cpu

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

One exception, for finding NP1 (CONFORMANCE.md): nanoarrow's export of an
array with variadic buffers (a string or binary view) adds them to the
structure it is about to fill before initialising it, and what follows is
chance: the process dies (SIGSEGV, SIGBUS, glibc's abort), or nanoarrow
raises ENOMEM from ArrowArrayAddVariadicBuffers, or, through
__arrow_c_device_array__ (whose structure is a copy of the source's), it
changes the source's private data and the case ends unresolved or passes.
A peer run must end the same way each time, so this factory declines such
a batch (NotImplementedError naming NP1: the cases are not_supported) and
the standalone reproduction shows the defect.
"""
import nanoarrow
import nanoarrow.device


def _has_variadic_buffers(array):
    if array.n_buffers > 3:
        return True
    if array.dictionary is not None and _has_variadic_buffers(array.dictionary):
        return True
    return any(_has_variadic_buffers(child) for child in array.children)


def make(source):
    if source.kind == "schema":
        return nanoarrow.c_schema(source)
    if source.kind == "batch":
        device_array = nanoarrow.device.c_device_array(source)
        if _has_variadic_buffers(device_array.array):
            raise NotImplementedError(
                "NP1: nanoarrow 0.9 exports an array with variadic buffers into a structure it has not "
                "initialised (c_array_shallow_copy); declined, as the outcome is chance")
        return device_array
    return nanoarrow.c_array_stream(source)


def consume(handover):
    """nanoarrow as a consumer: imports the harness's export with nanoarrow's
    public constructors and returns nanoarrow's own object, whose interface
    method the harness then asks for the data back, to compare with the
    fixture (README, "Running against a Python library")."""
    if handover.kind == "schema":
        return nanoarrow.c_schema(handover)
    if handover.kind == "batch":
        return nanoarrow.c_array(handover)
    if handover.kind == "device_batch":
        return nanoarrow.device.c_device_array(handover)
    return nanoarrow.c_array_stream(handover)
