#include "rule_api/pycapsule_calls.h"

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
  const char* error = call(ctx->fixture_path, 0, method, probe, out);
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
