/* A pair whose producer keeps its own model of the data (a Python library:
 * rule_api/library.h, keeps_own_model) and whose consumer compares what it
 * imports with the file as written (a library of the plugin ABI, whose
 * Import...AndCompareToJson has the file's schema and batches).
 *
 * Such a producer's batch in other types than the fixture's cannot be
 * handed to such a consumer at all (a batch carries no schema: the consumer
 * reads it by the fixture's), which adc_pair_producer_keeps_other_types
 * tells.  It may also hand over the fixture's values in other
 * representations (string views, batches merged, a null struct's children
 * nulled: arrow_logical.h), which its own runs accept by value; such a
 * consumer then reports a difference that is neither's defect.  So where
 * the consumer did not find the producer's data equal, the harness asks the
 * producer for the same data again and reads it by the producer's own
 * schema: where it holds the fixture's values without being the file as
 * written, the consumer's answer says nothing of the pair's values
 * (CONFORMANCE.md, "The interop matrix"). */
#ifndef ADC_PAIR_OWN_MODEL_H
#define ADC_PAIR_OWN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_api/case_context.h"

/* Whether the case's producer keeps its own model in other types than the
 * fixture's (its ExportSchemaFromJson, compared by the fixture's types),
 * with what it keeps instead written to `kept`.  False too where it has no
 * such schema to give (the batch's own export then says why).  Gives the
 * case no verdict. */
bool adc_pair_producer_keeps_other_types(const struct adc_case_context* ctx, char* kept, size_t size);

/* For the case's pair, after its consumer did not find the producer's
 * batch `batch` (or its stream, for -1) equal to the fixture: true where
 * the producer keeps its own model, the consumer does not, and a fresh
 * export of the same data by the producer holds the fixture's values (by
 * value, its flags as the producer's own runs judge them) while differing
 * from the file as written; where it differs is written to `kept`.  False
 * otherwise, the consumer's answer then standing: a producer of C entry
 * points, a consumer that compares by value, an export that is the file as
 * written (the consumer's difference is its own) or whose values differ
 * (the producer's), or one the harness could not have or read.  Gives the
 * case no verdict; what it exports it releases. */
bool adc_pair_values_kept_in_own_model(struct adc_case_context* ctx, int batch, char* kept, size_t size);

#endif /* ADC_PAIR_OWN_MODEL_H */
