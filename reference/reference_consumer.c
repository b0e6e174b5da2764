/* The reference consumer: import, compare with the fixture, release.
 *
 * spec: "Consumers MUST call a base structure's release callback when they
 * won't be using it anymore, but they MUST not call any of its children's
 * release callbacks".  Every path below releases the base structure exactly
 * once before returning, whatever the comparison found. */
#include <stdio.h>

#include "arrow_format/arrow_json_mirror.h"
#include "arrow_format/arrow_structure.h"
#include "reference_core.h"
#include "reference_device.h"

static _Thread_local char message[2048];

int ref_load_fixture(const char* json_path, struct arrow_json_file* out, char* error, size_t error_size) {
  return arrow_json_read_file(json_path, out, error, error_size);
}

/* The batch's structure, then its values.  The format puts validity on
 * the producer, and a consumer may trust it; this one checks every
 * invariant of the columnar format first (arrow_structure.h), on the data
 * as it reads them (in place, or a host copy), so that it never reads an
 * invalid array out of bounds, and refuses invalid input with a message
 * naming the invariant and where it is broken: a valid row reading right
 * does not make the batch valid. */
static const char* check_and_compare(const struct arrow_json_file* file, int64_t num_batch,
                                     const struct ArrowArray* batch) {
  struct arrow_structure_findings findings;
  if (arrow_structure_check_batch(file, batch, &findings) > 0 &&
      arrow_structure_refusal(&findings, ARROW_STRUCTURE_FAMILY_COUNT, message, sizeof(message))) {
    return message;
  }
  return arrow_json_compare_batch(file, num_batch, batch, message, sizeof(message)) == 0 ? NULL : message;
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
    result = check_and_compare(&file, num_batch, batch);
    arrow_json_file_free(&file);
  }
  batch->release(batch);
  return result;
}

/* The device's copy, for the mirror (arrow_format/arrow_json_mirror.h). */
static int copy_device_bytes(void* context, void* host, const void* source, size_t size) {
  const struct ref_device* device = context;
  const char* error = device->copy_to_host(host, source, size);
  if (error != NULL) snprintf(message, sizeof(message), "copying device memory to the host: %s", error);
  return error == NULL ? 0 : -1;
}

/* Compares a host copy of `array`, whose buffers the CPU cannot read in
 * place, with batch `num_batch` of `file`; the array itself is left to the
 * caller. */
static const char* compare_host_copy(const struct arrow_json_file* file, int64_t num_batch,
                                     const struct ref_device* device, const struct ArrowArray* array) {
  struct arrow_json_mirror copies = {.copy = copy_device_bytes, .context = (void*)device};
  struct ArrowArray host;
  const char* result = message;
  if (arrow_json_mirror_batch(&copies, file, array, &host) != 0) {
    if (copies.out_of_memory) snprintf(message, sizeof(message), "out of memory copying the batch");
  } else {
    result = check_and_compare(file, num_batch, &host);
  }
  arrow_json_mirror_free(&copies);
  return result;
}

/* The first steps with a device batch: NULL with `*device` set once the
 * batch can be read, else a message, the batch released. */
static const char* wait_until_readable(struct ArrowDeviceArray* batch, const struct ref_device** device) {
  if (batch->array.release == NULL) return "the device batch handed to the consumer is already released";
  *device = ref_device_for(batch->device_type);
  const char* problem = NULL;
  if (*device == NULL) {
    problem = "the reference consumer does not read this device type";
  } else {
    /* spec: "If this is non-null then it MUST be used to call the
     * appropriate sync method for the device ... before attempting to
     * access the memory in the buffers." */
    problem = (*device)->wait_event(batch->sync_event);
  }
  if (problem != NULL) batch->array.release(&batch->array);
  return problem;
}

const char* ref_compare_device_batch(const struct arrow_json_file* file, int64_t num_batch,
                                     struct ArrowDeviceArray* batch) {
  const struct ref_device* device = NULL;
  const char* problem = wait_until_readable(batch, &device);
  if (problem != NULL) return problem;
  const char* result = ref_device_host_readable(device)
                           ? check_and_compare(file, num_batch, &batch->array)
                           : compare_host_copy(file, num_batch, device, &batch->array);
  /* The embedded ArrowArray is released through its own callback (spec:
   * "calling the release callback should be done using the array member"). */
  batch->array.release(&batch->array);
  return result;
}

const char* ref_import_device_batch(const char* json_path, int num_batch, struct ArrowDeviceArray* batch) {
  return ref_import_device_batch_with(json_path, num_batch, batch, ref_import_batch);
}

const char* ref_import_device_batch_with(const char* json_path, int num_batch, struct ArrowDeviceArray* batch,
                                         ref_import_host_batch_fn import) {
  const struct ref_device* device = NULL;
  const char* problem = wait_until_readable(batch, &device);
  if (problem != NULL) return problem;
  if (ref_device_host_readable(device)) return import(json_path, num_batch, &batch->array);
  struct arrow_json_file file;
  const char* result = message;
  if (ref_load_fixture(json_path, &file, message, sizeof(message)) == 0) {
    result = compare_host_copy(&file, num_batch, device, &batch->array);
    arrow_json_file_free(&file);
  }
  batch->array.release(&batch->array);
  return result;
}
