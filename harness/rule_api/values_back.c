#include "rule_api/values_back.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_format/arrow_logical.h"
#include "arrow_format/arrow_structure.h"

static _Thread_local char difference[2048];
static _Thread_local enum adc_values_back_finding finding;

enum adc_values_back_finding adc_values_back_last_finding(void) {
  return finding;
}

/* The library's schema against the fixture's: names and types logically
 * (a difference is the library's model), then a dictionary's ordered flag
 * (other data).  0, or -1 with `finding` and `difference` set. */
static int compare_schema(const struct arrow_json_file* file, const struct ArrowSchema* schema) {
  if (arrow_logical_compare_schema_aspects(file, schema, ARROW_LOGICAL_NAMES, difference,
                                           sizeof(difference)) != 0) {
    finding = ADC_BACK_OTHER_TYPES;
    return -1;
  }
  if (arrow_logical_compare_schema_aspects(file, schema,
                                           ARROW_LOGICAL_NAMES | ARROW_LOGICAL_DICTIONARY_ORDERED, difference,
                                           sizeof(difference)) != 0) {
    finding = ADC_BACK_OTHER_DATA;
    return -1;
  }
  return 0;
}

/* At most this many batches of a result's stream are read. */
#define MOST_BATCHES 4096

/* The fixture, or NULL with why in `difference`. */
static struct arrow_json_file* read_fixture(const char* json_path, struct arrow_json_file* file) {
  char error[512];
  if (arrow_json_read_file(json_path, file, error, sizeof(error)) == 0) return file;
  snprintf(difference, sizeof(difference), "the fixture could not be read: %s", error);
  return NULL;
}

static const char* differs(int result) {
  return result == 0 ? NULL : difference;
}

/* Where the result keeps the fixture's types, the invariants of the
 * columnar format are checked on each of its batches first
 * (arrow_structure.h), as the reference consumer checks what it imports:
 * a library that lets an invalid batch through and hands it back
 * unchanged is seen so (the consumer.structure.* rules).  0, or -1 with
 * the first breach in `difference`. */
static int check_structure(const struct arrow_json_file* file, const struct ArrowSchema* schema,
                           const struct ArrowArray* const* arrays, int n) {
  char unused[64];
  if (arrow_json_compare_schema_aspects(file, schema, ARROW_JSON_SCHEMA_TYPES, unused, sizeof(unused)) != 0)
    return 0;
  for (int i = 0; i < n; i++) {
    struct arrow_structure_findings findings;
    if (arrow_structure_check_batch(file, arrays[i], &findings) > 0 &&
        arrow_structure_refusal(&findings, ARROW_STRUCTURE_FAMILY_COUNT, difference, sizeof(difference))) {
      return -1;
    }
  }
  return 0;
}

const char* adc_values_back_schema_differs(const char* json_path, struct ArrowSchema* schema) {
  finding = ADC_BACK_NOT_COMPARED;
  struct arrow_json_file file;
  int result = -1;
  if (read_fixture(json_path, &file) != NULL) {
    result = compare_schema(&file, schema);
    arrow_json_file_free(&file);
  }
  schema->release(schema);
  return differs(result);
}

/* Every batch of `stream` to its end, into `arrays` (their count, or -1
 * with why in `difference`). */
static int read_batches(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* arrays) {
  for (int n = 0; n < MOST_BATCHES; n++) {
    int code = stream->get_next(stream, &arrays[n]);
    if (code != 0) {
      finding = ADC_BACK_LIBRARY_FAILED;
      const char* error = stream->get_last_error(stream);
      snprintf(difference, sizeof(difference), "get_next of the result's stream returned %d: %s", code,
               error != NULL ? error : "(no message)");
      return -(n + 1);
    }
    if (arrays[n].array.release == NULL) return n;
    if (arrays[n].device_type != ARROW_DEVICE_CPU) {
      finding = ADC_BACK_OTHER_DATA;
      snprintf(difference, sizeof(difference), "the result's batch %d is on device type %d, not the CPU", n,
               (int)arrays[n].device_type);
      return -(n + 2);
    }
  }
  snprintf(difference, sizeof(difference), "the result's stream gave more than %d batches", MOST_BATCHES);
  return -(MOST_BATCHES + 1);
}

const char* adc_values_back_stream_differs(const char* json_path, int num_batch,
                                           struct ArrowDeviceArrayStream* stream) {
  finding = ADC_BACK_NOT_COMPARED;
  struct ArrowDeviceArray* arrays = calloc(MOST_BATCHES + 1, sizeof(*arrays));
  const struct ArrowArray** views = calloc(MOST_BATCHES + 1, sizeof(*views));
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof(schema));
  struct arrow_json_file file;
  bool have_file = false;
  int result = -1;
  int n = 0;
  if (arrays == NULL || views == NULL) {
    snprintf(difference, sizeof(difference), "out of memory");
  } else if (stream->get_schema(stream, &schema) != 0) {
    finding = ADC_BACK_LIBRARY_FAILED;
    const char* error = stream->get_last_error(stream);
    snprintf(difference, sizeof(difference), "get_schema of the result's stream failed: %s",
             error != NULL ? error : "(no message)");
  } else if ((have_file = read_fixture(json_path, &file) != NULL)) {
    n = read_batches(stream, arrays);
    if (n >= 0) {
      for (int i = 0; i < n; i++) views[i] = &arrays[i].array;
      result = compare_schema(&file, &schema);
      if (result == 0) {
        /* The names and types are the fixture's: the batches' structure,
         * by the library's schema, then the data. */
        finding = ADC_BACK_INVALID;
        result = check_structure(&file, &schema, views, n);
      }
      if (result == 0)
        result = arrow_logical_check_batches(&schema, views, n, difference, sizeof(difference));
      if (result == 0) {
        finding = ADC_BACK_OTHER_DATA;
        result = arrow_logical_compare_batches(&file, num_batch, &schema, views, n, difference,
                                               sizeof(difference));
      }
    } else {
      n = -n - 1; /* the batches taken before the failure */
    }
  }
  for (int i = 0; i < n; i++) {
    if (arrays[i].array.release != NULL) arrays[i].array.release(&arrays[i].array);
  }
  if (have_file) arrow_json_file_free(&file);
  if (schema.release != NULL) schema.release(&schema);
  stream->release(stream);
  free(arrays);
  free(views);
  return differs(result);
}
