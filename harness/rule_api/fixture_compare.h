/* Comparing exported data with the fixture, and checking their structure
 * (arrow_format/arrow_structure.h), wherever the data live.
 *
 * On a device the harness may read in place (the CPU) the array itself is
 * compared; elsewhere a host copy made through the device's operations
 * (arrow_format/arrow_json_mirror.h) is.  The comparison is the fixture model's
 * (arrow_format/arrow_json.h): logical, honouring offsets and unknown null
 * counts.
 *
 * Each returns 0 when the data equals the fixture, otherwise non-zero with
 * the first difference in `difference`.  When the data cannot be brought to
 * the host, the case gets an unresolved verdict naming the device's reason
 * and non-zero is returned; the first verdict being final, a violation the
 * caller gives afterwards is ignored.
 *
 * On a device with an event type, when the first comparison after an
 * export (ctx->late_data_rule) finds a difference, the data are watched for
 * up to ADC_LATE_DATA_WATCH_SECONDS: when they turn into the fixture's, the
 * producer was still writing them, and the case is left unresolved
 * pointing at the event rule it broke rather than failing a rule about
 * content. */
#ifndef ADC_FIXTURE_COMPARE_H
#define ADC_FIXTURE_COMPARE_H

#include "arrow_format/arrow_structure.h"
#include "rule_api/case_context.h"

/* How long data that differ from the fixture are watched for late writes:
 * five times what the broken libraries' late writes take (0.2 s), so that
 * a loaded machine still sees them land; the cost, once per case, is paid
 * only by producers whose data are wrong. */
#define ADC_LATE_DATA_WATCH_SECONDS 1.0

/* A schema the library exported (a stream's get_schema, an async
 * producer's on_schema) compared with the fixture's: exactly, for a
 * library of C entry points; by value for one that keeps its own model
 * (rule_api/library.h; arrow_logical.h: types, names, metadata, and the
 * flags as schema.flags.match_fixture judges them for it).  0, or non-zero
 * with the first difference in `difference`. */
int adc_compare_schema(const struct adc_case_context* ctx, const struct ArrowSchema* schema, char* difference,
                       size_t size);

/* The same for what the data need, the types and names alone (flags and
 * metadata aside): what a rule that reads the data under a schema asks of
 * it before its step. */
int adc_compare_schema_types(const struct adc_case_context* ctx, const struct ArrowSchema* schema,
                             char* difference, size_t size);

/* Batch `batch` of the fixture: exactly, read by the fixture's types (a
 * library of C entry points exports the file as written); by value, read
 * by the library's own schema of the fixture (ExportSchemaFromJson), for
 * one that keeps its own model. */
int adc_compare_batch(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                      char* difference, size_t size);
/* Column `column` of batch `batch`, moved out of its batch. */
int adc_compare_column(struct adc_case_context* ctx, int batch, int64_t column,
                       const struct ArrowArray* array, char* difference, size_t size);
/* The dictionary values of dictionary-encoded column `column`, moved
 * out of batch `batch`: the fixture's dictionary; for a library that keeps
 * its own model, the dictionary of a fresh export of that batch (its own
 * dictionary, whose values it may order otherwise). */
int adc_compare_dictionary(struct adc_case_context* ctx, int batch, int64_t column,
                           const struct ArrowArray* dictionary, char* difference, size_t size);

/* Whether `array` equals batch `batch` of the fixture.  If not, gives an
 * unresolved verdict pointing at `data_rule`, the rule judging the data as
 * they were exported: a rule about lifetime cannot be judged on data that
 * was wrong from the start.  adc_batch_matches_before points at
 * array.data.matches_fixture. */
bool adc_batch_matches_before_step(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                                   const char* data_rule);
bool adc_batch_matches_before(struct adc_case_context* ctx, int batch, const struct ArrowArray* array);

/* For data that differ from batch `batch` now: re-reads them until they
 * equal it, for up to ADC_LATE_DATA_WATCH_SECONDS; the seconds that took,
 * or -1 when they never did. */
double adc_seconds_until_batch_matches(struct adc_case_context* ctx, int batch,
                                       const struct ArrowArray* array);

/* What adc_check_batch_structure found, besides 0 (the family holds) and
 * -1 (the data could not be read: the case has its verdict). */
enum {
  ADC_STRUCTURE_BREACH = 1,     /* the family's first breach is in `difference` */
  ADC_STRUCTURE_UNREADABLE = 2, /* a node is not of its type (the layout and data rules' business) */
  /* A library that keeps its own model (library.h) exports other types
   * than the fixture's, which the checks read by: `difference` says which. */
  ADC_STRUCTURE_OTHER_TYPES = 3,
};

/* Checks one family of structural invariants on batch `batch`, read where
 * it lives (a host mirror off the CPU), typed by the fixture's fields.
 * Data found breaking it on a device with events are watched as a
 * comparison's are: when they turn right, the case is unresolved pointing
 * at the event rule, and -1 is returned. */
int adc_check_batch_structure(struct adc_case_context* ctx, int batch, const struct ArrowArray* array,
                              enum arrow_structure_family family, char* difference, size_t size);

#endif /* ADC_FIXTURE_COMPARE_H */
