"""DuckDB as a producer and as a consumer under adc-conform, through the
Arrow PyCapsule Interface.

    adc-conform --producer python:interop.duckdb.peer:make --device cpu
    adc-conform --consumer python:interop.duckdb.peer:consume --device cpu

`duckdb.from_arrow` makes a relation over any object with the interface's
methods (it reads the schema, then scans the data); the relation offers
__arrow_c_stream__ alone, which the harness reads for a schema, a batch
(its stream's one array) and a stream (README, "Running against a Python
library").  DuckDB has no device methods: its consumer is judged on cpu.
"""
import duckdb


def make(source):
    return duckdb.from_arrow(source)


def consume(handover):
    return duckdb.from_arrow(handover)
