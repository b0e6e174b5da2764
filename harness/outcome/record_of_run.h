/* The run record of a run this process made: built from the session, the
 * planned cases and the runner's results, which it points into (they must
 * outlive it). */
#ifndef ADC_RECORD_OF_RUN_H
#define ADC_RECORD_OF_RUN_H

#include "outcome/run_record.h"
#include "runner/session.h"

/* How the run as a whole went. */
struct adc_run_outcome {
  double wall_seconds;
  int interrupted_by; /* SIGINT or SIGTERM when the run was interrupted; else 0 */
};

/* One ended case as a record holds it, its strings pointing into `c` (its
 * rule, device, fixture and --expect entry) and `result`; its fails_run is
 * set only once it is added to a record.  The journal writes each case so
 * as it ends. */
void adc_case_record_of_run(const struct adc_case* c, const struct adc_task_result* result,
                            struct adc_case_record* out);

/* Fills `record` (begun here: free it with adc_run_record_free) with the
 * `n` cases of the run and results[i] for cases[i], judged, and the
 * session's facts: its libraries, devices, --expect file and the entries
 * of it that matched no case, the command line and the environment the
 * JSON report writes.  Returns 0, or -1 when out of memory. */
int adc_run_record_of_run(struct adc_run_record* record, const struct adc_session* session,
                          const struct adc_case* cases, const struct adc_task_result* results, size_t n,
                          const struct adc_run_outcome* outcome, struct adc_error* error);

#endif /* ADC_RECORD_OF_RUN_H */
