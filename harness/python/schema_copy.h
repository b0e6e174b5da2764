/* A deep copy of an ArrowSchema, which the shim hands out as often as a
 * library asks: a handover's schema (the half of each (schema, array)
 * pair, its __arrow_c_schema__) is the schema the round trip gave the
 * Adopt, which may be asked for more than once while that one schema is
 * the shim's to give (adc/plugin_abi.h, AdoptBatch: moved). */
#ifndef ADC_PYTHON_SCHEMA_COPY_H
#define ADC_PYTHON_SCHEMA_COPY_H

#include "adc/arrow_c_abi.h"

/* Fills `out` with a copy of `source` (format, name, metadata, flags,
 * children, dictionary), owned by `out`, whose release frees it all.
 * Returns 0, or -1 when out of memory (`out` then untouched). */
int adc_schema_copy(const struct ArrowSchema* source, struct ArrowSchema* out);

#endif /* ADC_PYTHON_SCHEMA_COPY_H */
