/* tiny_frame's self-test: C structures made by hand, handed to the
 * library's entry points, and what it exports back checked value by value.
 *
 * The hand-made producer below counts the calls of every release callback
 * it hands out; each test checks that each ran exactly once (spec:
 * "Release callback semantics -- for consumers"), whether the adoption
 * succeeded or not.  The arrays are sliced (offsets on a child, on a
 * struct, on bits not at a byte boundary), so a library that ignores an
 * offset exports the wrong values.  Exports are read after
 * tiny_frame_RoundTrip_Free, so one that still points into the freed
 * table reads freed memory (valgrind, or the asan preset, reports it), and
 * tiny_frame_BytesAllocated must be back to 0 after each test. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/simulated_device.h"
#include "tiny_frame.h"

static int failures;

#define CHECK(condition) check((condition), #condition, __func__, __LINE__)

static int check(int ok, const char* what, const char* test, int line) {
  if (!ok) {
    fprintf(stderr, "FAIL %s (line %d): %s\n", test, line, what);
    failures++;
  }
  return ok;
}

static int contains(const char* text, const char* part) {
  return text != NULL && strstr(text, part) != NULL;
}

static int bit(const void* bits, int64_t i) {
  return (((const uint8_t*)bits)[i >> 3] >> (i & 7)) & 1;
}

/* ---- a hand-made producer --------------------------------------------- */

/* One counter per structure handed out; its release callback adds one. */
#define MAX_MADE 512
static int release_counts[MAX_MADE];
static int n_made;

static int* new_counter(void) {
  if (n_made == MAX_MADE) {
    fprintf(stderr, "too many structures\n");
    exit(2);
  }
  return &release_counts[n_made++];
}

/* Every counter from `first` on ran exactly once. */
static void check_released_once(int first, const char* test) {
  for (int i = first; i < n_made; i++) {
    if (release_counts[i] != 1) {
      fprintf(stderr, "FAIL %s: structure %d was released %d times\n", test, i - first, release_counts[i]);
      failures++;
    }
  }
}

/* A release callback as a producer writes it: the children first, then
 * the structure's own, marked released (the buffers are the test's). */
static void release_made_array(struct ArrowArray* array) {
  for (int64_t i = 0; i < array->n_children; i++) {
    if (array->children[i]->release != NULL) array->children[i]->release(array->children[i]);
    free(array->children[i]);
  }
  free(array->children);
  ++*(int*)array->private_data;
  array->release = NULL;
}

static void release_made_schema(struct ArrowSchema* schema) {
  for (int64_t i = 0; i < schema->n_children; i++) {
    if (schema->children[i]->release != NULL) schema->children[i]->release(schema->children[i]);
    free(schema->children[i]);
  }
  free(schema->children);
  ++*(int*)schema->private_data;
  schema->release = NULL;
}

/* `n_children` children, as structures on the heap the parent frees. */
static struct ArrowArray** heap_arrays(int64_t n_children, const struct ArrowArray* children) {
  struct ArrowArray** pointers = calloc((size_t)n_children, sizeof(*pointers));
  for (int64_t i = 0; i < n_children; i++) {
    pointers[i] = malloc(sizeof(**pointers));
    *pointers[i] = children[i];
  }
  return pointers;
}

static struct ArrowArray make_array(int64_t length, int64_t null_count, int64_t offset, int64_t n_buffers,
                                    const void** buffers, int64_t n_children,
                                    const struct ArrowArray* children) {
  struct ArrowArray array = {length,
                             null_count,
                             offset,
                             n_buffers,
                             n_children,
                             buffers,
                             n_children > 0 ? heap_arrays(n_children, children) : NULL,
                             NULL,
                             release_made_array,
                             new_counter()};
  return array;
}

static struct ArrowSchema make_schema(const char* format, const char* name, const char* metadata,
                                      int64_t n_children, const struct ArrowSchema* children) {
  struct ArrowSchema schema = {format,       name, metadata, ARROW_FLAG_NULLABLE,
                               n_children,   NULL, NULL,     release_made_schema,
                               new_counter()};
  if (n_children > 0) {
    schema.children = calloc((size_t)n_children, sizeof(*schema.children));
    for (int64_t i = 0; i < n_children; i++) {
      schema.children[i] = malloc(sizeof(**schema.children));
      *schema.children[i] = children[i];
    }
  }
  return schema;
}

/* ---- the id and name table -------------------------------------------- */

/* id: physical rows 99, 7, (null), 42; the arrays take it at offset 1. */
static const uint8_t id_validity[] = {0x0B};
static const int32_t id_values[] = {99, 7, -1, 42};
static const void* id_buffers[] = {id_validity, id_values};
/* name: "tiny", (null), "frame", at offset 0. */
static const uint8_t name_validity[] = {0x05};
static const int32_t name_offsets[] = {0, 4, 4, 9};
static const char name_bytes[] = "tinyframe";
static const void* name_buffers[] = {name_validity, name_offsets, name_bytes};
static const void* struct_buffers[] = {NULL};

/* One pair, "origin": "selftest", in Arrow's metadata encoding. */
static const char table_metadata[] = "\x01\x00\x00\x00\x06\x00\x00\x00origin\x08\x00\x00\x00selftest";
#define TABLE_METADATA_SIZE (sizeof(table_metadata) - 1)

static struct ArrowSchema make_table_schema(void) {
  struct ArrowSchema columns[2] = {make_schema("i", "id", NULL, 0, NULL),
                                   make_schema("u", "name", NULL, 0, NULL)};
  return make_schema("+s", "", table_metadata, 2, columns);
}

/* The table's batch at `offset` (rows offset to 2 of the three). */
static struct ArrowArray make_table_batch(int64_t offset, const void** ids, const void** names) {
  struct ArrowArray columns[2] = {make_array(3, 1, 1, 2, ids, 0, NULL),
                                  make_array(3, 1, 0, 3, names, 0, NULL)};
  return make_array(3 - offset, 0, offset, 1, struct_buffers, 2, columns);
}

struct row {
  int id_valid;
  int32_t id;
  const char* name; /* NULL: null */
};

static const struct row all_rows[] = {{1, 7, "tiny"}, {0, 0, NULL}, {1, 42, "frame"}};

/* An exported batch of the table holds `rows`, laid out as the C Data
 * Interface says, with offset 0. */
static void check_table_batch(const struct ArrowArray* batch, const struct row* rows, int64_t n_rows) {
  if (!CHECK(batch->release != NULL) || !CHECK(batch->length == n_rows) || !CHECK(batch->offset == 0) ||
      !CHECK(batch->n_buffers == 1) || !CHECK(batch->null_count == 0) || !CHECK(batch->n_children == 2)) {
    return;
  }
  const struct ArrowArray* id = batch->children[0];
  const struct ArrowArray* name = batch->children[1];
  if (!CHECK(id->n_buffers == 2) || !CHECK(name->n_buffers == 3) || !CHECK(id->offset == 0) ||
      !CHECK(name->offset == 0) || !CHECK(id->length == n_rows) || !CHECK(name->length == n_rows) ||
      !CHECK(id->n_children == 0) || !CHECK(name->n_children == 0) || !CHECK(id->release != NULL)) {
    return;
  }
  int64_t id_nulls = 0;
  int64_t name_nulls = 0;
  const int32_t* offsets = name->buffers[1];
  const char* bytes = name->buffers[2];
  for (int64_t i = 0; i < n_rows; i++) {
    int id_valid = id->buffers[0] == NULL || bit(id->buffers[0], i);
    int name_valid = name->buffers[0] == NULL || bit(name->buffers[0], i);
    id_nulls += !id_valid;
    name_nulls += !name_valid;
    CHECK(id_valid == rows[i].id_valid);
    if (id_valid && rows[i].id_valid) CHECK(((const int32_t*)id->buffers[1])[i] == rows[i].id);
    CHECK(name_valid == (rows[i].name != NULL));
    if (name_valid && rows[i].name != NULL) {
      CHECK(offsets[i + 1] - offsets[i] == (int32_t)strlen(rows[i].name));
      CHECK(memcmp(bytes + offsets[i], rows[i].name, strlen(rows[i].name)) == 0);
    }
  }
  CHECK(offsets[0] == 0);
  CHECK(id->null_count == -1 || id->null_count == id_nulls);
  CHECK(name->null_count == -1 || name->null_count == name_nulls);
}

static void check_table_schema(const struct ArrowSchema* schema) {
  if (!CHECK(schema->release != NULL) || !CHECK(strcmp(schema->format, "+s") == 0) ||
      !CHECK(schema->n_children == 2) || !CHECK(schema->dictionary == NULL)) {
    return;
  }
  CHECK(schema->metadata != NULL && memcmp(schema->metadata, table_metadata, TABLE_METADATA_SIZE) == 0);
  CHECK(strcmp(schema->children[0]->format, "i") == 0 && strcmp(schema->children[0]->name, "id") == 0);
  CHECK(strcmp(schema->children[1]->format, "u") == 0 && strcmp(schema->children[1]->name, "name") == 0);
  CHECK(schema->children[0]->flags == ARROW_FLAG_NULLABLE && schema->children[0]->metadata == NULL);
}

/* ---- the tests ---------------------------------------------------------- */

/* A CPU batch whose id column has offset 1: adopted, exported every way a
 * held batch allows, and the exports read after Free. */
static void test_child_offset(void) {
  int first = n_made;
  struct ArrowSchema schema = make_table_schema();
  struct ArrowArray batch = make_table_batch(0, id_buffers, name_buffers);
  void* held = NULL;
  const char* error = tiny_frame_RoundTrip_AdoptBatch(&schema, &batch, &held);
  if (!CHECK(error == NULL)) {
    fprintf(stderr, "  %s\n", error);
    return;
  }
  CHECK(schema.release == NULL && batch.release == NULL); /* adopted: moved or released */
  check_released_once(first, __func__); /* tiny_frame copied, then released, what it adopted */

  struct ArrowArray out;
  struct ArrowDeviceArray device_out;
  struct ArrowSchema schema_out;
  struct ArrowDeviceArrayStream stream_out;
  CHECK(tiny_frame_RoundTrip_ExportBatch(held, &out) == NULL);
  CHECK(tiny_frame_RoundTrip_ExportDeviceBatch(held, &device_out) == NULL);
  CHECK(tiny_frame_RoundTrip_ExportSchema(held, &schema_out) == NULL);
  CHECK(contains(tiny_frame_RoundTrip_ExportDeviceStream(held, &stream_out), "not a stream"));
  tiny_frame_RoundTrip_Free(held);
  CHECK(tiny_frame_BytesAllocated() > 0); /* the exports hold their buffers */

  check_table_batch(&out, all_rows, 3);
  check_table_batch(&device_out.array, all_rows, 3);
  CHECK(device_out.device_type == ARROW_DEVICE_CPU && device_out.device_id == -1);
  CHECK(device_out.sync_event == NULL);
  CHECK(device_out.reserved[0] == 0 && device_out.reserved[1] == 0 && device_out.reserved[2] == 0);
  check_table_schema(&schema_out);

  /* A consumer may move a child out and release it on its own. */
  struct ArrowArray moved_child = *out.children[1];
  out.children[1]->release = NULL;
  out.release(&out);
  CHECK(out.release == NULL);
  CHECK(moved_child.release != NULL);
  moved_child.release(&moved_child);
  CHECK(moved_child.release == NULL);
  device_out.array.release(&device_out.array);
  CHECK(device_out.array.release == NULL);
  schema_out.release(&schema_out);
  CHECK(schema_out.release == NULL);
}

/* A device batch on the CPU whose struct has offset 1: the offset applies
 * to the children as well, on top of their own. */
static void test_struct_offset(void) {
  int first = n_made;
  struct ArrowSchema schema = make_table_schema();
  struct ArrowDeviceArray batch;
  memset(&batch, 0, sizeof(batch));
  batch.array = make_table_batch(1, id_buffers, name_buffers);
  batch.device_type = ARROW_DEVICE_CPU;
  batch.device_id = -1;
  void* held = NULL;
  const char* error = tiny_frame_RoundTrip_AdoptDeviceBatch(&schema, &batch, &held);
  if (!CHECK(error == NULL)) {
    fprintf(stderr, "  %s\n", error);
    return;
  }
  check_released_once(first, __func__);
  struct ArrowDeviceArray out;
  CHECK(tiny_frame_RoundTrip_ExportDeviceBatch(held, &out) == NULL);
  tiny_frame_RoundTrip_Free(held);
  check_table_batch(&out.array, all_rows + 1, 2);
  out.array.release(&out.array);
}

/* Bits that do not start at a byte boundary, and a struct in a struct,
 * offsets at each level. */
static void test_bits_and_nesting(void) {
  int first = n_made;
  static const uint8_t flag_bits[] = {0xB4, 0x03}; /* bits 3 to 7: 0, 1, 1, 0, 1 */
  static const void* flag_buffers[] = {NULL, flag_bits};
  static const uint8_t inner_validity[] = {0xFB}; /* bit 2 null */
  static const void* inner_buffers[] = {inner_validity};
  static const int64_t x_values[] = {10, 11, 12, 13, 14, 15, 16};
  static const void* x_buffers[] = {NULL, x_values};
  struct ArrowSchema x_field = make_schema("l", "x", NULL, 0, NULL);
  struct ArrowSchema fields[2] = {make_schema("b", "flag", NULL, 0, NULL),
                                  make_schema("+s", "inner", NULL, 1, &x_field)};
  struct ArrowSchema schema = make_schema("+s", "", NULL, 2, fields);
  struct ArrowArray x = make_array(7, 0, 0, 2, x_buffers, 0, NULL);
  struct ArrowArray columns[2] = {make_array(5, 0, 3, 2, flag_buffers, 0, NULL),
                                  make_array(6, 1, 1, 1, inner_buffers, 1, &x)};
  struct ArrowArray batch = make_array(5, 0, 0, 1, struct_buffers, 2, columns);
  void* held = NULL;
  const char* error = tiny_frame_RoundTrip_AdoptBatch(&schema, &batch, &held);
  if (!CHECK(error == NULL)) {
    fprintf(stderr, "  %s\n", error);
    return;
  }
  check_released_once(first, __func__);
  struct ArrowArray out;
  CHECK(tiny_frame_RoundTrip_ExportBatch(held, &out) == NULL);
  tiny_frame_RoundTrip_Free(held);
  if (CHECK(out.n_children == 2) && CHECK(out.children[0]->n_buffers == 2) &&
      CHECK(out.children[1]->n_buffers == 1) && CHECK(out.children[1]->n_children == 1)) {
    static const int flags[] = {0, 1, 1, 0, 1};
    const struct ArrowArray* inner = out.children[1];
    const struct ArrowArray* x_out = inner->children[0];
    for (int64_t i = 0; i < 5; i++) {
      CHECK(bit(out.children[0]->buffers[1], i) == flags[i]);
      CHECK((inner->buffers[0] == NULL || bit(inner->buffers[0], i)) == (i != 1));
      CHECK(((const int64_t*)x_out->buffers[1])[i] == 11 + i);
    }
    CHECK(out.children[0]->null_count == 0 && inner->null_count == 1 && x_out->length == 5);
  }
  out.release(&out);
}

/* The simulated device: the producer writes its buffers only once the
 * consumer begins to synchronise, as a GPU's stream would still be
 * writing them, so a library that reads before it waits reads zeros. */
struct late_writer {
  struct adc_simulated_event* event;
  uint8_t* validity;
  int32_t* values;
  int stop; /* under the event's mutex */
};

static void* write_when_synchronised(void* argument) {
  struct late_writer* writer = argument;
  struct adc_simulated_event* event = writer->event;
  pthread_mutex_lock(&event->mutex);
  while (event->sync_calls == 0 && !writer->stop) pthread_cond_wait(&event->changed, &event->mutex);
  int write = !writer->stop;
  pthread_mutex_unlock(&event->mutex);
  if (write) {
    memcpy(writer->validity, id_validity, sizeof(id_validity));
    memcpy(writer->values, id_values, sizeof(id_values));
  }
  adc_simulated_event_signal(event);
  return NULL;
}

static void test_simulated_event(void) {
  int first = n_made;
  struct adc_simulated_event event;
  uint8_t validity[1] = {0};
  int32_t values[4] = {0};
  const void* late_ids[] = {validity, values};
  if (adc_simulated_event_init(&event) != 0) {
    CHECK(!"the simulated event could be made");
    return;
  }
  struct late_writer writer = {&event, validity, values, 0};
  pthread_t thread;
  pthread_create(&thread, NULL, write_when_synchronised, &writer);

  struct ArrowSchema schema = make_table_schema();
  struct ArrowDeviceArray batch;
  memset(&batch, 0, sizeof(batch));
  batch.array = make_table_batch(0, late_ids, name_buffers);
  batch.device_type = ADC_SIMULATED_DEVICE_TYPE;
  batch.device_id = 1;
  batch.sync_event = &event;
  void* held = NULL;
  const char* error = tiny_frame_RoundTrip_AdoptDeviceBatch(&schema, &batch, &held);

  pthread_mutex_lock(&event.mutex);
  CHECK(event.sync_calls > 0); /* it synchronised */
  writer.stop = 1;
  pthread_cond_broadcast(&event.changed);
  pthread_mutex_unlock(&event.mutex);
  pthread_join(thread, NULL);
  if (CHECK(error == NULL)) {
    check_released_once(first, __func__);
    struct ArrowDeviceArray out;
    CHECK(tiny_frame_RoundTrip_ExportDeviceBatch(held, &out) == NULL);
    CHECK(contains(tiny_frame_RoundTrip_ExportBatch(held, &out.array), "not the CPU"));
    tiny_frame_RoundTrip_Free(held);
    CHECK(out.device_type == ADC_SIMULATED_DEVICE_TYPE && out.device_id == 1);
    CHECK(out.sync_event == NULL); /* tiny_frame's data are ready */
    check_table_batch(&out.array, all_rows, 3);
    out.array.release(&out.array);
  } else {
    fprintf(stderr, "  %s\n", error);
  }
  adc_simulated_event_destroy(&event);
}

/* A type tiny_frame lacks: refused by name, and still released. */
static void test_unsupported(void) {
  int first = n_made;
  static const int32_t days[] = {1, 2};
  static const void* day_buffers[] = {NULL, days};
  struct ArrowSchema field = make_schema("tdD", "day", NULL, 0, NULL);
  struct ArrowSchema schema = make_schema("+s", "", NULL, 1, &field);
  struct ArrowArray column = make_array(2, 0, 0, 2, day_buffers, 0, NULL);
  struct ArrowArray batch = make_array(2, 0, 0, 1, struct_buffers, 1, &column);
  void* held = &held;
  const char* error = tiny_frame_RoundTrip_AdoptBatch(&schema, &batch, &held);
  CHECK(contains(error, "tiny_frame does not support format 'tdD'"));
  CHECK(held == NULL);
  check_released_once(first, __func__);

  /* A device tiny_frame does not run on. */
  first = n_made;
  struct ArrowSchema table_schema = make_table_schema();
  struct ArrowDeviceArray on_gpu;
  memset(&on_gpu, 0, sizeof(on_gpu));
  on_gpu.array = make_table_batch(0, id_buffers, name_buffers);
  on_gpu.device_type = ARROW_DEVICE_CUDA;
  on_gpu.device_id = 0;
  CHECK(contains(tiny_frame_RoundTrip_AdoptDeviceBatch(&table_schema, &on_gpu, &held), "device type 2"));
  check_released_once(first, __func__);
}

/* A held schema exports its schema, and nothing else. */
static void test_schema_alone(void) {
  int first = n_made;
  struct ArrowSchema schema = make_table_schema();
  void* held = NULL;
  if (!CHECK(tiny_frame_RoundTrip_AdoptSchema(&schema, &held) == NULL)) return;
  check_released_once(first, __func__);
  struct ArrowSchema out;
  struct ArrowArray batch;
  struct ArrowDeviceArray device_batch;
  CHECK(contains(tiny_frame_RoundTrip_ExportBatch(held, &batch), "a schema alone"));
  CHECK(contains(tiny_frame_RoundTrip_ExportDeviceBatch(held, &device_batch), "a schema alone"));
  CHECK(tiny_frame_RoundTrip_ExportSchema(held, &out) == NULL);
  tiny_frame_RoundTrip_Free(held);
  check_table_schema(&out);
  out.release(&out);
}

/* ---- streams ------------------------------------------------------------ */

/* A stream of two batches of the table, failing at batch `fail_at` (-1:
 * never). */
struct made_stream {
  int next;
  int fail_at;
  int* released;
};

static int stream_get_schema(struct ArrowDeviceArrayStream* stream, struct ArrowSchema* out) {
  (void)stream;
  *out = make_table_schema();
  return 0;
}

static int stream_get_next(struct ArrowDeviceArrayStream* stream, struct ArrowDeviceArray* out) {
  struct made_stream* made = stream->private_data;
  if (made->next == made->fail_at) return EIO;
  memset(out, 0, sizeof(*out));
  if (made->next < 2) {
    out->array = make_table_batch(made->next, id_buffers, name_buffers);
    out->device_type = ARROW_DEVICE_CPU;
    out->device_id = -1;
  }
  made->next++;
  return 0;
}

static const char* stream_get_last_error(struct ArrowDeviceArrayStream* stream) {
  (void)stream;
  return "the disk is on fire";
}

static void stream_release(struct ArrowDeviceArrayStream* stream) {
  struct made_stream* made = stream->private_data;
  ++*made->released;
  free(made);
  stream->release = NULL;
}

static struct ArrowDeviceArrayStream make_stream(int fail_at) {
  struct made_stream* made = malloc(sizeof(*made));
  made->next = 0;
  made->fail_at = fail_at;
  made->released = new_counter();
  struct ArrowDeviceArrayStream stream = {ARROW_DEVICE_CPU,      stream_get_schema, stream_get_next,
                                          stream_get_last_error, stream_release,    made};
  return stream;
}

static void test_stream(void) {
  int first = n_made;
  struct ArrowDeviceArrayStream stream = make_stream(-1);
  void* held = NULL;
  const char* error = tiny_frame_RoundTrip_AdoptDeviceStream(&stream, &held);
  if (!CHECK(error == NULL)) {
    fprintf(stderr, "  %s\n", error);
    return;
  }
  CHECK(stream.release == NULL);
  check_released_once(first, __func__);
  struct ArrowDeviceArrayStream out;
  struct ArrowDeviceArray batch;
  CHECK(contains(tiny_frame_RoundTrip_ExportDeviceBatch(held, &batch), "a stream"));
  CHECK(tiny_frame_RoundTrip_ExportDeviceStream(held, &out) == NULL);
  tiny_frame_RoundTrip_Free(held);

  CHECK(out.device_type == ARROW_DEVICE_CPU);
  struct ArrowSchema schema;
  if (CHECK(out.get_schema(&out, &schema) == 0)) {
    check_table_schema(&schema);
    schema.release(&schema);
  }
  for (int i = 0; i < 4; i++) {
    memset(&batch, 0xFF, sizeof(batch));
    if (!CHECK(out.get_next(&out, &batch) == 0)) break;
    if (i < 2) {
      check_table_batch(&batch.array, all_rows + i, 3 - i);
      CHECK(batch.device_type == ARROW_DEVICE_CPU && batch.sync_event == NULL);
      if (batch.array.release != NULL) batch.array.release(&batch.array);
    } else {
      CHECK(batch.array.release == NULL); /* the end, on every call after it */
    }
  }
  out.release(&out);
  CHECK(out.release == NULL);
}

static void test_failing_stream(void) {
  int first = n_made;
  struct ArrowDeviceArrayStream stream = make_stream(1);
  void* held = &held;
  const char* error = tiny_frame_RoundTrip_AdoptDeviceStream(&stream, &held);
  CHECK(contains(error, "the disk is on fire"));
  CHECK(held == NULL);
  check_released_once(first, __func__);
}

/* Runs `test`, then checks tiny_frame holds no memory any more: every
 * table is freed and every export released. */
static void run(void (*test)(void), const char* name) {
  test();
  int64_t bytes = tiny_frame_BytesAllocated();
  if (bytes != 0) {
    fprintf(stderr, "FAIL %s: tiny_frame still holds %lld bytes\n", name, (long long)bytes);
    failures++;
  }
}

#define RUN(test) run(test, #test)

int main(void) {
  RUN(test_child_offset);
  RUN(test_struct_offset);
  RUN(test_bits_and_nesting);
  RUN(test_simulated_event);
  RUN(test_unsupported);
  RUN(test_schema_alone);
  RUN(test_stream);
  RUN(test_failing_stream);
  if (failures > 0) {
    fprintf(stderr, "tiny_frame_selftest: %d checks failed\n", failures);
    return 1;
  }
  printf("tiny_frame_selftest: every check passed (%d structures made, each released once)\n", n_made);
  return 0;
}
