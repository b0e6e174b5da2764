/* The schema of a C stream a Python object gave through
 * __arrow_c_stream__, for an object with no __arrow_c_schema__ (the
 * interface: "Tables / DataFrames and streams can implement the method
 * __arrow_c_stream__"; a data frame or a relation often has that method
 * alone): its get_schema, the stream then released unread.  The producer
 * side asks it of a factory's object, the consumer side of a result. */
#ifndef ADC_STREAM_SCHEMA_H
#define ADC_STREAM_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "adc/arrow_c_abi.h"

/* get_schema of `stream` into `out`, then the stream released (whatever
 * the outcome).  False with why in `message`, `whose` naming the object
 * as the user knows it ("the object", "the consumer's result"). */
bool adc_python_schema_of_stream(struct ArrowArrayStream* stream, struct ArrowSchema* out, const char* whose,
                                 char* message, size_t size);

#endif /* ADC_STREAM_SCHEMA_H */
