/* The devices the reference pair serves, listed once. */
#include "reference_device.h"

const struct ref_device* ref_device_for(ArrowDeviceType type) {
  static const struct ref_device* const devices[] = {&ref_device_cpu, &ref_device_simulated};
  for (size_t i = 0; i < sizeof(devices) / sizeof(devices[0]); i++) {
    if (devices[i]->type == type) return devices[i];
  }
  return NULL;
}
