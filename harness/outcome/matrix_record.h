/* The record of an interop matrix (`adc-conform matrix`): every library's
 * exports handed to every library's imports, one run record per pair, and
 * what the matrix reads from them: each pair's cell per device (its worst
 * status and counts), and for each case that did not pass, the side at
 * fault where the pairs each side makes with the reference say which
 * (CONFORMANCE.md, "The interop matrix").  Every matrix report (console,
 * JSON, HTML) reads this record and decides nothing itself. */
#ifndef ADC_MATRIX_RECORD_H
#define ADC_MATRIX_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "outcome/run_record.h"

/* Libraries one matrix may hold. */
#define ADC_MATRIX_MAX_LIBRARIES 16

/* A library of the matrix, as --library named it. */
struct adc_matrix_library {
  const char* name;  /* NAME of --library NAME=SPEC */
  const char* spec;  /* SPEC, as given */
  bool is_reference; /* the bundled reference, which every matrix holds */
  bool is_producer;  /* it has a producer's side (a Python library: a FACTORY) */
  bool is_consumer;  /* it has a consumer's side (a Python library: a FUNCTION) */
};

/* One pair: `producer`'s exports into `consumer`'s imports (indexes into
 * the libraries), its cases and their verdicts as a run of that pair
 * records them; case IDs are "<producer>><consumer>/<device>/<rule>/<fixture>". */
struct adc_matrix_pair {
  size_t producer;
  size_t consumer;
  struct adc_run_record record;
};

/* Which side a case that did not pass is the fault of, read from the
 * reference's pairs: the same rule, device and fixture with the reference
 * as the consumer (the producer alone) and as the producer (the consumer
 * alone). */
enum adc_matrix_blame {
  ADC_BLAME_NONE,     /* the case passed, or was not_supported: nothing to blame */
  ADC_BLAME_PRODUCER, /* the producer fails with the reference's consumer too; the consumer passes with its
                         producer */
  ADC_BLAME_CONSUMER, /* the reverse */
  ADC_BLAME_BOTH,     /* each side fails with the reference too */
  ADC_BLAME_PAIR,     /* each side passes with the reference (or has no pair with it): the pair disagrees */
  ADC_BLAME_COUNT
};

/* "none", "producer", "consumer", "both", "pair": as the reports spell it. */
const char* adc_matrix_blame_name(enum adc_matrix_blame blame);

/* A cell: one pair on one device. */
struct adc_matrix_cell {
  size_t counts[ADC_STATUS_COUNT];
  size_t cases;
  enum adc_status worst; /* crash, timeout, fail, unresolved, warning, not_supported, pass: the first met */
};

struct adc_matrix_record {
  struct adc_matrix_library libraries[ADC_MATRIX_MAX_LIBRARIES];
  size_t n_libraries;
  size_t reference; /* the reference's index */
  const char* devices[ADC_RECORD_MAX_DEVICES];
  size_t n_devices;
  struct adc_matrix_pair* pairs; /* owned, in the order they ran: producers, then consumers, as named */
  size_t n_pairs;
  double wall_seconds;
  int interrupted_by; /* SIGINT or SIGTERM when the matrix was interrupted; else 0 */
  /* Filled by adc_matrix_record_finish: the cases of every pair, the
   * counts, and the exit status (128 + the signal when interrupted; 1 when
   * a case fails its pair's run: a MUST case in fail, crash or timeout that
   * no --expect entry expects, or one that ended otherwise than its entry
   * says; else 0). */
  size_t cases;
  size_t counts[ADC_STATUS_COUNT];
  size_t failing_run_cases;
  int exit_status;
};

/* The pair of `producer` and `consumer`, or NULL where the matrix did not
 * run it. */
const struct adc_matrix_pair* adc_matrix_pair_of(const struct adc_matrix_record* matrix, size_t producer,
                                                 size_t consumer);

/* The cell of `pair` on device `device` (one of the matrix's devices). */
struct adc_matrix_cell adc_matrix_cell_of(const struct adc_matrix_pair* pair, const char* device);

/* The side at fault for case `c` of `pair`; with `shown_by`, the ID of the
 * case of a reference's pair that shows it (NULL for none). */
enum adc_matrix_blame adc_matrix_blame_of(const struct adc_matrix_record* matrix,
                                          const struct adc_matrix_pair* pair, const struct adc_case_record* c,
                                          const char** shown_by);

/* Counts the cases and sets the exit status. */
void adc_matrix_record_finish(struct adc_matrix_record* matrix);

/* Frees the pairs' records and the array of pairs. */
void adc_matrix_record_free(struct adc_matrix_record* matrix);

#endif /* ADC_MATRIX_RECORD_H */
