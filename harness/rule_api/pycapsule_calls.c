#include "rule_api/pycapsule_calls.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static const char* const method_names[ADC_PYCAPSULE_METHOD_COUNT] = {
    [ADC_PYCAPSULE_SCHEMA] = "__arrow_c_schema__",
    [ADC_PYCAPSULE_ARRAY] = "__arrow_c_array__",
    [ADC_PYCAPSULE_DEVICE_ARRAY] = "__arrow_c_device_array__",
    [ADC_PYCAPSULE_STREAM] = "__arrow_c_stream__",
    [ADC_PYCAPSULE_DEVICE_STREAM] = "__arrow_c_device_stream__",
};

const char* adc_pycapsule_method_name(enum adc_pycapsule_method method) {
  return method_names[method];
}

void adc_pycapsule_expected_names(enum adc_pycapsule_method method, const char* names[2]) {
  static const char* const expected[ADC_PYCAPSULE_METHOD_COUNT][2] = {
      [ADC_PYCAPSULE_SCHEMA] = {"arrow_schema", NULL},
      [ADC_PYCAPSULE_ARRAY] = {"arrow_schema", "arrow_array"},
      [ADC_PYCAPSULE_DEVICE_ARRAY] = {"arrow_schema", "arrow_device_array"},
      [ADC_PYCAPSULE_STREAM] = {"arrow_array_stream", NULL},
      [ADC_PYCAPSULE_DEVICE_STREAM] = {"arrow_device_array_stream", NULL},
  };
  names[0] = expected[method][0];
  names[1] = expected[method][1];
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
    adc_unresolved(ctx, "%s(): %s", method_names[method], out->unobserved);
    return false;
  }
  return true;
}
