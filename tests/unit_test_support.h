/* What every test program shares, unit tests included: Check's runner,
 * reading files, running a program, the build tree's paths and the devices
 * a test may open.  Nothing of a harness run: a unit test links this and
 * the layers it tests, and waits for neither adc-conform nor the runner
 * (the tests of a run add test_support.h). */
#ifndef ADC_UNIT_TEST_SUPPORT_H
#define ADC_UNIT_TEST_SUPPORT_H

#include <check.h>
#include <cjson/cJSON.h>

#include "device/device.h"

/* Build-tree paths. */
#define BUILD_PATH(name) ADC_BUILD_DIR "/" name
#define SOURCE_PATH(name) ADC_SOURCE_DIR "/" name
/* The hand-written fixtures alone: tests that count cases pin their runs to
 * them, so that the generated set (fixtures/columnar) can grow. */
#define HAND_WRITTEN_FIXTURES SOURCE_PATH("fixtures/data")

/* Calls `visit` on the path of every bundled fixture (fixtures/data and
 * fixtures/columnar, the set a run reads by default:
 * harness/runner/fixture_set.c); returns how many there were.  The test
 * fails where a folder does not open. */
int each_bundled_fixture(void (*visit)(const char* path, void* context), void* context);

/* Runs a Check suite; returns the process exit status. */
int run_suite(Suite* suite);

struct run_result {
  int exit_code;
  char* out; /* standard output */
  char* err; /* standard error */
};

/* Runs the program argv[0] (a path) with `argv` (NULL-terminated), its
 * output captured; a death by signal S reads as exit code 128 + S.  Free
 * with run_result_free. */
struct run_result run_command(const char* const* argv);
void run_result_free(struct run_result* result);

/* The whole of a file a run wrote, NUL-terminated (free it); the test
 * fails naming the file when it was not written. */
char* read_text_file(const char* path);

/* Reads and parses a JSON file; NULL if it is missing or not JSON. */
cJSON* read_json_file(const char* path);

/* Number of lines in `text` (a last line without newline counts). */
int count_lines(const char* text);

/* Whether `driver`'s first device opens in this process (which may start
 * its runtime: a test's process, never a harness parent); else -1 with the
 * runtime's reason.  What it opened is closed again. */
int device_opens(const struct adc_device_driver* driver, struct adc_error* error);
/* The same for any target (a device id other than the first). */
int target_opens(const struct adc_device_target* target, struct adc_error* error);

/* The live first device of the driver named `name`, opened in this
 * process on first use and kept open for it; the test fails where it does
 * not open. */
const struct adc_device* live_device(const char* name);

#endif /* ADC_UNIT_TEST_SUPPORT_H */
