/* A covering set of fixtures, per rule: the fewest fixtures of the run that
 * hold, between them, every type the rule meets in all of them (each row
 * of the type table, arrow_format/arrow_layout.h, at any depth,
 * and dictionary encoding).  --covering-fixtures plans each rule on its
 * set alone: for the runs where every case is slow (the sanitizer builds,
 * a memory checker), the suite chooses what reaches every rule on every
 * type rather than a hand-picked few fixtures. */
#ifndef ADC_FIXTURE_COVER_H
#define ADC_FIXTURE_COVER_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/session.h"

/* The keys of the types a fixture holds, ADC_FIXTURE_TYPE_KEYS of them:
 * the row of the type table of every type at any depth (dictionary
 * indices and values included), and one for dictionary encoding.  Marks
 * `held[key]` for each (the caller zeroes it). */
#define ADC_FIXTURE_TYPE_KEYS (arrow_type_row_count + 1)
void adc_fixture_type_keys(const struct arrow_json_file* fixture, bool* held);

/* Marks in `keep` (one per fixture of the session) the covering set of
 * the fixtures for which `applies[f]` holds: greedily, the fixture adding
 * the most types not yet held first (the first in the session's order on
 * a tie), until every type is held; at least one where any applies. */
void adc_cover_fixtures(const struct adc_session* session, const bool* applies, bool* keep);

#endif /* ADC_FIXTURE_COVER_H */
