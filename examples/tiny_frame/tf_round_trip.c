/* The round-trip entry points (adc/plugin_abi.h): each Adopt is one of
 * tiny_frame's imports, each Export one of its exports, and the held
 * object is a table.  BytesAllocated is the allocator's count.  The function types of the ABI are checked
 * against these definitions at compile time, below. */
#include <stddef.h>

#include "tf_device.h"
#include "tf_error.h"
#include "tf_export.h"
#include "tf_import.h"
#include "tiny_frame.h"

/* An Adopt's result: the table held, or NULL held and the message. */
static const char* hold(struct tf_table* table, void** held) {
  *held = table;
  return table != NULL ? NULL : tf_error_message();
}

static const char* export_result(int status) {
  return status == 0 ? NULL : tf_error_message();
}

static const char* kind_name(enum tf_table_kind kind) {
  switch (kind) {
    case TF_TABLE_SCHEMA:
      return "a schema alone (AdoptSchema)";
    case TF_TABLE_BATCH:
      return "a batch (AdoptBatch, AdoptDeviceBatch)";
    case TF_TABLE_STREAM:
      return "a stream (AdoptDeviceStream)";
  }
  return "?";
}

/* The held table, or NULL with a message where it is not of `kind`. */
static struct tf_table* held_table(void* held, enum tf_table_kind kind, const char* entry_point) {
  struct tf_table* table = held;
  if (table == NULL) {
    tf_fail("tiny_frame_RoundTrip_%s: no held object (NULL)", entry_point);
    return NULL;
  }
  if (table->kind != kind) {
    tf_fail("tiny_frame_RoundTrip_%s: the held object is %s, not %s", entry_point, kind_name(table->kind),
            kind_name(kind));
    return NULL;
  }
  return table;
}

const char* tiny_frame_RoundTrip_AdoptSchema(struct ArrowSchema* schema, void** held) {
  return hold(tf_import_schema(schema), held);
}

const char* tiny_frame_RoundTrip_AdoptBatch(struct ArrowSchema* schema, struct ArrowArray* batch,
                                            void** held) {
  return hold(tf_import_batch(schema, batch), held);
}

const char* tiny_frame_RoundTrip_AdoptDeviceBatch(struct ArrowSchema* schema, struct ArrowDeviceArray* batch,
                                                  void** held) {
  return hold(tf_import_device_batch(schema, batch), held);
}

const char* tiny_frame_RoundTrip_AdoptDeviceStream(struct ArrowDeviceArrayStream* stream, void** held) {
  return hold(tf_import_device_stream(stream), held);
}

/* Every held table has a schema, whatever it was adopted from. */
const char* tiny_frame_RoundTrip_ExportSchema(void* held, struct ArrowSchema* out) {
  struct tf_table* table = held;
  if (table == NULL) return "tiny_frame_RoundTrip_ExportSchema: no held object (NULL)";
  return export_result(tf_export_schema(&table->schema, out));
}

/* A plain ArrowArray carries no device: only a batch on the CPU. */
const char* tiny_frame_RoundTrip_ExportBatch(void* held, struct ArrowArray* out) {
  struct tf_table* table = held_table(held, TF_TABLE_BATCH, "ExportBatch");
  if (table == NULL) return tf_error_message();
  const struct tf_device* device = &table->batches[0].device;
  if (device->type != ARROW_DEVICE_CPU) {
    tf_fail(
        "tiny_frame_RoundTrip_ExportBatch: the batch is on device type %d, id %lld, not the CPU "
        "(ExportDeviceBatch exports it)",
        (int)device->type, (long long)device->id);
    return tf_error_message();
  }
  return export_result(tf_export_column(&table->batches[0].root, out));
}

const char* tiny_frame_RoundTrip_ExportDeviceBatch(void* held, struct ArrowDeviceArray* out) {
  struct tf_table* table = held_table(held, TF_TABLE_BATCH, "ExportDeviceBatch");
  if (table == NULL) return tf_error_message();
  return export_result(tf_export_device_batch(&table->batches[0], out));
}

const char* tiny_frame_RoundTrip_ExportDeviceStream(void* held, struct ArrowDeviceArrayStream* out) {
  struct tf_table* table = held_table(held, TF_TABLE_STREAM, "ExportDeviceStream");
  if (table == NULL) return tf_error_message();
  return export_result(tf_export_device_stream(table, out));
}

/* What an export holds lives on (tf_export.h). */
void tiny_frame_RoundTrip_Free(void* held) {
  tf_table_unref(held);
}

int64_t tiny_frame_BytesAllocated(void) {
  return tf_device_bytes_in_use();
}

/* Each definition has its ABI function type: a change of a signature in
 * adc/plugin_abi.h stops the build here. */
#define CHECK_TYPE(name) \
  static const ADC_RoundTrip_##name check_##name __attribute__((unused)) = tiny_frame_RoundTrip_##name;
CHECK_TYPE(AdoptSchema)
CHECK_TYPE(AdoptBatch)
CHECK_TYPE(AdoptDeviceBatch)
CHECK_TYPE(AdoptDeviceStream)
CHECK_TYPE(ExportSchema)
CHECK_TYPE(ExportBatch)
CHECK_TYPE(ExportDeviceBatch)
CHECK_TYPE(ExportDeviceStream)
CHECK_TYPE(Free)
#undef CHECK_TYPE
static const ADC_BytesAllocated check_BytesAllocated __attribute__((unused)) = tiny_frame_BytesAllocated;
