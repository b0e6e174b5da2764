/* The fixtures of a run: every *.json file of a folder, read in the parent
 * (reading JSON runs no code of the library under test). */
#ifndef ADC_FIXTURE_SET_H
#define ADC_FIXTURE_SET_H

#include "session.h"

/* Returns 0, or -1 after printing one error line naming the fixture. */
int adc_load_fixtures(struct adc_session* session);
void adc_free_fixtures(struct adc_session* session);

#endif /* ADC_FIXTURE_SET_H */
