/* The check behind every rule on ArrowDeviceArray.device_id
 * (device_id_label.h): one place, so that a single batch, a stream's
 * batch and an async task's array are held to the same reading
 * (CONFORMANCE.md, erratum E12). */
#include "device_id_label.h"

#include <inttypes.h>

static bool has_device_ids(const struct adc_device_target* device) {
  return device->device_id != -1;
}
const struct adc_device_filter adc_devices_with_ids = {
    has_device_ids, "with device ids (not the CPU, whose -1 is only recommended)"};

void adc_judge_device_id(struct adc_case_context* ctx, const struct ArrowDeviceArray* array,
                         const char* which, const char* type_rule) {
  const struct adc_device* device = ctx->device;
  if (array->device_type != device->driver->kind->arrow_type) {
    adc_unresolved(ctx, "%s has device_type %d, not %s's %d: its device_id names no device of %s (see %s)",
                   which, (int)array->device_type, device->driver->name,
                   (int)device->driver->kind->arrow_type, device->driver->name, type_rule);
  } else if (array->device_id != device->device_id) {
    /* spec: device_id identifies "a specific device"; the data were asked
     * for on this one (plugin ABI), so any other id sends a consumer to
     * memory the data are not in. */
    adc_violation(ctx, "%s has device_id %" PRId64 "; its data were asked for on %s, device_id %" PRId64,
                  which, array->device_id, device->driver->name, device->device_id);
  }
}
