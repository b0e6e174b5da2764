/* The bundled reference pair conforms: every case passes, the report has
 * the documented shape, and the reference's streams and async streams
 * round-trip every fixture. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/simulated_device.h"
#include "device/device.h"
#include "reference_core.h"
#include "reference_device.h"
#include "rule_api/needs.h"
#include "test_groups.h"
#include "test_support.h"

/* The rules that judge a producer's batches by their sync_event, on each
 * interface that hands out device arrays: of each pair, one judges those
 * with an event, the other those without. */
static const char* const event_rules[] = {
    "/device_array.sync_event.data_complete/",  "/device_array.sync_event.null_means_ready/",
    "/device_stream.sync_event.data_complete/", "/device_stream.sync_event.null_means_ready/",
    "/async.sync_event.data_complete/",         "/async.sync_event.null_means_ready/",
};
enum { EVENT_RULE_COUNT = sizeof(event_rules) / sizeof(event_rules[0]) };

/* Which of event_rules judges case `id`; -1 for another rule. */
static int event_rule_of(const char* id) {
  for (int i = 0; i < EVENT_RULE_COUNT; i++) {
    if (strstr(id, event_rules[i]) != NULL) return i;
  }
  return -1;
}

/* The only cases that may end not_supported:
 *   - the reference's simulated producer exports a NULL sync_event for a
 *     batch it completed before the export returned (an empty one) and an
 *     event for any other, so on a fixture of one batch one of the two event
 *     rules of an interface has no batch to judge, and on a fixture whose
 *     one batch is empty (or copied at once) the rules on events outliving
 *     their stream (device and async) have no event to keep
 *     (reference/reference_device_simulated.c);
 *   - a rule needing of the device what it lacks (memory it can make
 *     read-only: no GPU's), by the harness's own test of the rule's needs,
 *     with the message the case gives. */
static bool expected_not_supported(const cJSON* item, const struct adc_device_driver* device) {
  const char* id = cJSON_GetObjectItem(item, "id")->valuestring;
  const char* message = cJSON_GetObjectItem(item, "message")->valuestring;
  bool judges_events = event_rule_of(id) >= 0 ||
                       strstr(id, "/device_stream.lifetime.events_outlive_stream/") != NULL ||
                       strstr(id, "/async.lifetime.events_outlive_stream/") != NULL;
  if (judges_events && strstr(message, "nothing to judge") != NULL) return true;
  /* The reference's consumer compares itself (the JSON ABI) and hands
   * nothing on: the rule judging what a consumer hands on has nothing to
   * read (tests/test_round_trip.c judges it through the passthrough). */
  if (strstr(id, "/consumer.accepted.values_kept/") != NULL &&
      strstr(message, "compares what it imports itself") != NULL)
    return true;
  const struct adc_rule* rule = adc_rule_find(cJSON_GetObjectItem(item, "rule")->valuestring);
  char why[256];
  return rule != NULL && !adc_device_meets_needs(rule, device, why, sizeof(why)) && strcmp(message, why) == 0;
}

/* On device `_i` of the registry: run where it opens (a device with a
 * runtime behind it is its own test group, not run where it is missing:
 * main). */
START_TEST(reference_pair_passes_every_case) {
  const struct adc_device_driver* device = adc_device_at((size_t)_i);
  struct adc_error unavailable;
  ck_assert_msg(device_opens(device, &unavailable) == 0, "%s is unavailable: %s", device->name,
                unavailable.message);
  /* ADC_TEST_COVERING_FIXTURES runs each rule on its covering set of the
   * fixtures (--covering-fixtures: every type it meets, chosen by the
   * suite) where a sanitizer makes every case slow (CMakePresets.json:
   * asan, tsan); every bundled fixture otherwise.  Those runs share prepared processes
   * (--isolation shared: the sanitizer builds' auto is a process per case),
   * each process running many cases, as the default build's do; the
   * reference must pass each case there at once, leaving nothing behind
   * (checked below). */
  bool covering = getenv("ADC_TEST_COVERING_FIXTURES") != NULL;
  const char* args[] = {"--producer",
                        "reference",
                        "--consumer",
                        "reference",
                        "--device",
                        device->name,
                        covering ? "--covering-fixtures" : NULL,
                        "--isolation",
                        "shared",
                        NULL};
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  ck_assert_ptr_nonnull(report);
  /* Said first: a crash of the suite's own code is its defect, whatever
   * else it makes of the run. */
  char first_suite_crash[600] = "";
  int suite_crashes = count_suite_crashes(report, first_suite_crash, sizeof(first_suite_crash));
  ck_assert_msg(suite_crashes == 0, "%d case(s) crashed in the suite's own code, the first %s", suite_crashes,
                first_suite_crash);
  ck_assert_int_eq(exit_code, 0);
  const cJSON* cases = cJSON_GetObjectItem(report, "cases");
  ck_assert_int_gt(cJSON_GetArraySize(cases), 50);
  const cJSON* item;
  int passed = 0;
  int event_rule_passes[EVENT_RULE_COUNT] = {0};
  cJSON_ArrayForEach(item, cases) {
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    passed += strcmp(status, "pass") == 0;
    int event_rule = event_rule_of(cJSON_GetObjectItem(item, "id")->valuestring);
    if (event_rule >= 0 && strcmp(status, "pass") == 0) event_rule_passes[event_rule]++;
    if (strcmp(status, "pass") != 0 &&
        !(strcmp(status, "not_supported") == 0 && expected_not_supported(item, device))) {
      ck_abort_msg("%s ended %s: %s", cJSON_GetObjectItem(item, "id")->valuestring, status,
                   cJSON_GetObjectItem(item, "message")->valuestring);
    }
    ck_assert_ptr_nonnull(cJSON_GetObjectItem(item, "rule"));
    /* In a prepared process too, it passed at once and left nothing
     * behind (a race or a leak a sanitizer found there ends the process:
     * the case's rerun alone would hide it). */
    ck_assert_msg(cJSON_GetObjectItem(item, "shared_attempt") == NULL &&
                      cJSON_GetObjectItem(item, "left_behind") == NULL,
                  "%s needed a run of its own, or left something behind, in a prepared process",
                  cJSON_GetObjectItem(item, "id")->valuestring);
  }
  if (device->kind->arrow_type == ADC_SIMULATED_DEVICE_TYPE) {
    /* Across the fixtures the simulated producer exports both kinds of
     * sync_event, so each event rule judges it somewhere. */
    for (int i = 0; i < EVENT_RULE_COUNT; i++) {
      ck_assert_msg(event_rule_passes[i] > 0, "no case of %s judged the reference on simulated",
                    event_rules[i]);
    }
  }
  const cJSON* summary = cJSON_GetObjectItem(report, "summary");
  ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(summary, "conforms")));
  ck_assert_int_eq(cJSON_GetObjectItem(summary, "pass")->valueint, passed);
  ck_assert_ptr_nonnull(cJSON_GetObjectItem(report, "environment"));
  cJSON_Delete(report);
}
END_TEST

START_TEST(console_table_ends_with_verdict) {
  const char* args[] = {"--producer", "reference", "--verbose", NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 0);
  ck_assert_ptr_nonnull(strstr(run.out, "CONFORMS: no MUST rule failed. Coverage: "));
  ck_assert_ptr_nonnull(strstr(run.out, "array.move.base_relocatable"));
  ck_assert_ptr_null(strstr(run.out, "consumer.")); /* only the side named is tested */
  run_result_free(&run);
}
END_TEST

START_TEST(list_and_filter_select_cases) {
  const char* args[] = {"--producer", "reference", "--list", "--filter", "cpu/array.move.*", NULL};
  struct run_result run = run_conform(args);
  ck_assert_int_eq(run.exit_code, 0);
  ck_assert_ptr_nonnull(strstr(run.out, "cpu/array.move.base_relocatable/int32_nulls\n"));
  ck_assert_ptr_null(strstr(run.out, "release.sets_null"));
  run_result_free(&run);
}
END_TEST

static const char* const fixture_names[] = {"int32_nulls",   "int32_empty", "int32_all_null",
                                            "nested_struct", "dictionary",  "multi_batch"};

/* Loop index: fixture, then device (the CPU, the simulated device). */
static const ArrowDeviceType stream_devices[] = {ARROW_DEVICE_CPU, ADC_SIMULATED_DEVICE_TYPE};
#define N_FIXTURES (sizeof(fixture_names) / sizeof(fixture_names[0]))
#define N_STREAM_CASES ((int)(N_FIXTURES * sizeof(stream_devices) / sizeof(stream_devices[0])))

static void fixture_path(char* path, size_t size, const char* name) {
  snprintf(path, size, "%s/%s.json", ADC_SOURCE_DIR "/fixtures/data", name);
}

START_TEST(device_stream_round_trips) {
  char path[512];
  fixture_path(path, sizeof(path), fixture_names[(size_t)_i % N_FIXTURES]);
  ArrowDeviceType device = stream_devices[(size_t)_i / N_FIXTURES];
  struct ArrowDeviceArrayStream stream;
  ck_assert_ptr_null(ref_export_device_stream(path, device, device == ARROW_DEVICE_CPU ? -1 : 0, &stream));
  ck_assert_int_eq(stream.device_type, device);
  const char* error = ref_import_device_stream(path, &stream);
  ck_assert_msg(error == NULL, "%s", error);
  ck_assert(stream.release == NULL);
}
END_TEST

/* The consumer stops at the injected failure, reports it with the
 * producer's description, and leaves nothing allocated. */
START_TEST(failing_stream_is_reported) {
  char path[512];
  fixture_path(path, sizeof(path), "multi_batch");
  int64_t before = ref_bytes_allocated();
  struct ArrowDeviceArrayStream stream;
  ck_assert_ptr_null(ref_export_failing_device_stream(path, ARROW_DEVICE_CPU, -1, 1, &stream));
  const char* error = ref_import_device_stream(path, &stream);
  ck_assert_msg(error != NULL && strstr(error, "injected failure") != NULL, "%s", error ? error : "(NULL)");
  ck_assert(stream.release == NULL);
  ck_assert_int_eq(ref_bytes_allocated(), before);
}
END_TEST

/* The GPU device types of the reference modules this build has. */
static const ArrowDeviceType gpu_types[] = {
#ifdef ADC_HAVE_CUDA_MODULE
    ARROW_DEVICE_CUDA,   ARROW_DEVICE_CUDA_HOST, ARROW_DEVICE_CUDA_MANAGED,
#endif
#ifdef ADC_HAVE_ROCM_MODULE
    ARROW_DEVICE_ROCM,   ARROW_DEVICE_ROCM_HOST,
#endif
#ifdef ADC_HAVE_OPENCL_MODULE
    ARROW_DEVICE_OPENCL,
#endif
    ARROW_DEVICE_CPU, /* keeps the list non-empty; skipped below */
};

/* The module loads; without a GPU the export is declined with the
 * runtime's own words, with one it round-trips through the consumer. */
START_TEST(gpu_module_round_trips_or_declines) {
  ArrowDeviceType type = gpu_types[_i];
  if (type == ARROW_DEVICE_CPU) return;
  ck_assert_msg(ref_device_for(type) != NULL, "no reference module serves device type %d", (int)type);
  char path[512];
  fixture_path(path, sizeof(path), "nested_struct");
  struct arrow_json_file file;
  char message[256];
  ck_assert_int_eq(ref_load_fixture(path, &file, message, sizeof(message)), 0);
  struct ArrowDeviceArray array;
  const char* error = ref_export_device_batch(&file, 0, type, 0, &array);
  arrow_json_file_free(&file);
  if (error != NULL) {
    ck_assert_msg(strlen(error) > 0, "an empty reason");
    return;
  }
  ck_assert_int_eq(array.device_type, type);
  ck_assert_ptr_nonnull(array.sync_event);
  error = ref_import_device_batch(path, 0, &array);
  ck_assert_msg(error == NULL, "%s", error);
}
END_TEST

/* On the simulated device the reference exports a NULL sync_event exactly
 * where the batch was complete before the export returned: multi_batch's
 * empty second batch, whose one offset is copied at once; its other
 * batches wait for the device's worker and carry an event.  Each batch
 * then round-trips through the consumer. */
START_TEST(simulated_event_only_where_data_are_pending) {
  char path[512];
  fixture_path(path, sizeof(path), "multi_batch");
  struct arrow_json_file file;
  char message[256];
  ck_assert_int_eq(ref_load_fixture(path, &file, message, sizeof(message)), 0);
  ck_assert_int_eq(file.n_batches, 3);
  ck_assert_int_eq(file.batches[1].length, 0);
  for (int batch = 0; batch < 3; batch++) {
    struct ArrowDeviceArray array;
    ck_assert_ptr_null(
        ref_export_device_batch(&file, batch, ADC_SIMULATED_DEVICE_TYPE, ADC_SIMULATED_DEVICE_ID, &array));
    ck_assert_msg((array.sync_event == NULL) == (batch == 1), "batch %d: sync_event %p", batch,
                  array.sync_event);
    const char* error = ref_import_device_batch(path, batch, &array);
    ck_assert_msg(error == NULL, "%s", error);
  }
  arrow_json_file_free(&file);
}
END_TEST

/* What the async consumer's start function hands the reference producer. */
struct async_start {
  const char* path;
  ArrowDeviceType device;
};

static const char* start_reference_producer(void* context, struct ArrowAsyncDeviceStreamHandler* handler) {
  const struct async_start* start = context;
  return ref_export_async(start->path, start->device, start->device == ARROW_DEVICE_CPU ? -1 : 0, handler);
}

/* Loop index as for device_stream_round_trips. */
START_TEST(async_stream_round_trips) {
  char path[512];
  fixture_path(path, sizeof(path), fixture_names[(size_t)_i % N_FIXTURES]);
  struct async_start start = {path, stream_devices[(size_t)_i / N_FIXTURES]};
  const char* error = ref_import_async(path, start.device, start_reference_producer, &start);
  ck_assert_msg(error == NULL, "%s", error);
}
END_TEST

START_TEST(async_consumer_notices_a_different_file) {
  /* Producer streams one fixture, consumer expects another. */
  char produced[512];
  char expected[512];
  fixture_path(produced, sizeof(produced), "multi_batch");
  fixture_path(expected, sizeof(expected), "int32_nulls");
  struct async_start start = {produced, ARROW_DEVICE_CPU};
  const char* error = ref_import_async(expected, ARROW_DEVICE_CPU, start_reference_producer, &start);
  ck_assert_ptr_nonnull(error);
}
END_TEST

/* Every device with a runtime behind it has a ctest entry of its own
 * (tests/CMakeLists.txt passes their names), so that ctest shows it
 * skipped where it is missing rather than leaving it out. */
START_TEST(every_runtime_device_has_its_ctest_entry) {
  for (size_t d = 0; d < adc_device_count(); d++) {
    const struct adc_device_driver* device = adc_device_at(d);
    if (device->backend == NULL) continue;
    char word[64];
    snprintf(word, sizeof(word), " %s ", device->name);
    ck_assert_msg(strstr(" " ADC_RUNTIME_DEVICE_TESTS " ", word) != NULL,
                  "device %s has no reference_pair_%s entry in tests/CMakeLists.txt", device->name,
                  device->name);
  }
}
END_TEST

static void add_harness(TCase* tcase, int unused) {
  (void)unused;
  tcase_add_test(tcase, console_table_ends_with_verdict);
  tcase_add_test(tcase, list_and_filter_select_cases);
  tcase_add_test(tcase, every_runtime_device_has_its_ctest_entry);
}

static void add_streams(TCase* tcase, int unused) {
  (void)unused;
  tcase_add_loop_test(tcase, device_stream_round_trips, 0, N_STREAM_CASES);
  tcase_add_test(tcase, failing_stream_is_reported);
  tcase_add_loop_test(tcase, async_stream_round_trips, 0, N_STREAM_CASES);
  tcase_add_test(tcase, async_consumer_notices_a_different_file);
  tcase_add_test(tcase, simulated_event_only_where_data_are_pending);
  tcase_add_loop_test(tcase, gpu_module_round_trips_or_declines, 0,
                      (int)(sizeof(gpu_types) / sizeof(gpu_types[0])));
}

static void add_device(TCase* tcase, int device) {
  tcase_add_loop_test(tcase, reference_pair_passes_every_case, device, device + 1);
}

/* Groups (tests/test_groups.h): "harness", "streams" and one per device,
 * named as the device; arguments select groups, none: every one.  A device
 * with a runtime behind it (a GPU's, OpenCL's) runs where it opens and is
 * "not run" elsewhere; the CPU and the simulated device must open. */
int main(int argc, char** argv) {
  struct test_group groups[2 + 32] = {
      {.name = "harness", .add = add_harness, .timeout_seconds = 60},
      {.name = "streams", .add = add_streams},
  };
  size_t n = 2;
  for (size_t d = 0; d < adc_device_count() && n < sizeof(groups) / sizeof(groups[0]); d++) {
    const struct adc_device_driver* device = adc_device_at(d);
    groups[n++] = (struct test_group){.name = device->name,
                                      .unmet = device->backend != NULL ? device_unmet : NULL,
                                      .add = add_device,
                                      .arg = (int)d,
                                      .timeout_seconds = 60};
  }
  return run_test_groups("reference_pair", groups, n, argc, argv);
}
