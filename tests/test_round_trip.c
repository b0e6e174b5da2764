/* The round-trip ABI (adc/plugin_abi.h, ADC_ROUND_TRIP_ENTRY_POINTS;
 * rule_api/round_trip.h): a library with no reader of the integration
 * JSON, judged through its Adopt and Export entry points.
 *   - fixtures/conforming/round_trip_passthrough.c holds what it adopts as
 *     it came and moves it on as it exports: judged as producer and
 *     consumer on cpu and simulated, every case whose entry points the
 *     round trip makes of what it has ends as the reference's own case
 *     does through the JSON ABI; every other names what it lacks;
 *   - its prefix is found without --prefix, from its round-trip symbols. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define PASSTHROUGH BUILD_PATH("libconforming_round_trip_passthrough.so")

static const char* text_of(const cJSON* item, const char* key) {
  const char* text = cJSON_GetStringValue(cJSON_GetObjectItem(item, key));
  return text != NULL ? text : "";
}

static const cJSON* case_in(const cJSON* report, const char* id) {
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    if (strcmp(text_of(item, "id"), id) == 0) return item;
  }
  return NULL;
}

/* In prepared processes even in a sanitizer build, where a run's default
 * is a process per case: four runs of 2000 cases so took 134 s under ASan. */
static cJSON* judged(const char* library, const char* device, int* exit_code) {
  const char* args[] = {"--producer", library,       "--consumer", library, "--device",
                        device,       "--isolation", "shared",     NULL};
  cJSON* report = run_conform_report(args, exit_code);
  ck_assert_msg(report != NULL, "%s on %s: no report (exit %d)", library, device, *exit_code);
  return report;
}

static const char* const devices[] = {"cpu", "simulated"};

START_TEST(a_passthrough_ends_every_case_as_the_reference_does) {
  const char* device = devices[_i];
  int reference_exit;
  int passthrough_exit;
  cJSON* reference = judged("reference", device, &reference_exit);
  cJSON* passthrough = judged(PASSTHROUGH, device, &passthrough_exit);
  ck_assert_int_eq(reference_exit, 0);
  ck_assert_msg(passthrough_exit == 0, "the passthrough does not conform on %s", device);
  int same = 0;
  int lacking = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(reference, "cases")) {
    const char* id = text_of(item, "id");
    const cJSON* other = case_in(passthrough, id);
    ck_assert_msg(other != NULL, "%s: not run through the round trip", id);
    const char* message = text_of(other, "message");
    if (strstr(message, "does not export passthrough_") != NULL) {
      /* What the round trip does not make: the leak rules' BytesAllocated,
       * the async stream (the passthrough has no async producer or
       * consumer of its own), a consumer's cancel. */
      ck_assert_msg(strcmp(text_of(other, "status"), "not_supported") == 0, "%s: %s: %s", id,
                    text_of(other, "status"), message);
      ck_assert_msg(strstr(message, "BytesAllocated") != NULL || strstr(message, "Async") != NULL, "%s: %s",
                    id, message);
      lacking++;
      continue;
    }
    if (strstr(id, "/consumer.accepted.values_kept/") != NULL) {
      /* Judged through the round trip alone: the reference's consumer
       * compares itself and hands nothing on (not_supported there); the
       * passthrough hands on what it adopted, and must pass. */
      ck_assert_msg(strcmp(text_of(other, "status"), "pass") == 0, "%s: %s through the round trip: %s", id,
                    text_of(other, "status"), message);
      ck_assert_str_eq(text_of(item, "status"), "not_supported");
      same++;
      continue;
    }
    ck_assert_msg(strcmp(text_of(item, "status"), text_of(other, "status")) == 0,
                  "%s: %s for the reference, %s through the round trip: %s", id, text_of(item, "status"),
                  text_of(other, "status"), message);
    same++;
  }
  ck_assert_msg(same > 500 && lacking > 100, "on %s: %d cases compared, %d lacking", device, same, lacking);
  cJSON_Delete(reference);
  cJSON_Delete(passthrough);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("round_trip");
  TCase* each = tcase_create("each");
  tcase_set_timeout(each, 300);
  tcase_add_loop_test(each, a_passthrough_ends_every_case_as_the_reference_does, 0, 2);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
