"""DuckDB as a producer and as a consumer under adc-conform, through the
Arrow PyCapsule Interface.

    adc-conform --producer python:interop.duckdb.peer:make --device cpu
    adc-conform --consumer python:interop.duckdb.peer:consume --device cpu

`from_arrow` makes a relation over any object with the interface's
methods (it reads the schema, then scans the data); the relation offers
__arrow_c_stream__ alone, which the harness reads for a schema, a batch
(its stream's one array) and a stream (README, "Running against a Python
library").  DuckDB has no device methods: its consumer is judged on cpu.

The producer and the consumer each have a database of their own, as two
components of an application would: one connection cannot bind a new
query while a result of its own is being streamed out (an interop matrix
hands DuckDB's export to DuckDB's import in one process; on one
connection, the consumer's bind waits on the lock the producer's open
result holds, for ever).
"""
import functools

import duckdb


# Each made on first use: a run that judges one role starts one database
# (and its thread pool), as before.
@functools.cache
def _database(role):
    return duckdb.connect()


def make(source):
    return _database("producer").from_arrow(source)


def consume(handover):
    return _database("consumer").from_arrow(handover)
