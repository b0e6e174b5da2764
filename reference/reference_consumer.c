/* The reference consumer: import, compare with the fixture, release.
 *
 * spec: "Consumers MUST call a base structure's release callback when they
 * won't be using it anymore, but they MUST not call any of its children's
 * release callbacks".  Every path below releases the base structure exactly
 * once before returning, whatever the comparison found. */
#include <stdio.h>

#include "reference_core.h"
#include "reference_device.h"

static _Thread_local char message[2048];

int ref_load_fixture(const char* json_path, struct arrow_json_file* out, char* error, size_t error_size) {
  return arrow_json_read_file(json_path, out, error, error_size);
}

const char* ref_import_schema(const char* json_path, struct ArrowSchema* schema) {
  /* spec: "consumers SHOULD check for a NULL release callback" */
  if (schema->release == NULL) return "the schema handed to the consumer is already released";
  struct arrow_json_file file;
  const char* result = message;
  if (ref_load_fixture(json_path, &file, message, sizeof(message)) == 0) {
    result = arrow_json_compare_schema(&file, schema, message, sizeof(message)) == 0 ? NULL : message;
    arrow_json_file_free(&file);
  }
  schema->release(schema);
  return result;
}

const char* ref_import_batch(const char* json_path, int num_batch, struct ArrowArray* batch) {
  if (batch->release == NULL) return "the batch handed to the consumer is already released";
  struct arrow_json_file file;
  const char* result = message;
  if (ref_load_fixture(json_path, &file, message, sizeof(message)) == 0) {
    result =
        arrow_json_compare_batch(&file, num_batch, batch, message, sizeof(message)) == 0 ? NULL : message;
    arrow_json_file_free(&file);
  }
  batch->release(batch);
  return result;
}

const char* ref_import_device_batch(const char* json_path, int num_batch, struct ArrowDeviceArray* batch) {
  if (batch->array.release == NULL) return "the device batch handed to the consumer is already released";
  const struct ref_device* device = ref_device_for(batch->device_type);
  const char* problem = NULL;
  if (device == NULL) {
    problem = "the reference consumer does not read this device type";
  } else {
    /* spec: "If this is non-null then it MUST be used to call the
     * appropriate sync method for the device ... before attempting to
     * access the memory in the buffers." */
    problem = device->wait_event(batch->sync_event);
  }
  if (problem == NULL && !device->host_readable) {
    problem = "the reference consumer cannot read this device's memory from the CPU";
  }
  if (problem != NULL) {
    batch->array.release(&batch->array);
    return problem;
  }
  /* The embedded ArrowArray is released through its own callback (spec:
   * "calling the release callback should be done using the array member"). */
  return ref_import_batch(json_path, num_batch, &batch->array);
}
