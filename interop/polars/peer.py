"""polars as a producer and as a consumer under adc-conform, through the
Arrow PyCapsule Interface.

    adc-conform --producer python:interop.polars.peer:make --device cpu
    adc-conform --consumer python:interop.polars.peer:consume --device cpu

`polars.DataFrame` imports any object with the interface's methods into
polars's own model (strings as string views, dictionaries as
categoricals, its batches merged); the data frame offers
__arrow_c_schema__ and __arrow_c_stream__, which the harness reads for a
schema, a batch and a stream (README, "Running against a Python
library").  polars declines the types it has no model for (run-end
encoded, list views, unions ...) with an exception: those fixtures are
not_supported.  polars has no device methods: its consumer is judged on
cpu.
"""
import polars


def make(source):
    return polars.DataFrame(source)


def consume(handover):
    return polars.DataFrame(handover)
