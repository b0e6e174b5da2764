"""arro3-core (arrow-rs through pyo3-arrow) as a producer and as a consumer
under adc-conform, through the Arrow PyCapsule Interface.

    adc-conform --producer python:interop.arro3.peer:make --device cpu
    adc-conform --consumer python:interop.arro3.peer:consume --device cpu

Each imports with arro3's public constructors (`from_arrow`, which reads
any object with the interface's methods) and returns arro3's own object,
whose __arrow_c_schema__, __arrow_c_array__ and __arrow_c_stream__ the
harness then judges (README, "Running against a Python library").  arro3
has no device methods: its data are on the CPU, and a device-array
handover is one it cannot import (its consumer is judged on cpu alone).
"""
import arro3.core


def make(source):
    if source.kind == "schema":
        return arro3.core.Schema.from_arrow(source)
    if source.kind == "batch":
        return arro3.core.RecordBatch.from_arrow(source)
    return arro3.core.RecordBatchReader.from_arrow(source)


def consume(handover):
    if handover.kind == "schema":
        return arro3.core.Schema.from_arrow(handover)
    if handover.kind == "device_stream":
        return arro3.core.RecordBatchReader.from_arrow(handover)
    return arro3.core.RecordBatch.from_arrow(handover)
