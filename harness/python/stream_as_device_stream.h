/* A library's C stream (__arrow_c_stream__'s ArrowArrayStream) read as a
 * device stream on the CPU, for a Python object that has no
 * __arrow_c_device_stream__: "The absence of the device version methods
 * implies CPU-only data" (PyCapsule Interface, "Device Support"), so its
 * stream is the device stream the device stream rules judge (a producer's,
 * python_producer.c), or the one the reference consumer compares with the
 * fixture (a consumer's result, python_consumer.c).
 *
 * Every call is the library's: get_schema, get_next and get_last_error
 * call the library's own, and release releases the library's stream; a
 * callback the library left NULL stays NULL.  The shim adds only what the
 * interface defines for CPU-only data: the stream's and each batch's
 * device_type ARROW_DEVICE_CPU, device_id -1, sync_event NULL, reserved
 * zero.  So the rules on those members judge the interface's definition,
 * not the library; every other rule judges the library.
 *
 * The library's stream moves with the device stream: a consumer that moves
 * the device stream (a bitwise copy, the source marked released) moves the
 * library's stream too, at the next call, to memory of its own, and the
 * memory it left is made inaccessible, so that a library whose callbacks
 * keep its first address crashes there, as the device stream rules expect
 * of a stream that is not relocatable ("Moving an array"). */
#ifndef ADC_STREAM_AS_DEVICE_STREAM_H
#define ADC_STREAM_AS_DEVICE_STREAM_H

#include "adc/arrow_c_abi.h"

/* Moves `stream` (which the caller then holds released) into a new device
 * stream written to `out`, which owns it.  Returns 0, or -1 where memory
 * ran out: `stream` is then released, and `out` untouched. */
int adc_python_stream_as_device_stream(struct ArrowArrayStream* stream, struct ArrowDeviceArrayStream* out);

#endif /* ADC_STREAM_AS_DEVICE_STREAM_H */
