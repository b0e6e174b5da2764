/* The CPU as a device: host memory, no ids, no event type.  Twice: once
 * reached through the C Data Interface entry points (ArrowArray, as Apache
 * Arrow's integration tooling does), once through the device entry points
 * (ArrowDeviceArray with ARROW_DEVICE_CPU), so that a library with only the
 * latter is judged on every rule too. */
#include "device/device_kinds.h"
#include "device/host_memory.h"

static int cpu_wait_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  (void)device;
  if (sync_event == NULL) return 0;
  /* spec: "If no event type is supported ("N/A"), then the sync_event member
   * should always be null": there is nothing a CPU consumer could wait on. */
  return adc_fail(error, "sync_event is %p on the CPU, which has no event type", sync_event);
}

#define CPU_DEVICE(variable, device_name, device_arrays) \
  const struct adc_device variable = {                   \
      .name = device_name,                               \
      .arrow_type = ARROW_DEVICE_CPU,                    \
      .device_id = -1,                                   \
      .event_type = NULL,                                \
      .host_accessible = true,                           \
      .batches_as_device_arrays = device_arrays,         \
      .probe = adc_host_probe,                           \
      .describe = adc_host_describe,                     \
      .wait_event = cpu_wait_event,                      \
      .copy_to_host = adc_host_copy,                     \
      .copy_from_host = adc_host_copy,                   \
      .allocate = adc_host_allocate,                     \
      .free = adc_host_free,                             \
      .protect_read_only = adc_host_protect_read_only,   \
  };

CPU_DEVICE(adc_device_cpu, "cpu", false)
CPU_DEVICE(adc_device_cpu_device_arrays, "cpu_device_arrays", true)
