/* Asking the Python shim's probe (include/adc/pycapsule_probe.h) what a
 * Python library's PyCapsule methods do, for the PyCapsule rules
 * (spec-tests/rules_pycapsule.c). */
#ifndef ADC_PYCAPSULE_CALLS_H
#define ADC_PYCAPSULE_CALLS_H

#include <stdbool.h>

#include "adc/pycapsule_probe.h"
#include "rule_api/case_context.h"

/* "__arrow_c_array__", ...: the method's name. */
const char* adc_pycapsule_method_name(enum adc_pycapsule_method method);

/* The capsule names the interface gives the method's capsules ("PyCapsule
 * Standard"), the pair's schema first; the second is NULL for one capsule. */
void adc_pycapsule_expected_names(enum adc_pycapsule_method method, const char* names[2]);

/* Calls the probe on the case's fixture (its first batch, for the array
 * methods).  True with out->declined set where the factory declined to
 * make the method's object (its exception in out->exception: the rule
 * judges the other methods).  False with a verdict given: not_supported
 * where the library is not the Python shim, unresolved where the call
 * returned but the probe could not watch it (out->unobserved). */
bool adc_pycapsule_probe(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                         enum adc_pycapsule_probe probe, struct adc_pycapsule_observation* out);

#endif /* ADC_PYCAPSULE_CALLS_H */
