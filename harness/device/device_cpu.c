/* The CPU as a device: host memory, no ids, no event type (its kind,
 * adc/device_kinds.h).  Twice: once
 * reached through the C Data Interface entry points (ArrowArray, as Apache
 * Arrow's integration tooling does), once through the device entry points
 * (ArrowDeviceArray with ARROW_DEVICE_CPU), so that a library with only the
 * latter is judged on every rule too. */
#include "device/device_drivers.h"
#include "device/host_memory.h"

static int cpu_wait_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  (void)device;
  if (sync_event == NULL) return 0;
  /* spec: "If no event type is supported ("N/A"), then the sync_event member
   * should always be null": there is nothing a CPU consumer could wait on. */
  return adc_fail(error, "sync_event is %p on the CPU, which has no event type", sync_event);
}

static const struct adc_device_ops cpu_ops = {
    .open = adc_host_open,
    .describe = adc_host_describe,
    .wait_event = cpu_wait_event,
    .copy_to_host = adc_host_copy,
    .copy_from_host = adc_host_copy,
    .allocate = adc_host_allocate,
    .free = adc_host_free,
    .protect_read_only = adc_host_protect_read_only,
};

const struct adc_device_driver adc_device_cpu = {
    .name = "cpu",
    .kind = &adc_device_kind_cpu,
    .batches_as_device_arrays = false,
    .ops = &cpu_ops,
};

const struct adc_device_driver adc_device_cpu_device_arrays = {
    .name = "cpu_device_arrays",
    .kind = &adc_device_kind_cpu,
    .batches_as_device_arrays = true,
    .ops = &cpu_ops,
};
