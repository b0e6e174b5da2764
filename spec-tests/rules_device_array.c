/* Rules on the members ArrowDeviceArray adds to ArrowArray
 * (spec: "The ArrowDeviceArray structure"). */
#include <inttypes.h>

#include "producer_calls.h"
#include "rules.h"

/* Runs `check` on every batch exported to the device, releasing each. */
static void for_each_device_batch(struct adc_case_context* ctx,
                                  void (*check)(struct adc_case_context*, int, const struct ArrowDeviceArray*)) {
  for (int batch = 0; batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ArrowDeviceArray out;
    if (!adc_export_device_batch(ctx, batch, &out)) return;
    check(ctx, batch, &out);
    out.array.release(&out.array);
  }
}

static void check_reserved(struct adc_case_context* ctx, int batch, const struct ArrowDeviceArray* out) {
  for (int i = 0; i < 3; i++) {
    if (out->reserved[i] != 0) {
      adc_violation(ctx, "batch %d: reserved[%d] is 0x%016" PRIx64 " after export (the output was pre-filled with 0xA5 bytes)",
                    batch, i, (uint64_t)out->reserved[i]);
      return;
    }
  }
}

void rule_device_array_reserved_zeroed(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_reserved);
}

static void check_device_type(struct adc_case_context* ctx, int batch, const struct ArrowDeviceArray* out) {
  if (out->device_type != ctx->device->arrow_type) {
    adc_violation(ctx, "batch %d: device_type is %d, %d (%s) was requested", batch, (int)out->device_type,
                  (int)ctx->device->arrow_type, ctx->device->name);
  }
}

void rule_device_array_device_type_matches(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_device_type);
}

static void check_device_id(struct adc_case_context* ctx, int batch, const struct ArrowDeviceArray* out) {
  if (out->device_id != -1) {
    adc_violation(ctx, "batch %d: device_id is %" PRId64 " on a device without ids, -1 is recommended", batch,
                  out->device_id);
  }
}

void rule_device_array_device_id_cpu(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_device_id);
}

static void check_sync_event(struct adc_case_context* ctx, int batch, const struct ArrowDeviceArray* out) {
  if (out->sync_event != NULL) {
    adc_violation(ctx, "batch %d: sync_event is %p on the CPU, which has no event type", batch, out->sync_event);
  }
}

void rule_device_array_sync_event_cpu(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_sync_event);
}
