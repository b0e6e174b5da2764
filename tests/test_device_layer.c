/* The device layer: the CPU device's operations, and comparisons of data on
 * a device the harness cannot read in place.  The "sealed" device below
 * keeps its memory inaccessible except inside its own copy operations, so a
 * comparison that read device memory directly would fault: what passes here
 * went through copy_to_host. */
#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "adc/simulated_device.h"
#include "consumer_feed/consumer_feed.h"
#ifdef ADC_HAVE_OPENCL_DEVICE
#include "device/opencl_context.h"
#endif
#include "rule_api/fixture_compare.h"
#include "rule_api/guard.h"
#include "rule_api/needs.h"
#include "rule_api/rule.h"
#include "support/clock.h"
#include "support/pages.h"
#include "test_support.h"

#define FIXTURE(name) ADC_SOURCE_DIR "/fixtures/data/" name ".json"

static const struct adc_device* cpu(void) {
  return live_device("cpu");
}

static size_t bytes_copied_to_host;

/* Whole pages, so that they can be sealed. */
static void* sealed_allocate(const struct adc_device* device, size_t size, bool protectable,
                             struct adc_error* error) {
  (void)protectable;
  return adc_device_find("cpu")->ops->allocate(device, size, true, error);
}

static void sealed_free(const struct adc_device* device, void* memory, size_t size, bool protectable) {
  (void)protectable;
  adc_device_find("cpu")->ops->free(device, memory, size, true);
}

static int sealed_copy_from_host(const struct adc_device* device, void* destination, const void* host,
                                 size_t size, struct adc_error* error) {
  (void)device;
  (void)error;
  memcpy(destination, host, size);
  struct adc_page_span span = adc_pages_covering(destination, size);
  mprotect(span.start, span.size, PROT_NONE);
  return 0;
}

static int sealed_copy_to_host(const struct adc_device* device, void* host, const void* source, size_t size,
                               struct adc_error* error) {
  (void)device;
  (void)error;
  struct adc_page_span span = adc_pages_covering(source, size);
  mprotect(span.start, span.size, PROT_READ);
  memcpy(host, source, size);
  mprotect(span.start, span.size, PROT_NONE);
  bytes_copied_to_host += size;
  return 0;
}

static int failing_copy_to_host(const struct adc_device* device, void* host, const void* source, size_t size,
                                struct adc_error* error) {
  (void)device;
  (void)host;
  (void)source;
  (void)size;
  return adc_fail(error, "the link to the device is down");
}

/* The CPU's memory, read only through copies (its kind is not host
 * readable), which seal it between them. */
static const struct adc_device_kind sealed_kind = {"sealed", ARROW_DEVICE_CPU, false, NULL, false};
static struct adc_device_ops sealed_ops; /* the CPU's, but for the copies and memory */
static struct adc_device_driver sealed_driver;

static struct adc_device sealed_device(void) {
  const struct adc_device_driver* cpu_driver = adc_device_find("cpu");
  sealed_ops = *cpu_driver->ops;
  sealed_ops.allocate = sealed_allocate;
  sealed_ops.free = sealed_free;
  sealed_ops.copy_from_host = sealed_copy_from_host;
  sealed_ops.copy_to_host = sealed_copy_to_host;
  sealed_ops.protect_read_only = NULL;
  sealed_driver = *cpu_driver;
  sealed_driver.name = "sealed";
  sealed_driver.kind = &sealed_kind;
  sealed_driver.ops = &sealed_ops;
  struct adc_device_target target = adc_device_target_of(&sealed_driver);
  struct adc_device device;
  struct adc_error error;
  ck_assert_int_eq(adc_device_open(&target, &device, &error), 0);
  return device;
}

static struct arrow_json_file load(const char* path) {
  struct arrow_json_file file;
  char error[512];
  ck_assert_msg(arrow_json_read_file(path, &file, error, sizeof(error)) == 0, "%s", error);
  return file;
}

static struct adc_case_context context(const struct adc_device* device, const struct arrow_json_file* file) {
  static const struct adc_rule rule = {.id = "test.rule", .severity = ADC_MUST};
  struct adc_case_context ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.rule = &rule;
  ctx.device = device;
  ctx.fixture = file;
  return ctx;
}

static struct ArrowDeviceArray feed_export(struct adc_feed* feed, const struct arrow_json_file* file,
                                           int64_t batch, const struct adc_feed_layout* layout) {
  struct ArrowDeviceArray array;
  struct adc_error error;
  ck_assert_msg(adc_feed_export_batch(feed, file, batch, layout, &array, &error) == 0, "%s", error.message);
  return array;
}

START_TEST(cpu_memory_round_trips_and_can_be_made_read_only) {
  const struct adc_device* device = cpu();
  struct adc_error error;
  ck_assert(adc_device_has_operations(device->driver));
  char text[] = "device memory";
  char back[sizeof(text)];
  char* memory = adc_device_allocate(device, sizeof(text), true, &error);
  ck_assert_ptr_nonnull(memory);
  ck_assert_int_eq(adc_device_copy_from_host(device, memory, text, sizeof(text), &error), 0);
  ck_assert_int_eq(adc_device_copy_to_host(device, back, memory, sizeof(text), &error), 0);
  ck_assert_str_eq(back, text);
  ck_assert_int_eq(adc_device_protect_read_only(device, memory, sizeof(text), &error), 0);
  ck_assert_int_eq(memory[0], 'd'); /* still readable */
  adc_device_free(device, memory, sizeof(text), true);
}
END_TEST

#define ATTRIBUTED_EXIT 7

/* Ends the test process with ATTRIBUTED_EXIT when the guard attributes the
 * fault with the expected verdict. */
static void expect_attributed(enum adc_status status, const char* message) {
  if (status == ADC_WARNING && strncmp(message, "written", 7) == 0) _exit(ATTRIBUTED_EXIT);
}

/* A write to read-only CPU memory faults, and the guard (as a case's child
 * installs it) turns the fault into the region's verdict. */
START_TEST(cpu_read_only_memory_faults_on_write) {
  const struct adc_device* device = cpu();
  struct adc_error error;
  volatile char* memory = adc_device_allocate(device, 16, true, &error);
  ck_assert_int_eq(adc_device_protect_read_only(device, (void*)memory, 16, &error), 0);
  adc_guard_install(expect_attributed);
  adc_guard_add((const void*)memory, 16, ADC_WARNING, "written");
  memory[3] = 'x';
  ck_abort_msg("the write to read-only memory did not fault");
}
END_TEST

START_TEST(cpu_has_no_event_to_wait_on) {
  const struct adc_device* device = cpu();
  struct adc_error error;
  int event = 0;
  ck_assert_int_eq(adc_device_wait_event(device, NULL, &error), 0);
  ck_assert_int_eq(adc_device_wait_event(device, &event, &error), -1);
  ck_assert_ptr_nonnull(strstr(error.message, "no event type"));
}
END_TEST

/* Every driver is whole, and serves a kind of the shared table under the
 * kind's name (or, for a variant of a kind, the kind's name and a suffix:
 * cpu_device_arrays); every kind is served. */
START_TEST(every_device_has_its_operations) {
  for (size_t i = 0; i < adc_device_count(); i++) {
    const struct adc_device_driver* driver = adc_device_at(i);
    ck_assert_msg(adc_device_has_operations(driver), "%s lacks operations", driver->name);
    ck_assert_msg(driver->kind->event_type == NULL || adc_device_can_check_events(driver),
                  "%s cannot check its events", driver->name);
    ck_assert_msg(driver->queue == NULL || adc_device_has_queue(driver), "%s has half a queue", driver->name);
    size_t kind_name = strlen(driver->kind->name);
    ck_assert_msg(strncmp(driver->name, driver->kind->name, kind_name) == 0 &&
                      (driver->name[kind_name] == '\0' || driver->name[kind_name] == '_'),
                  "%s serves the kind %s", driver->name, driver->kind->name);
    ck_assert_ptr_eq(adc_device_kind_of_type(driver->kind->arrow_type), driver->kind);
  }
  for (size_t k = 0; k < adc_device_kind_count(); k++) {
    const struct adc_device_driver* driver = adc_device_find(adc_device_kind_at(k)->name);
    ck_assert_msg(driver != NULL && driver->kind == adc_device_kind_at(k), "no driver serves the kind %s",
                  adc_device_kind_at(k)->name);
  }
  ck_assert_ptr_null(adc_device_find("abacus"));
  ck_assert_str_eq(
      adc_device_names(),
      "cpu, cpu_device_arrays, simulated, cuda, cuda_host, cuda_managed, rocm, rocm_host, opencl");
}
END_TEST

static const struct adc_device* simulated(void) {
  const struct adc_device* device = live_device("simulated");
  ck_assert(adc_device_has_operations(device->driver) && adc_device_has_queue(device->driver));
  return device;
}

START_TEST(simulated_event_check_rejects_what_is_not_a_live_event) {
  const struct adc_device* device = simulated();
  struct adc_error error;
  static const unsigned char zeroes[sizeof(struct adc_simulated_event)];
  ck_assert_int_eq(adc_device_check_event(device, (void*)zeroes, &error), -1);
  ck_assert_ptr_nonnull(strstr(error.message, "not a live struct adc_simulated_event"));
  /* Unreadable memory is reported, not faulted on. */
  void* unmapped = mmap(NULL, adc_page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_int_eq(adc_device_check_event(device, unmapped, &error), -1);
  ck_assert_ptr_nonnull(strstr(error.message, "not readable"));
  ck_assert_int_eq(adc_device_wait_event(device, unmapped, &error), -1);
  munmap(unmapped, adc_page_size());
  struct adc_simulated_event event;
  ck_assert_int_eq(adc_simulated_event_init(&event), 0);
  ck_assert_int_eq(adc_device_check_event(device, &event, &error), 0);
  adc_simulated_event_destroy(&event);
  ck_assert_int_eq(adc_device_check_event(device, &event, &error), -1);
}
END_TEST

/* The queue writes behind its hold, which opens when a synchronisation on
 * the event recorded behind it begins, never on its own: the bytes stay
 * unwritten however long nobody synchronises, and the event completes only
 * after they are written. */
START_TEST(simulated_queue_writes_when_a_consumer_synchronises) {
  const struct adc_device* device = simulated();
  struct adc_error error;
  struct adc_device_queue* queue = device->driver->queue->create(device, &error);
  ck_assert_ptr_nonnull(queue);
  int32_t value = 0;
  const int32_t written = 42;
  ck_assert_int_eq(device->driver->queue->hold(queue, 10.0, &error), 0);
  ck_assert_int_eq(device->driver->queue->copy_from_host(queue, &value, &written, sizeof(written), &error),
                   0);
  void* event = device->driver->queue->record_event(queue, &error);
  ck_assert_ptr_nonnull(event);
  ck_assert_int_eq(adc_device_check_event(device, event, &error), 0); /* checking is no synchronisation */
  adc_sleep_seconds(0.05);
  ck_assert_int_eq(__atomic_load_n(&value, __ATOMIC_SEQ_CST), 0);
  ck_assert(!adc_simulated_event_query(event)); /* begins a synchronisation; nothing written yet */
  ck_assert_int_eq(adc_device_wait_event(device, event, &error), 0);
  ck_assert_int_eq(value, 42);
  device->driver->queue->finish(queue);
  device->driver->queue->free(queue);
}
END_TEST

/* A wait on a later event opens the earlier holds too (a consumer may
 * synchronise out of order), and finishing the queue opens every hold. */
START_TEST(simulated_queue_holds_open_for_later_events_and_finish) {
  const struct adc_device* device = simulated();
  struct adc_error error;
  struct adc_device_queue* queue = device->driver->queue->create(device, &error);
  ck_assert_ptr_nonnull(queue);
  int32_t values[3] = {0, 0, 0};
  const int32_t written[3] = {1, 2, 3};
  void* events[3];
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(device->driver->queue->hold(queue, 10.0, &error), 0);
    ck_assert_int_eq(
        device->driver->queue->copy_from_host(queue, &values[i], &written[i], sizeof(int32_t), &error), 0);
    events[i] = device->driver->queue->record_event(queue, &error);
    ck_assert_ptr_nonnull(events[i]);
  }
  ck_assert_int_eq(adc_device_wait_event(device, events[1], &error), 0);
  ck_assert_int_eq(values[0], 1);
  ck_assert_int_eq(values[1], 2);
  adc_sleep_seconds(0.02);
  ck_assert_int_eq(__atomic_load_n(&values[2], __ATOMIC_SEQ_CST), 0); /* its hold is still closed */
  device->driver->queue->finish(queue);
  ck_assert_int_eq(values[2], 3);
  device->driver->queue->free(queue);
}
END_TEST

static const char* const fixture_paths[] = {FIXTURE("int32_nulls"),    FIXTURE("int32_empty"),
                                            FIXTURE("int32_all_null"), FIXTURE("nested_struct"),
                                            FIXTURE("dictionary"),     FIXTURE("multi_batch")};
#define N_FIXTURES ((int)(sizeof(fixture_paths) / sizeof(fixture_paths[0])))

/* A batch, each column and each dictionary on the sealed device equal the
 * fixture, read only through copy_to_host; an altered batch differs, in the
 * words the in-place comparison uses. */
START_TEST(comparisons_read_a_sealed_device_through_its_copies) {
  struct adc_device device = sealed_device();
  struct arrow_json_file file = load(fixture_paths[_i]);
  struct adc_case_context ctx = context(&device, &file);
  struct adc_feed* feed = adc_feed_new(&device);
  char difference[512];
  for (int b = 0; b < file.n_batches; b++) {
    struct adc_feed_layout layouts[] = {{0}, {.offset_padding = 2}, {.unknown_null_count = true}};
    for (size_t l = 0; l < 3; l++) {
      struct ArrowDeviceArray array = feed_export(feed, &file, b, &layouts[l]);
      bytes_copied_to_host = 0;
      ck_assert_msg(adc_compare_batch(&ctx, b, &array.array, difference, sizeof(difference)) == 0,
                    "batch %d: %s", b, difference);
      if (file.batches[b].length > 0) ck_assert_uint_gt(bytes_copied_to_host, 0);
      for (int64_t c = 0; c < file.n_fields; c++) {
        ck_assert_msg(
            adc_compare_column(&ctx, b, c, array.array.children[c], difference, sizeof(difference)) == 0,
            "batch %d column %ld: %s", b, (long)c, difference);
        if (file.fields[c].is_dictionary) {
          ck_assert_int_eq(adc_compare_dictionary(&ctx, c, array.array.children[c]->dictionary, difference,
                                                  sizeof(difference)),
                           0);
        }
      }
      array.array.release(&array.array);
    }
    struct adc_feed_layout altered = {.alter_one_value = true};
    struct ArrowDeviceArray array = feed_export(feed, &file, b, &altered);
    struct adc_case_context on_cpu = context(cpu(), &file);
    struct adc_feed* cpu_feed = adc_feed_new(cpu());
    struct ArrowDeviceArray same_on_cpu = feed_export(cpu_feed, &file, b, &altered);
    char expected[512];
    int differs_on_cpu = adc_compare_batch(&on_cpu, b, &same_on_cpu.array, expected, sizeof(expected));
    int differs = adc_compare_batch(&ctx, b, &array.array, difference, sizeof(difference));
    ck_assert_int_eq(differs != 0, differs_on_cpu != 0);
    if (differs) ck_assert_str_eq(difference, expected);
    same_on_cpu.array.release(&same_on_cpu.array);
    adc_feed_free(cpu_feed);
    array.array.release(&array.array);
  }
  ck_assert(!ctx.has_verdict);
  adc_feed_free(feed);
  arrow_json_file_free(&file);
}
END_TEST

START_TEST(data_that_cannot_be_copied_is_unresolved) {
  struct adc_device device = sealed_device();
  struct arrow_json_file file = load(FIXTURE("int32_nulls"));
  struct adc_feed* feed = adc_feed_new(&device);
  struct ArrowDeviceArray array = feed_export(feed, &file, 0, NULL);
  sealed_ops.copy_to_host = failing_copy_to_host;
  struct adc_case_context ctx = context(&device, &file);
  char difference[512];
  ck_assert_int_ne(adc_compare_batch(&ctx, 0, &array.array, difference, sizeof(difference)), 0);
  ck_assert(ctx.has_verdict);
  ck_assert_int_eq(ctx.status, ADC_UNRESOLVED);
  ck_assert_ptr_nonnull(strstr(ctx.message, "the link to the device is down"));
  array.array.release(&array.array);
  adc_feed_free(feed);
  arrow_json_file_free(&file);
}
END_TEST

START_TEST(feed_places_read_only_buffers_only_where_the_device_can) {
  struct adc_device device = sealed_device(); /* no protect_read_only */
  struct arrow_json_file file = load(FIXTURE("int32_nulls"));
  struct adc_feed* feed = adc_feed_new(&device);
  struct adc_feed_layout read_only = {.read_only_buffers = true};
  struct ArrowDeviceArray array;
  struct adc_error error;
  ck_assert_int_eq(adc_feed_export_batch(feed, &file, 0, &read_only, &array, &error), -1);
  ck_assert_ptr_nonnull(strstr(error.message, "cannot make memory read-only"));
  adc_feed_free(feed);
  arrow_json_file_free(&file);
}
END_TEST

/* A rule that write-protects buffers needs a device that can: on one that
 * cannot (every GPU), its cases are not_supported, and the tests that
 * expect that ask the same question. */
START_TEST(rules_needing_read_only_memory_need_a_device_that_has_it) {
  struct adc_device device = sealed_device();
  const struct adc_rule* rule = adc_rule_find("consumer.buffers.not_written");
  ck_assert_ptr_nonnull(rule);
  char why[256];
  ck_assert(!adc_device_meets_needs(rule, device.driver, why, sizeof(why)));
  ck_assert_str_eq(why, "the harness cannot make memory on sealed read-only");
  ck_assert(adc_device_meets_needs(rule, cpu()->driver, why, sizeof(why)));
  ck_assert(
      adc_device_meets_needs(adc_rule_find("array.release.sets_null"), device.driver, why, sizeof(why)));
}
END_TEST

/* A GPU device's event check reads sync_event and the handle in it only
 * where they are readable: a wild pointer, or an event exported by value
 * (its first word no address), fails with a message before the runtime is
 * asked anything, so it needs no GPU. */
START_TEST(gpu_event_check_rejects_unreadable_slots_and_handles) {
  /* Not opened (there may be no GPU): these checks reach no runtime state. */
  const struct adc_device cuda = {adc_device_find("cuda"), 0, NULL};
  ck_assert_ptr_nonnull(cuda.driver);
  const struct adc_device* device = &cuda;
  struct adc_error error;
  ck_assert_int_eq(adc_device_check_event(device, (void*)16, &error), -1);
  ck_assert_ptr_nonnull(strstr(error.message, "is not readable memory holding a cudaEvent_t"));
  void* by_value = (void*)24; /* what a slot holding no event address holds */
  ck_assert_int_eq(adc_device_check_event(device, &by_value, &error), -1);
  ck_assert_ptr_nonnull(strstr(error.message, "not the handle of an event"));
  void* null_handle = NULL;
  ck_assert_int_eq(adc_device_check_event(device, &null_handle, &error), -1);
}
END_TEST

/* Whether the first `size` bytes of `buffer` on the device all hold the
 * consumer feed's not-yet-written fill. */
static bool not_yet_written(const struct adc_device* device, const void* buffer, size_t size) {
  unsigned char host[64];
  struct adc_error error;
  ck_assert_uint_le(size, sizeof(host));
  ck_assert_int_eq(adc_device_copy_to_host(device, host, buffer, size, &error), 0);
  for (size_t i = 0; i < size; i++) {
    if (host[i] != ADC_FEED_NOT_YET_WRITTEN) return false;
  }
  return true;
}

/* A stream of the consumer feed with late writes: each batch has an event
 * of its own, and only a synchronisation on it (or a later one) writes the
 * batch.  A consumer that fetches every batch ahead is held by none of
 * them, the release of one batch writes no other, and a batch read without
 * waiting holds the fill. */
START_TEST(feed_stream_writes_each_batch_behind_its_own_event) {
  const struct adc_device* device = simulated();
  struct arrow_json_file file = load(FIXTURE("multi_batch"));
  ck_assert_int_eq(file.n_batches, 3);
  struct adc_case_context ctx = context(device, &file);
  struct adc_feed* feed = adc_feed_new(device);
  const struct adc_feed_stream_options options = {
      .fail_at_batch = -1, .altered_batch = -1, .late_write_seconds = 10.0};
  struct ArrowDeviceArrayStream stream;
  struct adc_error error;
  ck_assert_int_eq(adc_feed_export_stream(feed, &file, &options, &stream, &error), 0);
  struct ArrowDeviceArray batches[3];
  for (int b = 0; b < 3; b++) {
    ck_assert_int_eq(stream.get_next(&stream, &batches[b]), 0);
    ck_assert_ptr_nonnull(batches[b].sync_event);
    ck_assert(b == 0 || batches[b].sync_event != batches[b - 1].sync_event);
  }
  /* Batch 2's first column: 4 int32 values, none written yet. */
  const void* values = batches[2].array.children[0]->buffers[1];
  ck_assert(not_yet_written(device, values, 4 * sizeof(int32_t)));
  batches[0].array.release(&batches[0].array); /* writes batch 0 only */
  adc_sleep_seconds(0.02);
  ck_assert(not_yet_written(device, values, 4 * sizeof(int32_t)));
  /* A wait far shorter than the 10 s a timed hold would take. */
  const double start = adc_now_seconds();
  ck_assert_int_eq(adc_device_wait_event(device, batches[2].sync_event, &error), 0);
  ck_assert_double_lt(adc_now_seconds() - start, 5.0);
  char difference[512];
  ck_assert_msg(adc_compare_batch(&ctx, 2, &batches[2].array, difference, sizeof(difference)) == 0, "%s",
                difference);
  ck_assert_int_eq(adc_device_wait_event(device, batches[1].sync_event, &error), 0);
  for (int b = 1; b < 3; b++) batches[b].array.release(&batches[b].array);
  stream.release(&stream);
  adc_feed_free(feed);
  arrow_json_file_free(&file);
}
END_TEST

/* ---- opencl: PoCL where it is installed, the runtime's reason elsewhere -- */

/* The opencl device of this process, or NULL where it does not open: then
 * the reason must name the runtime's call or the loader, never be empty. */
static const struct adc_device* opencl_or_reason(void) {
  const struct adc_device_driver* driver = adc_device_find("opencl");
  ck_assert_ptr_nonnull(driver);
  struct adc_error error;
  if (device_opens(driver, &error) != 0) {
    ck_assert_msg(strstr(error.message, "clGet") != NULL || strstr(error.message, "OpenCL") != NULL,
                  "opencl unavailable for no named reason: %s", error.message);
    return NULL;
  }
  return live_device("opencl");
}

/* Fine-grained SVM: what the harness allocates round-trips through its
 * copies, and a queued copy behind a hold has not landed until the hold's
 * time has passed (checked without sleeping: read at once), and has once
 * the event behind it completed. */
START_TEST(opencl_copies_and_queue_order) {
  const struct adc_device* device = opencl_or_reason();
  if (device == NULL) return;
  struct adc_error error;
  int32_t* memory = adc_device_allocate(device, sizeof(int32_t) * 4, false, &error);
  ck_assert_msg(memory != NULL, "%s", error.message);
  const int32_t values[4] = {1, 2, 3, 4};
  int32_t back[4] = {0, 0, 0, 0};
  ck_assert_int_eq(adc_device_copy_from_host(device, memory, values, sizeof(values), &error), 0);
  ck_assert_int_eq(adc_device_copy_to_host(device, back, memory, sizeof(back), &error), 0);
  ck_assert_int_eq(memcmp(back, values, sizeof(values)), 0);

  struct adc_device_queue* queue = device->driver->queue->create(device, &error);
  ck_assert_msg(queue != NULL, "%s", error.message);
  const int32_t later[4] = {9, 9, 9, 9};
  ck_assert_int_eq(device->driver->queue->hold(queue, 0.3, &error), 0);
  ck_assert_int_eq(device->driver->queue->copy_from_host(queue, memory, later, sizeof(later), &error), 0);
  void* event = device->driver->queue->record_event(queue, &error);
  ck_assert_msg(event != NULL, "%s", error.message);
  ck_assert_int_eq(adc_device_check_event(device, event, &error), 0);
  ck_assert_int_eq(__atomic_load_n(&memory[0], __ATOMIC_SEQ_CST), 1); /* held */
  ck_assert_int_eq(adc_device_wait_event(device, event, &error), 0);
  ck_assert_int_eq(memory[3], 9);
  device->driver->queue->free(queue);
  adc_device_free(device, memory, sizeof(int32_t) * 4, false);
}
END_TEST

/* A sync_event is a cl_event*: a NULL slot, an unreadable one, memory that
 * is no runtime object, an event passed by value and a cl_mem are refused
 * with a reason; only the cl_mem reaches the runtime (clGetEventInfo). */
START_TEST(opencl_event_check_rejects_what_is_not_a_live_event) {
  const struct adc_device* device = opencl_or_reason();
  if (device == NULL) return;
  struct adc_error error;
  ck_assert_int_eq(adc_device_check_event(device, NULL, &error), -1);
  void* unmapped = mmap(NULL, adc_page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_int_eq(adc_device_check_event(device, unmapped, &error), -1);
  ck_assert_ptr_nonnull(strstr(error.message, "cannot be read"));
  munmap(unmapped, adc_page_size());
  static void* junk[4] = {junk, junk, junk, junk}; /* readable, and no ICD object */
  ck_assert_int_eq(adc_device_check_event(device, junk, &error), -1);
  ck_assert_ptr_nonnull(strstr(error.message, "not an object of the OpenCL runtime"));

  struct adc_device_queue* queue = device->driver->queue->create(device, &error);
  ck_assert_msg(queue != NULL, "%s", error.message);
  void* event = device->driver->queue->record_event(queue, &error);
  ck_assert_ptr_nonnull(event);
  ck_assert_int_eq(adc_device_check_event(device, event, &error), 0);
  void* by_value = *(void**)event; /* the cl_event itself, not a pointer to it */
  ck_assert_int_eq(adc_device_check_event(device, by_value, &error), -1);
#ifdef ADC_HAVE_OPENCL_DEVICE
  /* A cl_mem, which PoCL answers clGetEventInfo for as well: its command
   * type is no command's. */
  const struct adc_opencl_context* opened = device->state;
  cl_int code = CL_SUCCESS;
  cl_mem buffer = opened->api->create_buffer(opened->context, CL_MEM_READ_WRITE, 64, NULL, &code);
  ck_assert_int_eq(code, CL_SUCCESS);
  ck_assert_int_eq(adc_device_check_event(device, &buffer, &error), -1);
  ck_assert_msg(strstr(error.message, "is not an event") != NULL, "%s", error.message);
  opened->api->release_mem(buffer);
#endif
  /* A released event is not asked about: what PoCL leaves in its memory
   * varies (the check refused it in one run and accepted it in the next),
   * and under ThreadSanitizer PoCL aborts on locking its destroyed mutex. */
  device->driver->queue->free(queue);
}
END_TEST

/* Runs the reference pair on opencl over the hand-written fixtures: every
 * case must end not_supported, its message holding one of `reasons`. */
static void expect_every_opencl_case_not_supported(const char* const* reasons, size_t n_reasons) {
  const char* args[] = {"--producer", "reference",  "--consumer",          "reference", "--device",
                        "opencl",     "--fixtures", HAND_WRITTEN_FIXTURES, NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  int cases = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    const char* message = cJSON_GetObjectItem(item, "message")->valuestring;
    ck_assert_msg(strcmp(status, "not_supported") == 0, "%s", status);
    bool named = false;
    for (size_t r = 0; r < n_reasons && !named; r++) named = strstr(message, reasons[r]) != NULL;
    ck_assert_msg(named, "%s", message);
    cases++;
  }
  ck_assert_int_gt(cases, 0);
  cJSON_Delete(report);
}

/* Without an OpenCL platform (the ICD loader finds no vendor) every opencl
 * case ends not_supported with the runtime's own code, at no cost of a
 * process per case (the device is probed once). */
START_TEST(opencl_without_a_platform_is_not_supported_with_the_reason) {
  setenv("OCL_ICD_VENDORS", "/nonexistent", 1);
  /* CL_PLATFORM_NOT_FOUND_KHR, or dlopen's words where no loader is installed */
  static const char* const reasons[] = {"CL_PLATFORM_NOT_FOUND_KHR (-1001)", "OpenCL runtime not found",
                                        "built without OpenCL"};
  expect_every_opencl_case_not_supported(reasons, sizeof(reasons) / sizeof(reasons[0]));
}
END_TEST

/* Whether PoCL is the one OpenCL platform installed (its ICD file alone in
 * the system's vendors folder). */
static bool pocl_is_the_only_platform(void) {
  DIR* vendors = opendir("/etc/OpenCL/vendors");
  if (vendors == NULL) return false;
  int icd_files = 0;
  bool pocl = false;
  struct dirent* entry;
  while ((entry = readdir(vendors)) != NULL) {
    size_t length = strlen(entry->d_name);
    if (length < 5 || strcmp(entry->d_name + length - 4, ".icd") != 0) continue;
    icd_files++;
    pocl = pocl || strcmp(entry->d_name, "pocl.icd") == 0;
  }
  closedir(vendors);
  return pocl && icd_files == 1;
}

/* A platform with no device (PoCL with its devices turned off): every
 * opencl case ends not_supported naming clGetDeviceIDs's code. */
START_TEST(opencl_without_a_device_is_not_supported_with_the_reason) {
#ifndef ADC_HAVE_OPENCL_DEVICE
  return; /* a harness built without OpenCL reaches no platform at all */
#endif
  if (!pocl_is_the_only_platform()) return; /* POCL_DEVICES speaks to PoCL alone */
  setenv("POCL_DEVICES", "none", 1);
  static const char* const reasons[] = {"clGetDeviceIDs: CL_DEVICE_NOT_FOUND (-1)"};
  expect_every_opencl_case_not_supported(reasons, 1);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("device_layer");
  TCase* operations = tcase_create("operations");
  tcase_add_test(operations, cpu_memory_round_trips_and_can_be_made_read_only);
  tcase_add_exit_test(operations, cpu_read_only_memory_faults_on_write, ATTRIBUTED_EXIT);
  tcase_add_test(operations, cpu_has_no_event_to_wait_on);
  tcase_add_test(operations, every_device_has_its_operations);
  tcase_add_test(operations, simulated_event_check_rejects_what_is_not_a_live_event);
  tcase_add_test(operations, simulated_queue_writes_when_a_consumer_synchronises);
  tcase_add_test(operations, simulated_queue_holds_open_for_later_events_and_finish);
  suite_add_tcase(suite, operations);
  TCase* comparisons = tcase_create("comparisons");
  tcase_add_loop_test(comparisons, comparisons_read_a_sealed_device_through_its_copies, 0, N_FIXTURES);
  tcase_add_test(comparisons, data_that_cannot_be_copied_is_unresolved);
  tcase_add_test(comparisons, feed_places_read_only_buffers_only_where_the_device_can);
  tcase_add_test(comparisons, rules_needing_read_only_memory_need_a_device_that_has_it);
  tcase_add_test(operations, gpu_event_check_rejects_unreadable_slots_and_handles);
  tcase_add_test(comparisons, feed_stream_writes_each_batch_behind_its_own_event);
  tcase_add_test(operations, opencl_copies_and_queue_order);
  tcase_add_test(operations, opencl_event_check_rejects_what_is_not_a_live_event);
  tcase_add_test(operations, opencl_without_a_platform_is_not_supported_with_the_reason);
  tcase_add_test(operations, opencl_without_a_device_is_not_supported_with_the_reason);
  suite_add_tcase(suite, comparisons);
  return run_suite(suite);
}
