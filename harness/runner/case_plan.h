/* Which cases a run has: every rule for a side named on the command line,
 * on the run's device, for every fixture it applies to, kept by --filter. */
#ifndef ADC_CASE_PLAN_H
#define ADC_CASE_PLAN_H

#include "runner/session.h"
#include "support/error.h"

/* Returns the number of cases, written to a new array in `*cases` (free it). */
size_t adc_plan_cases(const struct adc_session* session, const char* const* filters, int n_filters,
                      struct adc_case** cases);

/* Keeps shard `index` (1 to `count`) of the `n` planned cases, in place
 * and in plan order, and returns how many it kept.  The cases are dealt to
 * the shards in turn, rule after rule, so shard sizes differ by one case at
 * most and every rule with `count` cases or more has some in each shard:
 * shards take similar time.  The split depends on the case list alone, so
 * the same command with each index from 1 to count runs every case exactly
 * once. */
size_t adc_shard_cases(struct adc_case* cases, size_t n, int index, int count);

/* Shards a run may be split into, at most. */
#define ADC_MAX_SHARDS 1000

/* Reads "INDEX/COUNT" (--shard's value), 1 <= INDEX <= COUNT <=
 * ADC_MAX_SHARDS, into `*index` and `*count`: the one reader of the
 * spelling, for the command line and for the reports that merge reads
 * back.  Returns 0, or -1 with the reason. */
int adc_parse_shard(const char* text, int* index, int* count, struct adc_error* error);

/* A limit of the session: --timeout when given, else `own_seconds` (a
 * rule's own limit; 0 for none), else the default, either of the last two
 * times the session's timeout_scale. */
double adc_session_timeout(const struct adc_session* session, double own_seconds);

/* A case's time limit: --timeout when given, else its rule's own, else the
 * default, either of the last two times the session's timeout_scale. */
double adc_case_timeout(const struct adc_session* session, const struct adc_case* c);

/* Gives each case the first entry matching its ID (or none), and counts
 * each entry's cases. */
void adc_expectations_match(struct adc_expectations* expectations, struct adc_case* cases, size_t n);

#endif /* ADC_CASE_PLAN_H */
