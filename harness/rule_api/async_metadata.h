/* Whether a producer's metadata string is encoded as ArrowSchema.metadata
 * is (spec: "ArrowAsyncProducer.additional_metadata ... MUST either be NULL
 * or a valid string that is encoded in the same way as
 * ArrowSchema.metadata"): an int32 count of pairs, then for each pair an
 * int32 length and that many bytes of key, then the same for the value, in
 * native byte order.  The bytes are the library's: read without faulting,
 * up to ADC_METADATA_LIMIT. */
#ifndef ADC_ASYNC_METADATA_H
#define ADC_ASYNC_METADATA_H

#include <stddef.h>

/* Bytes of metadata read at most; longer metadata is judged on its start. */
#define ADC_METADATA_LIMIT (1 << 20)

/* Writes what is wrong with `metadata` into `problem` ("" when it is NULL
 * or well formed) and returns `problem`. */
const char* adc_metadata_problem(const char* metadata, char* problem, size_t size);

#endif /* ADC_ASYNC_METADATA_H */
