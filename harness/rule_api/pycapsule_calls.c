#include "rule_api/pycapsule_calls.h"

#include "arrow_format/arrow_logical.h"
#include "rule_api/round_trip.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

const char* adc_pycapsule_method_name(enum adc_pycapsule_method method) {
  return adc_pycapsule_names_of(method)->method;
}

void adc_pycapsule_expected_names(enum adc_pycapsule_method method, const char* names[2]) {
  names[0] = adc_pycapsule_names_of(method)->capsules[0];
  names[1] = adc_pycapsule_names_of(method)->capsules[1];
}

/* The object the probe calls is the held object of the library's
 * round-trip Adopt of what the method is asked of (adc/pycapsule_probe.h):
 * the fixture's schema, its first batch, or its stream on the CPU. */
static enum adc_round_trip_input input_of(enum adc_pycapsule_method method) {
  switch (method) {
    case ADC_PYCAPSULE_SCHEMA:
      return ADC_ADOPT_SCHEMA;
    case ADC_PYCAPSULE_ARRAY:
    case ADC_PYCAPSULE_DEVICE_ARRAY:
      return ADC_ADOPT_BATCH;
    default:
      return ADC_ADOPT_STREAM;
  }
}

/* The probe on the library's adoption of the fixture; the schema the call
 * returned, where the probe kept one, compared with the fixture
 * (arrow_logical.h) and released.  NULL, or why the probe was not made. */
static const char* probe_adopted(struct adc_case_context* ctx, adc_pycapsule_probe_function call,
                                 enum adc_pycapsule_method method, enum adc_pycapsule_probe probe,
                                 struct adc_pycapsule_observation* out) {
  struct ArrowSchema requested;
  memset(&requested, 0, sizeof(requested));
  const char* error = NULL;
  if (probe == ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA &&
      (error = adc_round_trip_fixture_schema(ctx->fixture_path, &requested)) != NULL)
    return error;
  struct adc_round_trip_adoption* adoption = NULL;
  error = adc_round_trip_adopt(ctx->library->handle, ctx->library->prefix, &ctx->library->round_trip,
                               input_of(method), ctx->fixture_path, &adoption);
  if (error == NULL) {
    error = call(adc_round_trip_held(adoption), method, probe,
                 probe == ADC_PYCAPSULE_PROBE_FIXTURE_SCHEMA ? &requested : NULL, out);
    adc_round_trip_unadopt(adoption);
  }
  if (requested.release != NULL) requested.release(&requested);
  if (error == NULL && out->returned_schema.release != NULL) {
    out->representation_changes = arrow_logical_describe_changes(ctx->fixture, &out->returned_schema,
                                                                 out->changes, sizeof(out->changes));
    out->returned_schema.release(&out->returned_schema);
  }
  return error;
}

bool adc_pycapsule_probe(struct adc_case_context* ctx, enum adc_pycapsule_method method,
                         enum adc_pycapsule_probe probe, struct adc_pycapsule_observation* out) {
  char symbol[256];
  snprintf(symbol, sizeof(symbol), "%s_%s", ctx->library->prefix, ADC_PYCAPSULE_PROBE_SUFFIX);
  void* address = dlsym(ctx->library->handle, symbol);
  if (address == NULL) {
    adc_not_supported(ctx,
                      "%s does not export %s: the PyCapsule rules judge a Python library through the shim "
                      "(--producer python:MODULE:FACTORY)",
                      ctx->library->path, symbol);
    return false;
  }
  adc_pycapsule_probe_function call;
  memcpy(&call, &address, sizeof(call)); /* ISO C: an object pointer's bytes into a function pointer */
  const char* error = probe_adopted(ctx, call, method, probe, out);
  if (error != NULL) {
    memset(out, 0, sizeof(*out));
    out->declined = true;
    snprintf(out->exception, sizeof(out->exception), "%s", error);
    return true;
  }
  if (out->unobserved[0] != '\0') {
    adc_unresolved(ctx, "%s(): %s", adc_pycapsule_method_name(method), out->unobserved);
    return false;
  }
  return true;
}
