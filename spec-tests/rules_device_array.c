/* Rules on the members ArrowDeviceArray adds to ArrowArray
 * (spec: "The ArrowDeviceArray structure"). */
#include <inttypes.h>
#include <stdio.h>

#include "device_id_label.h"
#include "rule_api/producer_calls.h"

/* Runs `check` on every batch exported with ExportDeviceBatchFromJson,
 * releasing each. */
static void for_each_device_batch(struct adc_case_context* ctx,
                                  void (*check)(struct adc_case_context*, int,
                                                const struct ArrowDeviceArray*)) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowDeviceArray* out = adc_export_device_batch(ctx, batch);
    if (out == NULL) return;
    check(ctx, batch, out);
    out->array.release(&out->array);
  }
}

static void check_reserved(struct adc_case_context* ctx, int batch, const struct ArrowDeviceArray* out) {
  for (int i = 0; i < 3; i++) {
    if (out->reserved[i] != 0) {
      adc_violation(ctx,
                    "batch %d: reserved[%d] is 0x%016" PRIx64
                    " after export (the output was pre-filled with 0x%02X bytes)",
                    batch, i, (uint64_t)out->reserved[i], ADC_FILL_BYTE);
      return;
    }
  }
}

static void reserved_zeroed(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_reserved);
}

static void check_device_type(struct adc_case_context* ctx, int batch, const struct ArrowDeviceArray* out) {
  if (out->device_type != ctx->device->driver->kind->arrow_type) {
    adc_violation(ctx, "batch %d: device_type is %d, %d (%s) was requested", batch, (int)out->device_type,
                  (int)ctx->device->driver->kind->arrow_type, ctx->device->driver->name);
  }
}

static void device_type_matches(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_device_type);
}

static void check_device_id_matches(struct adc_case_context* ctx, int batch,
                                    const struct ArrowDeviceArray* out) {
  char which[32];
  snprintf(which, sizeof(which), "batch %d", batch);
  adc_judge_device_id(ctx, out, which, "device_array.device_type.matches_request");
}

static void device_id_matches(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_device_id_matches);
}

static void check_device_id(struct adc_case_context* ctx, int batch, const struct ArrowDeviceArray* out) {
  if (out->device_id != -1) {
    adc_violation(ctx, "batch %d: device_id is %" PRId64 " on a device without ids, -1 is recommended", batch,
                  out->device_id);
  }
}

static void device_id_minus_one(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_device_id);
}

static void check_sync_event(struct adc_case_context* ctx, int batch, const struct ArrowDeviceArray* out) {
  if (out->sync_event != NULL) {
    adc_violation(ctx, "batch %d: sync_event is %p on %s, which has no event type", batch, out->sync_event,
                  ctx->device->driver->name);
  }
}

static void sync_event_null(struct adc_case_context* ctx) {
  for_each_device_batch(ctx, check_sync_event);
}

static bool has_no_device_ids(const struct adc_device_target* device) {
  return device->device_id == -1;
}
static const struct adc_device_filter without_device_ids = {has_no_device_ids,
                                                            "without device ids (the CPU)"};

static bool has_no_event_type(const struct adc_device_target* device) {
  return device->driver->kind->event_type == NULL;
}
static const struct adc_device_filter without_event_type = {has_no_event_type,
                                                            "without an event type (the CPU)"};

static const struct adc_rule rules[] = {
    {
        .id = "device_array.reserved.zeroed",
        .clause = "The ArrowDeviceArray structure",
        .sentence = "These bytes MUST be zero'd out after initialization by the producer in order to "
                    "ensure safe evolution of the ABI in the future.",
        .method = "Fills the output with 0xA5 bytes, exports every batch with ExportDeviceBatchFromJson "
                  "and checks reserved[0..2] are 0.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .run = reserved_zeroed,
    },
    {
        .id = "device_array.device_type.matches_request",
        .clause = "The ArrowDeviceArray structure",
        .sentence = "Mandatory. The type of the device which can access the buffers in the array.",
        .method = "Exports every batch to the device under test and checks device_type is the "
                  "ARROW_DEVICE_* value requested.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .run = device_type_matches,
    },
    {
        .id = "device_array.device_id.matches_request",
        .clause = ADC_DEVICE_ID_CLAUSE,
        .sentence = ADC_DEVICE_ID_SENTENCE,
        .method = "Exports every batch to the device under test and checks device_id is the id requested "
                  "(MUST: see erratum E12).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &adc_devices_with_ids,
        .run = device_id_matches,
    },
    {
        .id = "device_array.device_id.cpu_minus_one",
        .clause = "The ArrowDeviceArray structure",
        .sentence = "For device types that do not have an intrinsic notion of a device identifier (e.g., "
                    "ARROW_DEVICE_CPU), it is recommended to use a device_id of -1 as a convention.",
        .method = "Exports every batch to the device and checks device_id is -1.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_SHOULD,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &without_device_ids,
        .run = device_id_minus_one,
    },
    {
        .id = "device_array.sync_event.null_on_cpu",
        .clause = "Synchronization event types",
        .sentence = "If no event type is supported (\"N/A\"), then the sync_event member should always be "
                    "null.",
        .method = "Exports every batch to the device and checks sync_event is NULL (MUST: see erratum E4).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportDeviceBatchFromJson),
        .devices = &without_event_type,
        .run = sync_event_null,
    },
};

const struct adc_rule_family adc_device_array_rules = ADC_RULE_FAMILY(rules);
