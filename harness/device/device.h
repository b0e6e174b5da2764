/* The device layer: what the harness needs to know about a device kind to
 * run rules on it.  Devices are probed in the child process only, so the
 * harness parent never initialises a GPU runtime (CUDA cannot survive a
 * fork once initialised). */
#ifndef ADC_DEVICE_H
#define ADC_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"

enum {
  ADC_DEVICE_CPU = 1u << 0,
  ADC_DEVICE_CUDA = 1u << 1,
  ADC_DEVICE_ROCM = 1u << 2,
};

struct adc_device {
  const char* name;           /* as given to --device */
  unsigned bit;               /* ADC_DEVICE_* */
  ArrowDeviceType arrow_type; /* ARROW_DEVICE_* */
  int64_t device_id;          /* what producers are asked for; -1 on the CPU */
  /* Child only.  0 when the device can be used; otherwise -1 with the
   * runtime's own reason in `reason`. */
  int (*probe)(char* reason, size_t reason_size);
};

/* NULL for a name no device has. */
const struct adc_device* adc_device_find(const char* name);
/* "cpu, cuda, rocm" */
const char* adc_device_names(void);

#endif /* ADC_DEVICE_H */
