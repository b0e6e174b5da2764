/* The device layer: the CPU device's operations, and comparisons of data on
 * a device the harness cannot read in place.  The "sealed" device below
 * keeps its memory inaccessible except inside its own copy operations, so a
 * comparison that read device memory directly would fault: what passes here
 * went through copy_to_host. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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
#include "runner/crash_handler.h"
#include "support/clock.h"
#include "support/pages.h"
#include "test_groups.h"
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
  struct adc_page_span span = adc_pages_covering(destination, size);
  mprotect(span.start, span.size, PROT_READ | PROT_WRITE); /* sealed by an earlier copy */
  memcpy(destination, host, size);
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

/* A write to read-only CPU memory faults, and the guard (asked first by the
 * handler a case's child installs) turns the fault into the region's verdict. */
START_TEST(cpu_read_only_memory_faults_on_write) {
  const struct adc_device* device = cpu();
  struct adc_error error;
  volatile char* memory = adc_device_allocate(device, 16, true, &error);
  ck_assert_int_eq(adc_device_protect_read_only(device, (void*)memory, 16, &error), 0);
  adc_crash_handler_install(-1, expect_attributed);
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
          ck_assert_int_eq(adc_compare_dictionary(&ctx, b, c, array.array.children[c]->dictionary, difference,
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
 * cannot, its cases are not_supported, and the tests that expect that ask
 * the same question.  consumer.buffers.not_written needs it no more: it
 * watches the buffers through the device's copies there. */
START_TEST(rules_needing_read_only_memory_need_a_device_that_has_it) {
  struct adc_device device = sealed_device();
  static const struct adc_rule rule = {.id = "test.read_only", .needs_read_only_memory = true};
  char why[256];
  ck_assert(!adc_device_meets_needs(&rule, device.driver, why, sizeof(why)));
  ck_assert_str_eq(why, "the harness cannot make memory on sealed read-only");
  ck_assert(adc_device_meets_needs(&rule, cpu()->driver, why, sizeof(why)));
  const struct adc_rule* not_written = adc_rule_find("consumer.buffers.not_written");
  ck_assert_ptr_nonnull(not_written);
  ck_assert(adc_device_meets_needs(not_written, device.driver, why, sizeof(why)));
}
END_TEST

/* The simulated device declines read-only memory where the environment
 * asks (ADC_SIMULATED_NO_READ_ONLY), so that the self-test can take a
 * GPU's way on it. */
START_TEST(simulated_device_declines_read_only_memory_when_asked) {
  const struct adc_device_driver* simulated = adc_device_find("simulated");
  ck_assert(adc_device_can_protect(simulated));
  setenv("ADC_SIMULATED_NO_READ_ONLY", "1", 1);
  ck_assert(!adc_device_can_protect(simulated));
  unsetenv("ADC_SIMULATED_NO_READ_ONLY");
  ck_assert(adc_device_can_protect(simulated));
}
END_TEST

/* Watched buffers (consumer.buffers.not_written where memory cannot be
 * made read-only) outlive the release of their batch, and a byte changed
 * through the device's copies is found afterwards, with its place; a
 * byte written back unchanged is not. */
START_TEST(feed_finds_bytes_written_into_watched_buffers) {
  struct adc_device device = sealed_device();
  struct arrow_json_file file = load(FIXTURE("int32_nulls"));
  struct adc_feed* feed = adc_feed_new(&device);
  const struct adc_feed_layout watched = {.watch_buffers = true};
  struct ArrowDeviceArray array = feed_export(feed, &file, 0, &watched);
  const struct ArrowArray* column = array.array.children[0];
  ck_assert_ptr_nonnull(column->buffers[1]);
  unsigned char byte;
  struct adc_error error;
  struct adc_feed_written first = {0};
  ck_assert_int_eq(adc_device_copy_to_host(&device, &byte, (const char*)column->buffers[1] + 2, 1, &error),
                   0);
  ck_assert_int_eq(adc_device_copy_from_host(&device, (char*)column->buffers[1] + 2, &byte, 1, &error), 0);
  ck_assert_int_eq(adc_feed_written_buffers(feed, &first, &error), 0);
  byte ^= 0x01;
  ck_assert_int_eq(adc_device_copy_from_host(&device, (char*)column->buffers[1] + 2, &byte, 1, &error), 0);
  array.array.release(&array.array);
  ck_assert_int_eq(adc_feed_written_buffers(feed, &first, &error), 1);
  ck_assert_uint_eq(first.first_byte, 2);
  ck_assert_uint_eq(first.buffer, 1); /* the column's validity, then its values */
  ck_assert_uint_eq(first.n_buffers, 2);
  adc_feed_free(feed);
  arrow_json_file_free(&file);
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

/* ---- opencl ---------------------------------------------------------
 *
 * Each opencl group (main) runs where its precondition holds and is "not
 * run" elsewhere, whatever platforms the ICD loader finds: a platform
 * whose device has no fine-grained SVM (NVIDIA's) is a supported
 * configuration, in which the opencl device does not open, naming the
 * missing capability.  The groups that need a set of platforms of their
 * own point OCL_ICD_VENDORS at a folder of .icd files made for them, and
 * check in a child process that the loader then finds exactly those
 * platforms (a loader that reads other places too, OCL_ICD_FILENAMES for
 * one, would find more): they are not run where it does not. */

/* The folder of .icd files a group points OCL_ICD_VENDORS at, in /tmp,
 * one per process and group. */
static char vendors[96];

static void remove_vendors(void) {
  DIR* folder = opendir(vendors);
  struct dirent* entry;
  while (folder != NULL && (entry = readdir(folder)) != NULL) {
    if (entry->d_name[0] == '.') continue;
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", vendors, entry->d_name);
    unlink(path);
  }
  if (folder != NULL) closedir(folder);
  rmdir(vendors);
}

/* Makes `vendors` hold one .icd file per (file name, library) pair of
 * `icds` (NULL-terminated) and points OCL_ICD_VENDORS at it; OpenCL
 * variables that add vendors are unset.  A test's folder is removed at its
 * exit, a precondition's once it has asked (unmet_then_clean). */
static bool use_vendors(const char* group, const char* const* icds) {
  snprintf(vendors, sizeof(vendors), "/tmp/adc_vendors_%ld_%s", (long)getpid(), group);
  if (mkdir(vendors, 0700) != 0) return false;
  atexit(remove_vendors);
  for (size_t i = 0; icds[i] != NULL; i += 2) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", vendors, icds[i]);
    FILE* icd = fopen(path, "w");
    if (icd == NULL) return false;
    fprintf(icd, "%s\n", icds[i + 1]);
    fclose(icd);
  }
  setenv("OCL_ICD_VENDORS", vendors, 1);
  unsetenv("OCL_ICD_FILENAMES");
  unsetenv("OPENCL_LAYERS");
  return true;
}

/* A precondition's answer, once its folder is removed: the loader read
 * it when it started. */
static const char* unmet_then_clean(const char* unmet) {
  remove_vendors();
  return unmet;
}

#ifdef ADC_HAVE_OPENCL_DEVICE
/* The library of the system's PoCL ICD (its .icd file's line) into
 * `library`: read where the loader reads its vendors when nothing points
 * it elsewhere (OPENCL_VENDOR_PATH, else /etc/OpenCL/vendors). */
static bool pocl_library(char* library, size_t size) {
  const char* path = getenv("OPENCL_VENDOR_PATH");
  if (path == NULL || path[0] == '\0') path = "/etc/OpenCL/vendors";
  DIR* folder = opendir(path);
  struct dirent* entry;
  bool found = false;
  while (!found && folder != NULL && (entry = readdir(folder)) != NULL) {
    if (strstr(entry->d_name, "pocl") == NULL) continue;
    char file[512];
    snprintf(file, sizeof(file), "%s/%s", path, entry->d_name);
    FILE* icd = fopen(file, "r");
    if (icd == NULL) continue;
    char line[400] = "";
    found = fscanf(icd, "%399s", line) == 1;
    fclose(icd);
    if (found) snprintf(library, size, "%s", line);
  }
  if (folder != NULL) closedir(folder);
  return found;
}

/* The names of the platforms the ICD loader finds in this process, joined
 * by "; ", into `names`; their count (0 where the loader finds none or is
 * missing). */
static int platform_names(char* names, size_t size) {
  names[0] = '\0';
  struct adc_error error;
  const struct adc_opencl_api* api = adc_opencl_api(&error);
  cl_uint count = 0;
  if (api == NULL || api->get_platform_ids(0, NULL, &count) != CL_SUCCESS || count == 0) return 0;
  cl_platform_id platforms[16];
  if (count > 16) count = 16;
  if (api->get_platform_ids(count, platforms, NULL) != CL_SUCCESS) return 0;
  for (cl_uint p = 0; p < count; p++) {
    char name[128] = "";
    api->get_platform_info(platforms[p], CL_PLATFORM_NAME, sizeof(name), name, NULL);
    size_t used = strlen(names);
    snprintf(names + used, size - used, "%s%s", p ? "; " : "", name);
  }
  return (int)count;
}

/* Where the loader, pointed at the group's folder, finds other platforms
 * than `expected` (names joined by "; ", "" for none): why the group
 * cannot run. */
static const char* unless_platforms(const char* expected, char* why, size_t size) {
  char found[1024];
  platform_names(found, sizeof(found));
  if (strcmp(found, expected) == 0) return NULL;
  snprintf(why, size,
           "with OCL_ICD_VENDORS naming a folder that holds %s, the ICD loader finds the platform(s) "
           "'%s' (it reads vendors from elsewhere too)",
           expected[0] != '\0' ? expected : "no vendor", found);
  return why;
}
#endif

#ifndef ADC_HAVE_OPENCL_DEVICE
/* Why a group that needs the OpenCL device cannot run in this build. */
static const char* built_without_opencl(char* why, size_t size) {
  snprintf(why, size,
           "the harness is built without the OpenCL device: its cases name the build, not a device");
  return why;
}
#endif

/* ---- the opencl device, wherever it opens (PoCL in the test command) -- */

static void add_opencl_device(TCase* tcase, int unused);

START_TEST(opencl_copies_and_queue_order) {
  const struct adc_device* device = live_device("opencl");
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
  const struct adc_device* device = live_device("opencl");
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

static void add_opencl_device(TCase* tcase, int unused) {
  (void)unused;
  tcase_add_test(tcase, opencl_copies_and_queue_order);
  tcase_add_test(tcase, opencl_event_check_rejects_what_is_not_a_live_event);
}

/* ---- without a platform: an empty vendors folder ------------------------ */

static const char* const no_vendor[] = {NULL};

/* Without an OpenCL platform every opencl case ends not_supported with the
 * runtime's own code, at no cost of a process per case (the device is
 * probed once). */
START_TEST(opencl_without_a_platform_is_not_supported_with_the_reason) {
  ck_assert(use_vendors("none", no_vendor));
  /* CL_PLATFORM_NOT_FOUND_KHR, or dlopen's words where no loader is installed */
  static const char* const reasons[] = {"CL_PLATFORM_NOT_FOUND_KHR (-1001)", "OpenCL runtime not found",
                                        "built without OpenCL"};
  expect_every_opencl_case_not_supported(reasons, sizeof(reasons) / sizeof(reasons[0]));
}
END_TEST

static const char* without_a_platform_unmet(int unused, char* why, size_t size) {
  (void)unused;
  if (!use_vendors("none", no_vendor)) return "no folder for OCL_ICD_VENDORS could be made";
#ifdef ADC_HAVE_OPENCL_DEVICE
  return unmet_then_clean(unless_platforms("", why, size));
#else
  (void)why;
  (void)size;
  return unmet_then_clean(NULL); /* a harness built without OpenCL reaches no platform at all */
#endif
}

/* ---- without a device: PoCL alone, its devices turned off -------------- */

#ifdef ADC_HAVE_OPENCL_DEVICE
/* OCL_ICD_VENDORS at a folder holding the system's PoCL alone, with
 * POCL_DEVICES=none. */
static bool use_pocl_without_devices(void) {
  char library[400];
  if (!pocl_library(library, sizeof(library))) return false;
  const char* const icds[] = {"pocl.icd", library, NULL};
  setenv("POCL_DEVICES", "none", 1);
  return use_vendors("pocl", icds);
}
#endif

/* A platform with no device: every opencl case ends not_supported naming
 * clGetDeviceIDs's code. */
START_TEST(opencl_without_a_device_is_not_supported_with_the_reason) {
#ifdef ADC_HAVE_OPENCL_DEVICE
  ck_assert(use_pocl_without_devices());
  static const char* const reasons[] = {"clGetDeviceIDs: CL_DEVICE_NOT_FOUND (-1)"};
  expect_every_opencl_case_not_supported(reasons, 1);
#endif
}
END_TEST

static const char* without_a_device_unmet(int unused, char* why, size_t size) {
  (void)unused;
#ifdef ADC_HAVE_OPENCL_DEVICE
  if (!use_pocl_without_devices())
    return unmet_then_clean("no PoCL here (no pocl .icd file where the ICD loader reads its vendors)");
  return unmet_then_clean(unless_platforms("Portable Computing Language", why, size));
#else
  return built_without_opencl(why, size);
#endif
}

/* ---- beside another vendor: a GPU without fine-grained SVM ------------- */

#ifdef ADC_HAVE_OPENCL_DEVICE
/* OCL_ICD_VENDORS at a folder holding the test vendor
 * (tests/opencl_vendor_without_svm.c), and the system's PoCL where it is
 * installed.  The loader (ocl-icd) sorts platforms with GPUs first, so
 * the test vendor's GPU is device 0, as NVIDIA's is beside PoCL. */
static bool use_another_vendor(bool* with_pocl) {
  char library[400];
  *with_pocl = pocl_library(library, sizeof(library));
  const char* const icds[] = {"adc_test.icd", ADC_TEST_OPENCL_VENDOR, *with_pocl ? "pocl.icd" : NULL, library,
                              NULL};
  return use_vendors("other", icds);
}
#endif

/* Device 0 has no fine-grained buffer SVM: every opencl case ends
 * not_supported naming the capability, whether PoCL is there too or not. */
START_TEST(opencl_without_fine_grained_svm_is_not_supported_naming_it) {
#ifdef ADC_HAVE_OPENCL_DEVICE
  bool with_pocl;
  ck_assert(use_another_vendor(&with_pocl));
  static const char* const reasons[] = {"no fine-grained buffer SVM (CL_DEVICE_SVM_FINE_GRAIN_BUFFER)"};
  expect_every_opencl_case_not_supported(reasons, 1);
#endif
}
END_TEST

static const char* beside_another_vendor_unmet(int unused, char* why, size_t size) {
  (void)unused;
#ifdef ADC_HAVE_OPENCL_DEVICE
  bool with_pocl;
  if (!use_another_vendor(&with_pocl)) return unmet_then_clean("no folder for OCL_ICD_VENDORS could be made");
  return unmet_then_clean(
      unless_platforms(with_pocl ? "ADC test vendor without fine-grained SVM; Portable Computing Language"
                                 : "ADC test vendor without fine-grained SVM",
                       why, size));
#else
  return built_without_opencl(why, size);
#endif
}

static void add_operations(TCase* tcase, int unused) {
  (void)unused;
  tcase_add_test(tcase, cpu_memory_round_trips_and_can_be_made_read_only);
  tcase_add_exit_test(tcase, cpu_read_only_memory_faults_on_write, ATTRIBUTED_EXIT);
  tcase_add_test(tcase, cpu_has_no_event_to_wait_on);
  tcase_add_test(tcase, every_device_has_its_operations);
  tcase_add_test(tcase, simulated_event_check_rejects_what_is_not_a_live_event);
  tcase_add_test(tcase, simulated_queue_writes_when_a_consumer_synchronises);
  tcase_add_test(tcase, simulated_queue_holds_open_for_later_events_and_finish);
  tcase_add_test(tcase, gpu_event_check_rejects_unreadable_slots_and_handles);
}

static void add_comparisons(TCase* tcase, int unused) {
  (void)unused;
  tcase_add_loop_test(tcase, comparisons_read_a_sealed_device_through_its_copies, 0, N_FIXTURES);
  tcase_add_test(tcase, data_that_cannot_be_copied_is_unresolved);
  tcase_add_test(tcase, feed_places_read_only_buffers_only_where_the_device_can);
  tcase_add_test(tcase, rules_needing_read_only_memory_need_a_device_that_has_it);
  tcase_add_test(tcase, simulated_device_declines_read_only_memory_when_asked);
  tcase_add_test(tcase, feed_finds_bytes_written_into_watched_buffers);
  tcase_add_test(tcase, feed_stream_writes_each_batch_behind_its_own_event);
}

/* Groups (tests/test_groups.h); arguments select them, none: every one.
 * The opencl groups each start adc-conform on every hand-written fixture,
 * and a platform's start may take seconds (NVIDIA's): 60 s each. */
int main(int argc, char** argv) {
  int opencl = -1;
  for (size_t d = 0; d < adc_device_count(); d++) {
    if (strcmp(adc_device_at(d)->name, "opencl") == 0) opencl = (int)d;
  }
  const struct test_group groups[] = {
      {.name = "operations", .add = add_operations},
      {.name = "comparisons", .add = add_comparisons},
      {.name = "opencl_device",
       .unmet = device_unmet,
       .add = add_opencl_device,
       .arg = opencl,
       .timeout_seconds = 60},
      {.name = "opencl_without_a_platform",
       .unmet = without_a_platform_unmet,
       .timeout_seconds = 60,
       .test = opencl_without_a_platform_is_not_supported_with_the_reason},
      {.name = "opencl_without_a_device",
       .unmet = without_a_device_unmet,
       .timeout_seconds = 60,
       .test = opencl_without_a_device_is_not_supported_with_the_reason},
      {.name = "opencl_beside_another_vendor",
       .unmet = beside_another_vendor_unmet,
       .timeout_seconds = 60,
       .test = opencl_without_fine_grained_svm_is_not_supported_naming_it},
  };
  return run_test_groups("device_layer", groups, sizeof(groups) / sizeof(groups[0]), argc, argv);
}
