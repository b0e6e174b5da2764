/* The fixtures of a run: every *.json file of a folder, or of several
 * separated by ':', read in the parent (reading JSON runs no code of the
 * library under test).  Names must be unique across the folders. */
#ifndef ADC_FIXTURE_SET_H
#define ADC_FIXTURE_SET_H

#include "runner/session.h"
#include "support/error.h"

/* Loads every fixture of session->fixtures_dir into the session.  Returns 0,
 * or -1 with one line naming the folder or the fixture and what is wrong. */
int adc_load_fixtures(struct adc_session* session, struct adc_error* error);
void adc_free_fixtures(struct adc_session* session);

#endif /* ADC_FIXTURE_SET_H */
