"""DataFusion (its Python bindings, on arrow-rs) as a producer and as a
consumer under adc-conform, through the Arrow PyCapsule Interface.

    adc-conform --producer python:interop.datafusion.peer:make --device cpu
    adc-conform --consumer python:interop.datafusion.peer:consume --device cpu

`SessionContext().from_arrow` makes a data frame over any object with the
interface's methods; the data frame offers __arrow_c_stream__ (its rows
cut into batches of its own, 8192 rows at most), which the harness reads
for a schema, a batch and a stream (README, "Running against a Python
library").  DataFusion has no device methods: its consumer is judged on
cpu.
"""
import datafusion


def make(source):
    return datafusion.SessionContext().from_arrow(source)


def consume(handover):
    return datafusion.SessionContext().from_arrow(handover)
