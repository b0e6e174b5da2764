/* The kinds of device this suite knows, described once: the facts the
 * harness (harness/device/) and the reference pair (reference/) both need
 * about a device kind, which each derives from this table rather than
 * writing down again.  A kind is what the spec's tables say of a device
 * type: its ARROW_DEVICE_* value, whether it has ids, its synchronisation
 * event type, and whether the host may read its buffers in place.  How a
 * side reaches the device (its runtime, its queue) is that side's own. */
#ifndef ADC_DEVICE_KINDS_H
#define ADC_DEVICE_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "adc/arrow_c_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct adc_device_kind {
  const char* name; /* "cuda_host": the harness's --device name for it */
  ArrowDeviceType arrow_type;
  /* Whether devices of the kind are told apart by a device_id (the first
   * is 0); false for the spec's "device types that do not have an
   * intrinsic notion of a device identifier", whose device_id is -1. */
  bool has_device_ids;
  /* What sync_event points to ("cudaEvent_t" ...); NULL where the kind has
   * no event type (spec: "Synchronization event types"). */
  const char* event_type;
  /* Whether the host may read the buffers in place (once the sync_event
   * completed), as on the CPU, in pinned host or managed memory; otherwise
   * they are read through the device's copies. */
  bool host_readable;
};

extern const struct adc_device_kind adc_device_kind_cpu;
extern const struct adc_device_kind adc_device_kind_simulated;
extern const struct adc_device_kind adc_device_kind_cuda;
extern const struct adc_device_kind adc_device_kind_cuda_host;
extern const struct adc_device_kind adc_device_kind_cuda_managed;
extern const struct adc_device_kind adc_device_kind_rocm;
extern const struct adc_device_kind adc_device_kind_rocm_host;
extern const struct adc_device_kind adc_device_kind_opencl;

/* The kind of `type`; NULL for a type no kind has. */
const struct adc_device_kind* adc_device_kind_of_type(ArrowDeviceType type);

/* The kinds in table order, for checks that every one is served. */
size_t adc_device_kind_count(void);
const struct adc_device_kind* adc_device_kind_at(size_t index);

#ifdef __cplusplus
}
#endif

#endif /* ADC_DEVICE_KINDS_H */
