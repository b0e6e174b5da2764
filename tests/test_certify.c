/* adc-conform certify and verify: a bundle of the reference pair is a
 * valid claim, sha256sum checks its manifest too, and verify names every
 * way a bundle can stop being one (a file modified, missing, added or
 * listed twice, a malformed manifest, a report not of a certify run or of
 * another suite version, a MUST case failed); certify refuses the options
 * that would narrow a claim and a folder in use. */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands/claim_check.h"
#include "support/version.h"
#include "test_support.h"

/* Made once, before the tests fork (the unchecked fixture). */
static char work_dir[] = "/tmp/adc_certify_XXXXXX";
static char reference_bundle[512];
static struct run_result reference_certify;

static void make_reference_bundle(void) {
  if (mkdtemp(work_dir) == NULL) abort();
  snprintf(reference_bundle, sizeof(reference_bundle), "%s/reference", work_dir);
  const char* args[] = {"certify",   "--producer", "reference",      "--consumer",
                        "reference", "--out",      reference_bundle, NULL};
  reference_certify = run_conform(args);
}

static void remove_work_dir(void) {
  run_result_free(&reference_certify);
  char command[600];
  snprintf(command, sizeof(command), "rm -rf %s", work_dir);
  if (system(command) != 0) fprintf(stderr, "could not remove %s\n", work_dir);
}

static int shell(const char* command) {
  const char* argv[] = {"/bin/sh", "-c", command, NULL};
  struct run_result result = run_command(argv);
  int exit_code = result.exit_code;
  if (exit_code != 0) fprintf(stderr, "%s: %s%s", command, result.out, result.err);
  run_result_free(&result);
  return exit_code;
}

/* A copy of the reference bundle, to spoil: its path in `copy`. */
static void copy_reference_bundle(const char* name, char* copy, size_t size) {
  snprintf(copy, size, "%s/%s", work_dir, name);
  char command[1200];
  snprintf(command, sizeof(command), "cp -r %s %s", reference_bundle, copy);
  ck_assert_int_eq(shell(command), 0);
}

static struct run_result verify(const char* dir) {
  const char* args[] = {"verify", dir, NULL};
  return run_conform(args);
}

static void assert_contains(const char* text, const char* part) {
  ck_assert_msg(strstr(text, part) != NULL, "'%s' not in:\n%s", part, text);
}

START_TEST(test_reference_bundle_is_a_valid_claim) {
  ck_assert_msg(reference_certify.exit_code == 0, "certify: %s", reference_certify.err);
  static const char* const files[] = {"report.json",       "report.junit.xml", "command.txt",
                                      "suite-version.txt", "environment.json", "SHA256SUMS"};
  for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
    char path[700];
    snprintf(path, sizeof(path), "%s/%s", reference_bundle, files[f]);
    ck_assert_msg(access(path, R_OK) == 0, "%s missing", files[f]);
  }
  struct run_result result = verify(reference_bundle);
  ck_assert_msg(result.exit_code == 0, "verify: %s%s", result.out, result.err);
  assert_contains(result.out, "VALID CLAIM");
  assert_contains(result.out, "producer: certified: the bundled reference");
  assert_contains(result.out, "devices judged: cpu, cpu_device_arrays, simulated");
  assert_contains(result.out, "not_supported cases on devices not present");
  run_result_free(&result);
  /* The manifest is sha256sum's own format. */
  char command[700];
  snprintf(command, sizeof(command), "cd %s && sha256sum --strict -c SHA256SUMS", reference_bundle);
  ck_assert_int_eq(shell(command), 0);
}
END_TEST

START_TEST(test_command_and_version_recorded) {
  char path[700];
  snprintf(path, sizeof(path), "%s/report.json", reference_bundle);
  cJSON* report = read_json_file(path);
  ck_assert_ptr_nonnull(report);
  char* command_line = cJSON_PrintUnformatted(cJSON_GetObjectItem(report, "command_line"));
  assert_contains(command_line, "\"--device\",\"all\"");
  free(command_line);
  ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "suite"), "git_commit")->valuestring,
                   ADC_GIT_COMMIT);
  cJSON_Delete(report);
  /* Where its cases ran: the run's default (auto: shared prepared
   * processes, in a build without a sanitizer), as it took effect. */
  snprintf(path, sizeof(path), "%s/environment.json", reference_bundle);
  cJSON* environment = read_json_file(path);
  ck_assert_ptr_nonnull(environment);
  ck_assert_str_eq(cJSON_GetObjectItem(environment, "isolation")->valuestring, "shared");
  cJSON_Delete(environment);
  char command[1200];
  snprintf(command, sizeof(command), "cat %s/command.txt %s/suite-version.txt", reference_bundle,
           reference_bundle);
  const char* argv[] = {"/bin/sh", "-c", command, NULL};
  struct run_result result = run_command(argv);
  assert_contains(result.out, "adc-conform certify --producer reference --consumer reference --out ");
  assert_contains(result.out, "adc-conform " ADC_VERSION "\ngit commit " ADC_GIT_COMMIT "\n");
  run_result_free(&result);
}
END_TEST

START_TEST(test_modified_report) {
  char bundle[600];
  copy_reference_bundle("modified", bundle, sizeof(bundle));
  char command[1200];
  /* One byte: the first "pass" becomes "fail". */
  snprintf(command, sizeof(command), "sed -i '0,/\"pass\"/s/\"pass\"/\"fail\"/' %s/report.json", bundle);
  ck_assert_int_eq(shell(command), 0);
  struct run_result result = verify(bundle);
  ck_assert_int_eq(result.exit_code, 1);
  assert_contains(result.out, "report.json: modified: its SHA-256 is ");
  assert_contains(result.out, "ended fail");
  assert_contains(result.out, "CLAIM DOES NOT HOLD");
  run_result_free(&result);
}
END_TEST

/* A file removed, one added, one listed twice: each named, all of them. */
START_TEST(test_files_missing_added_listed_twice) {
  char bundle[600];
  copy_reference_bundle("files", bundle, sizeof(bundle));
  char command[1200];
  snprintf(command, sizeof(command),
           "cd %s && rm command.txt && echo note > notes.txt && line=$(grep junit SHA256SUMS) && echo "
           "\"$line\" >> SHA256SUMS",
           bundle);
  ck_assert_int_eq(shell(command), 0);
  struct run_result result = verify(bundle);
  ck_assert_int_eq(result.exit_code, 1);
  assert_contains(result.out, "command.txt: listed in SHA256SUMS but missing");
  assert_contains(result.out, "notes.txt: in the bundle but not listed in SHA256SUMS");
  assert_contains(result.out, "report.junit.xml: listed again on line 6");
  assert_contains(result.out, "CLAIM DOES NOT HOLD: 3 reasons");
  run_result_free(&result);
  /* A file left out of the manifest, though present. */
  snprintf(command, sizeof(command), "cd %s && rm notes.txt && sed -i '/environment.json/d' SHA256SUMS",
           bundle);
  ck_assert_int_eq(shell(command), 0);
  result = verify(bundle);
  ck_assert_int_eq(result.exit_code, 1);
  assert_contains(result.out, "environment.json: not listed in SHA256SUMS");
  run_result_free(&result);
}
END_TEST

START_TEST(test_not_a_bundle) {
  char bundle[600];
  copy_reference_bundle("malformed", bundle, sizeof(bundle));
  char command[1200];
  snprintf(command, sizeof(command), "cd %s && sed -i '2s/  / /' SHA256SUMS", bundle);
  ck_assert_int_eq(shell(command), 0);
  struct run_result result = verify(bundle);
  ck_assert_int_eq(result.exit_code, 2);
  assert_contains(result.err, "adc-conform: error: ");
  assert_contains(result.err, "SHA256SUMS:2: malformed manifest line");
  ck_assert_int_eq(count_lines(result.err), 1);
  run_result_free(&result);
  snprintf(command, sizeof(command), "rm %s/SHA256SUMS", bundle);
  ck_assert_int_eq(shell(command), 0);
  result = verify(bundle);
  ck_assert_int_eq(result.exit_code, 2);
  assert_contains(result.err, "cannot read manifest");
  run_result_free(&result);
  snprintf(command, sizeof(command), "%s/no-such-bundle", work_dir);
  result = verify(command);
  ck_assert_int_eq(result.exit_code, 2);
  assert_contains(result.err, "is not a folder");
  run_result_free(&result);
}
END_TEST

/* The judgement itself, on the reference report edited in memory: a run
 * narrowed by --filter, of another version, interrupted. */
START_TEST(test_claim_check_on_edited_reports) {
  char path[700];
  snprintf(path, sizeof(path), "%s/report.json", reference_bundle);
  cJSON* report = read_json_file(path);
  ck_assert_ptr_nonnull(report);
  struct adc_reason_list reasons = {0}, scope = {0};
  adc_check_claim(report, ADC_VERSION, ADC_GIT_COMMIT, &reasons, &scope);
  ck_assert_uint_eq(reasons.count, 0);
  adc_reason_list_free(&reasons);
  adc_reason_list_free(&scope);

  cJSON* command_line = cJSON_GetObjectItem(report, "command_line");
  cJSON_AddItemToArray(command_line, cJSON_CreateString("--filter"));
  cJSON_AddItemToArray(command_line, cJSON_CreateString("cpu/*"));
  cJSON_ReplaceItemInObject(cJSON_GetObjectItem(report, "summary"), "complete", cJSON_CreateFalse());
  adc_check_claim(report, "99.0.0", ADC_GIT_COMMIT, &reasons, &scope);
  ck_assert_uint_eq(reasons.count, 3);
  assert_contains(reasons.lines[0], "not by this one, 99.0.0");
  assert_contains(reasons.lines[1], "'--filter', which certify never passes");
  assert_contains(reasons.lines[2], "the run is incomplete");
  adc_reason_list_free(&reasons);
  adc_reason_list_free(&scope);
  cJSON_Delete(report);
}
END_TEST

/* Sets the status of every case of `role` in `report` to `status`. */
static void set_statuses(cJSON* report, const char* role, const char* status) {
  cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    if (strcmp(cJSON_GetObjectItem(item, "role")->valuestring, role) == 0)
      cJSON_ReplaceItemInObject(item, "status", cJSON_CreateString(status));
  }
}

/* verify judges each side the run tested as the run does (harness/outcome/verdict.c): a
 * side with no MUST case judged breaks the claim though the other side's
 * cases pass, and the reason is the run's. */
START_TEST(test_claim_check_judges_each_side) {
  char path[700];
  snprintf(path, sizeof(path), "%s/report.json", reference_bundle);
  cJSON* report = read_json_file(path);
  ck_assert_ptr_nonnull(report);
  set_statuses(report, "producer", "not_supported");
  struct adc_reason_list reasons = {0}, scope = {0};
  adc_check_claim(report, ADC_VERSION, ADC_GIT_COMMIT, &reasons, &scope);
  ck_assert_uint_eq(reasons.count, 1);
  assert_contains(reasons.lines[0], "report.json: the producer not shown to conform: its ");
  assert_contains(reasons.lines[0], " MUST cases are all not_supported");
  adc_reason_list_free(&reasons);
  adc_reason_list_free(&scope);

  /* The reported run: every producer case unresolved. */
  set_statuses(report, "producer", "unresolved");
  adc_check_claim(report, ADC_VERSION, ADC_GIT_COMMIT, &reasons, &scope);
  ck_assert_uint_gt(reasons.count, 1);
  assert_contains(reasons.lines[0], "ended unresolved");
  assert_contains(reasons.lines[reasons.count - 1], "report.json: the producer not shown to conform: ");
  assert_contains(reasons.lines[reasons.count - 1], " MUST cases unresolved, the first: cpu/");
  adc_reason_list_free(&reasons);
  adc_reason_list_free(&scope);

  /* A side the run did not test is not judged: the first report again, but
   * the producer only the partner. */
  cJSON* producer = cJSON_GetObjectItem(cJSON_GetObjectItem(report, "environment"), "producer");
  cJSON_ReplaceItemInObject(producer, "tested", cJSON_CreateFalse());
  set_statuses(report, "producer", "not_supported");
  adc_check_claim(report, ADC_VERSION, ADC_GIT_COMMIT, &reasons, &scope);
  ck_assert_uint_eq(reasons.count, 0);
  adc_reason_list_free(&reasons);
  adc_reason_list_free(&scope);
  cJSON_Delete(report);
}
END_TEST

/* The rule a broken twin must fail (fixtures/deliberately_broken/rule_twins: broken_FailsRule). */
static void read_fails_rule(const char* library, char* rule, size_t size) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  ck_assert_msg(handle != NULL, "%s", dlerror());
  void* address = dlsym(handle, "broken_FailsRule");
  ck_assert_ptr_nonnull(address);
  const char* (*fails_rule)(void) = NULL;
  memcpy(&fails_rule, &address, sizeof(address));
  snprintf(rule, size, "%s", fails_rule());
  dlclose(handle);
}

/* A producer-only claim for a broken twin: certify exits 1 but writes the
 * bundle; verify names the MUST cases that failed.  A twin whose defect
 * costs no case a wait (a schema flag: no late-data watch on every fixture
 * of every device). */
START_TEST(test_broken_twin_bundle) {
  const char* library = BUILD_PATH("libbroken_producer_nullable_flag_dropped.so");
  char rule[128];
  read_fails_rule(library, rule, sizeof(rule));
  char bundle[600];
  snprintf(bundle, sizeof(bundle), "%s/broken", work_dir);
  const char* args[] = {"certify", "--producer", library, "--out", bundle, NULL};
  struct run_result result = run_conform(args);
  ck_assert_msg(result.exit_code == 1, "certify: %d %s", result.exit_code, result.err);
  assert_contains(result.out, "Bundle written to");
  run_result_free(&result);
  result = verify(bundle);
  ck_assert_int_eq(result.exit_code, 1);
  char failed[200];
  snprintf(failed, sizeof(failed), "NOT VALID: MUST case cpu/%s/", rule);
  assert_contains(result.out, failed);
  assert_contains(result.out, " ended fail: ");
  assert_contains(result.out, "consumer: not certified (the bundled reference was the partner)");
  ck_assert_ptr_null(strstr(result.out, "SHA256SUMS"));
  run_result_free(&result);
}
END_TEST

START_TEST(test_certify_refuses) {
  char bundle[600];
  snprintf(bundle, sizeof(bundle), "%s/refused", work_dir);
  static const char* const refused[] = {"--filter=cpu/*", "--expect=x.txt", "--shard=1/2", "--device=cpu"};
  for (size_t r = 0; r < sizeof(refused) / sizeof(refused[0]); r++) {
    const char* args[] = {"certify", "--producer", "reference", refused[r], "--out", bundle, NULL};
    struct run_result result = run_conform(args);
    ck_assert_int_eq(result.exit_code, 2);
    assert_contains(result.err, "adc-conform: error: certify takes no '");
    assert_contains(result.err, "a claim covers every rule on every device present");
    run_result_free(&result);
  }
  struct stat info;
  ck_assert_int_ne(stat(bundle, &info), 0);
  /* A folder in use, and a library that does not load: no bundle. */
  const char* in_use[] = {"certify", "--producer", "reference", "--out", reference_bundle, NULL};
  struct run_result result = run_conform(in_use);
  ck_assert_int_eq(result.exit_code, 2);
  assert_contains(result.err, "exists and is not empty");
  run_result_free(&result);
  const char* missing[] = {"certify", "--producer", "/no/such/library.so", "--out", bundle, NULL};
  result = run_conform(missing);
  ck_assert_int_eq(result.exit_code, 2);
  ck_assert_int_ne(stat(bundle, &info), 0);
  run_result_free(&result);
  const char* no_out[] = {"certify", "--producer", "reference", NULL};
  result = run_conform(no_out);
  ck_assert_int_eq(result.exit_code, 2);
  assert_contains(result.err, "--out DIR");
  run_result_free(&result);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("certify");
  TCase* tc = tcase_create("certify");
  tcase_set_timeout(tc, 240);
  tcase_add_unchecked_fixture(tc, make_reference_bundle, remove_work_dir);
  tcase_add_test(tc, test_reference_bundle_is_a_valid_claim);
  tcase_add_test(tc, test_command_and_version_recorded);
  tcase_add_test(tc, test_modified_report);
  tcase_add_test(tc, test_files_missing_added_listed_twice);
  tcase_add_test(tc, test_not_a_bundle);
  tcase_add_test(tc, test_claim_check_on_edited_reports);
  tcase_add_test(tc, test_claim_check_judges_each_side);
  tcase_add_test(tc, test_broken_twin_bundle);
  tcase_add_test(tc, test_certify_refuses);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
