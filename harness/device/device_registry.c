/* The device drivers the harness knows, listed once. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "device/device_drivers.h"

static const struct adc_device_driver* const devices[] = {
    &adc_device_cpu,  &adc_device_cpu_device_arrays, &adc_device_simulated,
    &adc_device_cuda, &adc_device_cuda_host,         &adc_device_cuda_managed,
    &adc_device_rocm, &adc_device_rocm_host,         &adc_device_opencl};
#define N_DEVICES (sizeof(devices) / sizeof(devices[0]))

size_t adc_device_count(void) {
  return N_DEVICES;
}

const struct adc_device_driver* adc_device_at(size_t index) {
  return index < N_DEVICES ? devices[index] : NULL;
}

const struct adc_device_driver* adc_device_find(const char* name) {
  for (size_t i = 0; i < N_DEVICES; i++) {
    if (strcmp(devices[i]->name, name) == 0) return devices[i];
  }
  return NULL;
}

const char* adc_device_names(void) {
  static char names[256];
  if (names[0] == '\0') {
    size_t used = 0;
    for (size_t i = 0; i < N_DEVICES && used < sizeof(names); i++) {
      used +=
          (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i > 0 ? ", " : "", devices[i]->name);
    }
  }
  return names;
}
