#include "adc/device_kinds.h"

#include "adc/simulated_device.h"

/* Each row as the spec's tables have it ("device types", "Synchronization
 * event types"); where the buffers are read is the suite's reading of the
 * memory kind: pinned host and managed memory are the host's once the
 * event completed. */
#define KIND(variable, kind_name, type, ids, event, readable) \
  const struct adc_device_kind variable = {                   \
      .name = kind_name,                                      \
      .arrow_type = type,                                     \
      .has_device_ids = ids,                                  \
      .event_type = event,                                    \
      .host_readable = readable,                              \
  };

KIND(adc_device_kind_cpu, "cpu", ARROW_DEVICE_CPU, false, NULL, true)
/* Host memory that a worker may still write after the export returns
 * (include/adc/simulated_device.h); its devices are 0 to
 * ADC_SIMULATED_DEVICE_COUNT - 1. */
_Static_assert(ADC_SIMULATED_DEVICE_ID == 0, "the first device of a kind with ids is 0");
KIND(adc_device_kind_simulated, "simulated", ADC_SIMULATED_DEVICE_TYPE, true, "struct adc_simulated_event",
     true)
KIND(adc_device_kind_cuda, "cuda", ARROW_DEVICE_CUDA, true, "cudaEvent_t", false)
KIND(adc_device_kind_cuda_host, "cuda_host", ARROW_DEVICE_CUDA_HOST, true, "cudaEvent_t", true)
KIND(adc_device_kind_cuda_managed, "cuda_managed", ARROW_DEVICE_CUDA_MANAGED, true, "cudaEvent_t", true)
KIND(adc_device_kind_rocm, "rocm", ARROW_DEVICE_ROCM, true, "hipEvent_t", false)
KIND(adc_device_kind_rocm_host, "rocm_host", ARROW_DEVICE_ROCM_HOST, true, "hipEvent_t", true)
/* Buffers are fine-grained SVM, which the host reads once the event
 * completed; the event is a cl_event* (CONFORMANCE.md, "OpenCL"). */
KIND(adc_device_kind_opencl, "opencl", ARROW_DEVICE_OPENCL, true, "cl_event", true)

static const struct adc_device_kind* const kinds[] = {
    &adc_device_kind_cpu,       &adc_device_kind_simulated,    &adc_device_kind_cuda,
    &adc_device_kind_cuda_host, &adc_device_kind_cuda_managed, &adc_device_kind_rocm,
    &adc_device_kind_rocm_host, &adc_device_kind_opencl};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct adc_device_kind* adc_device_kind_of_type(ArrowDeviceType type) {
  for (size_t i = 0; i < N_KINDS; i++) {
    if (kinds[i]->arrow_type == type) return kinds[i];
  }
  return NULL;
}

size_t adc_device_kind_count(void) {
  return N_KINDS;
}

const struct adc_device_kind* adc_device_kind_at(size_t index) {
  return index < N_KINDS ? kinds[index] : NULL;
}
