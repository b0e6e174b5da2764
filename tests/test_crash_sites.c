/* Where a case's process died of a fatal signal, and whose code that was
 * (runner/crash_site.h).  Runs of the harness: a library's crash (a
 * fault, a signal it raises, a buffer it handed over and did not keep) is
 * the library's `crash`, its frames naming the library's function; a crash
 * in the suite's own code (ADC_DELIBERATE_SUITE_CRASH:
 * runner/deliberate_suite_crash.h) is never the library's verdict but
 * `unresolved`, its frames naming the suite's function, each in both
 * isolations; --debug-case runs one case in the harness's own process.
 * And on their own: the record a case's handler sends (its
 * text written and read back), how frames are sorted into the suite's and
 * the library's, and the symbols of a frame. */
#include <check.h>
#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "runner/crash_site.h"
#include "test_support.h"
#include "wire/crash_record.h"
#include "wire/wire.h"

#define BATCH_CASE "cpu/array.release.sets_null/int32_nulls"
#define DATA_CASE "cpu/array.data.matches_fixture/int32_nulls"

struct expected_crash {
  const char* library;     /* libmisbehaving_<library>.so, or "reference" */
  const char* suite_crash; /* ADC_DELIBERATE_SUITE_CRASH; NULL: unset */
  const char* case_id;
  const char* status;
  const char* in; /* crash_site.in */
  /* The frame that decided: its function (NULL: not checked, the suite's
   * reading code being free to change) and its object's file name. */
  const char* deciding_function;
  const char* deciding_object;
  bool handed_over; /* crash_site.fault_on_handed_over_memory */
};

static const struct expected_crash crashes[] = {
#ifndef ADC_SANITIZE_ADDRESS /* UBSan reports its null load first, and that report is the case's crash */
    {"crash_on_export", NULL, BATCH_CASE, "crash", "library", "crashing_CDataIntegration_ExportBatchFromJson",
     "libmisbehaving_crash_on_export.so", false},
#endif
    /* raise() runs in the C library: the library's frame below decides. */
    {"raises_segv", NULL, BATCH_CASE, "crash", "library", "export_batch", "libmisbehaving_raises_segv.so",
     false},
    /* The suite's code faults, on memory the library handed over. */
    {"exports_unmapped_buffer", NULL, DATA_CASE, "crash", "library", NULL, "adc-conform", true},
    {"reference", "segv", BATCH_CASE, "unresolved", "suite", "write_to_unmapped_memory", "adc-conform",
     false},
    {"reference", "abort", BATCH_CASE, "unresolved", "suite", "fail_an_assertion", "adc-conform", false},
    /* Caught on the handler's alternate stack. */
    {"reference", "overflow", BATCH_CASE, "unresolved", "suite", "recurse_without_end", "adc-conform", false},
};
#define N_CRASHES ((int)(sizeof(crashes) / sizeof(crashes[0])))

static const char* const isolations[] = {"case", "shared"};
#define N_ISOLATIONS 2

static const char* base_name(const char* path) {
  const char* slash = strrchr(path, '/');
  return slash != NULL ? slash + 1 : path;
}

static const char* text_of(const cJSON* object, const char* key) {
  const char* text = cJSON_GetStringValue(cJSON_GetObjectItem(object, key));
  return text != NULL ? text : "";
}

START_TEST(crash_is_told_where_and_whose) {
  const struct expected_crash* e = &crashes[_i / N_ISOLATIONS];
  const char* isolation = isolations[_i % N_ISOLATIONS];
  char library[PATH_MAX];
  snprintf(library, sizeof(library), "%s", "reference");
  if (strcmp(e->library, "reference") != 0)
    snprintf(library, sizeof(library), "%s/libmisbehaving_%s.so", ADC_BUILD_DIR, e->library);
  if (e->suite_crash != NULL) setenv("ADC_DELIBERATE_SUITE_CRASH", e->suite_crash, 1);
  char report_path[] = "/tmp/adc_crash_sites_XXXXXX";
  close(mkstemp(report_path));
  const char* args[] = {"--producer", library, "--filter",      e->case_id,  "--isolation", isolation,
                        "--timeout",  "60",    "--report-json", report_path, NULL};
  struct run_result run = run_conform(args);
  unsetenv("ADC_DELIBERATE_SUITE_CRASH");
  assert_json_report_valid(report_path);
  cJSON* report = read_json_file(report_path);
  unlink(report_path);
  ck_assert_ptr_nonnull(report);
  const cJSON* item = report_case(report, e->case_id);
  const char* status = text_of(item, "status");
  const char* message = text_of(item, "message");
  const char* what = e->suite_crash != NULL ? e->suite_crash : e->library;
  ck_assert_msg(strcmp(status, e->status) == 0, "%s (%s): ended %s: %s", what, isolation, status, message);
  const cJSON* site = cJSON_GetObjectItem(item, "crash_site");
  ck_assert_msg(site != NULL, "%s (%s): no crash site: %s", what, isolation, message);
  ck_assert_msg(strcmp(text_of(site, "in"), e->in) == 0, "%s (%s): crashed in the %s's code: %s", what,
                isolation, text_of(site, "in"), message);
  ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(site, "fault_on_handed_over_memory")), e->handed_over);
  const cJSON* deciding = cJSON_GetObjectItem(site, "deciding_frame");
  ck_assert_msg(cJSON_IsNumber(deciding), "%s (%s): no frame decided", what, isolation);
  const cJSON* frame = cJSON_GetArrayItem(cJSON_GetObjectItem(site, "frames"), deciding->valueint);
  const char* function = text_of(frame, "function");
  ck_assert_str_eq(base_name(text_of(frame, "object")), e->deciding_object);
  if (e->deciding_function != NULL) {
    ck_assert_msg(strcmp(function, e->deciding_function) == 0, "%s (%s): decided by %s, not %s", what,
                  isolation, function, e->deciding_function);
    ck_assert_msg(strstr(message, e->deciding_function) != NULL, "%s (%s): the message names no %s: %s", what,
                  isolation, e->deciding_function, message);
    ck_assert_int_gt(cJSON_GetNumberValue(cJSON_GetObjectItem(frame, "line")), 0);
  }
  bool suite = strcmp(e->in, "suite") == 0;
  ck_assert_msg(!suite || strncmp(message, "the suite crashed in its own code", 33) == 0,
                "%s (%s): a suite crash not said as one: %s", what, isolation, message);
  /* A suite crash judged nothing: the side is not shown to conform (3),
   * never failed (1). */
  ck_assert_int_eq(run.exit_code, suite ? 3 : 1);
  ck_assert_int_eq(
      cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(report, "summary"), "crash")),
      suite ? 0 : 1);
  /* A process per case has no shared attempt (in a prepared process, the
   * crash either stood, the first case there, or was run again alone). */
  if (strcmp(isolation, "case") == 0) ck_assert(cJSON_GetObjectItem(item, "shared_attempt") == NULL);
  run_result_free(&run);
  cJSON_Delete(report);
}
END_TEST

/* --debug-case runs the case in the harness's own process: a case that
 * passes prints its verdict and exits 0; one whose library raises SIGSEGV
 * kills the harness itself (no process of its own took the signal); an ID
 * that names no single case is bad input. */
START_TEST(debug_case_runs_in_the_harness_s_process) {
  const char* passing[] = {"--producer", "reference", "--debug-case", BATCH_CASE, NULL};
  struct run_result run = run_conform(passing);
  ck_assert_msg(run.exit_code == 0 && strstr(run.out, "PASS") != NULL, "exit %d: %s%s", run.exit_code,
                run.out, run.err);
  ck_assert_ptr_nonnull(strstr(run.err, "in this process (pid "));
  run_result_free(&run);
  const char* crashing[] = {"--producer", BUILD_PATH("libmisbehaving_raises_segv.so"), "--debug-case",
                            BATCH_CASE, NULL};
  run = run_conform(crashing);
  ck_assert_msg(run.exit_code == 128 + SIGSEGV, "exit %d: %s%s", run.exit_code, run.out, run.err);
  run_result_free(&run);
  const char* many[] = {"--producer", "reference", "--debug-case", "cpu/array.release.sets_null/*", NULL};
  expect_one_error_line(many, "cases; it takes the ID of one");
}
END_TEST

/* ---- The record, on its own ------------------------------------------- */

/* Frame `depth` of a thread's stack. */
static void frame(struct adc_fault_frame* out, unsigned depth, uintptr_t offset, const char* object) {
  out->depth = depth;
  out->offset = offset;
  snprintf(out->object, sizeof(out->object), "%s", object);
}

/* What adc_crash_record_send writes on a sequenced-packet socket is one
 * CRASH_SITE record that reads back as sent: an object repeated is
 * written once, a frame in no file keeps its address. */
START_TEST(record_reads_back_as_sent) {
  int channel[2];
  ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, channel), 0);
  struct adc_crash_record sent = {.signal_number = 6, .code = -6, .address = 0, .n_frames = 4};
  frame(&sent.frames[0], 0, 0x9a5c0, "/usr/lib/x86_64-linux-gnu/libc.so.6");
  frame(&sent.frames[1], 1, 0x1139, "/build/libmisbehaving_on_request.so");
  frame(&sent.frames[2], 2, 0x1200, "/build/libmisbehaving_on_request.so");
  frame(&sent.frames[3], 9, 0x7f0012345678, "");
  adc_wire_set_task(7);
  adc_crash_record_send(channel[1], &sent);
  struct adc_wire_record record;
  unsigned char bytes[sizeof(record) + 1];
  ssize_t got = recv(channel[0], bytes, sizeof(bytes), 0);
  ck_assert(adc_wire_accept(bytes, (size_t)got, &record));
  ck_assert_int_eq(record.kind, ADC_WIRE_CRASH_SITE);
  ck_assert_int_eq(record.task, 7);
  ck_assert_ptr_nonnull(strstr(record.message, "#2 0x1200 \"\n"));
  struct adc_crash_record read;
  ck_assert(adc_crash_record_read(record.message, &read));
  ck_assert_int_eq(read.signal_number, 6);
  ck_assert_int_eq(read.code, -6);
  ck_assert(!read.handed_over);
  ck_assert_int_eq(read.n_frames, 4);
  for (size_t i = 0; i < 4; i++) {
    ck_assert_uint_eq(read.frames[i].depth, sent.frames[i].depth);
    ck_assert_uint_eq(read.frames[i].offset, sent.frames[i].offset);
    ck_assert_str_eq(read.frames[i].object, sent.frames[i].object);
  }
  close(channel[0]);
  close(channel[1]);
}
END_TEST

/* Frames that do not fit the record are left out whole, never cut. */
START_TEST(record_keeps_whole_frames) {
  int channel[2];
  ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, channel), 0);
  struct adc_crash_record sent = {.signal_number = 11, .code = 1, .address = 0x10, .handed_over = true};
  char path[ADC_FAULT_OBJECT_SIZE];
  for (size_t i = 0; i < ADC_FAULT_FRAMES; i++) {
    /* A different long path each: none repeats the one above. */
    memset(path, 'a' + (int)i, sizeof(path) - 1);
    path[0] = '/';
    path[sizeof(path) - 1] = '\0';
    frame(&sent.frames[sent.n_frames++], (unsigned)i, 0x1000 + i, path);
  }
  adc_crash_record_send(channel[1], &sent);
  struct adc_wire_record record;
  unsigned char bytes[sizeof(record) + 1];
  ssize_t got = recv(channel[0], bytes, sizeof(bytes), 0);
  ck_assert(adc_wire_accept(bytes, (size_t)got, &record));
  struct adc_crash_record read;
  ck_assert(adc_crash_record_read(record.message, &read));
  ck_assert(read.handed_over);
  ck_assert_uint_gt(read.n_frames, 0);
  ck_assert_uint_lt(read.n_frames, ADC_FAULT_FRAMES);
  for (size_t i = 0; i < read.n_frames; i++) ck_assert_str_eq(read.frames[i].object, sent.frames[i].object);
  close(channel[0]);
  close(channel[1]);
}
END_TEST

/* The parent trusts nothing of the text. */
START_TEST(record_refuses_what_is_not_one) {
  static const char* const texts[] = {
      "",
      "signal 11 code 1 address 0x0\n",                           /* no handed */
      "signal 0 code 1 address 0x0 handed 0\n",                   /* no such signal */
      "signal 11 code 1 address 0x0 handed 2\n",                  /* handed is 0 or 1 */
      "signal 11 code 1 address 0x0 handed 0\n#0 0x10 \"\n",      /* a ditto with nothing above */
      "signal 11 code 1 address 0x0 handed 0\n#0 0x10 /a\n#1 0x", /* a frame cut */
      "signal 11 code 1 address 0x0 handed 0\n#0 12 /a\n",        /* an offset not in hex */
      "signal 11 code 1 address 0x0 handed 0\n#0 0x10 \n",        /* no object */
      "signal 11 code 1 address 0x0 handed 0\n0x10 /a\n",         /* no depth */
      "signal 11 code 1 address 0x11111111111111111 handed 0\n",  /* past 64 bits */
  };
  struct adc_crash_record read;
  for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
    ck_assert_msg(!adc_crash_record_read(texts[i], &read), "accepted: %s", texts[i]);
  }
  ck_assert(adc_crash_record_read("signal 11 code 1 address 0x0 handed 0\n#0 0x10 -\n", &read));
}
END_TEST

/* Where the innermost frames are all in system libraries down past what a
 * record holds (an abort from deep in libstdc++), the first frame outside
 * them is kept, with the one before it and its callers. */
START_TEST(frames_reach_past_the_system_s) {
  struct adc_fault_frame thread[12], picked[ADC_FAULT_FRAMES];
  for (unsigned i = 0; i < 12; i++)
    frame(&thread[i], i, 0x100 * i, i < 9 ? "/lib/libstdc++.so.6" : "/lib/libpeer.so");
  size_t n = adc_fault_frames_pick(thread, 12, picked, ADC_FAULT_FRAMES);
  const unsigned depths[] = {0, 1, 8, 9, 10, 11};
  ck_assert_uint_eq(n, sizeof(depths) / sizeof(depths[0]));
  for (size_t i = 0; i < n; i++) ck_assert_uint_eq(picked[i].depth, depths[i]);
  /* Where one is within reach, the innermost are kept as they are. */
  frame(&thread[3], 3, 0x300, "/lib/libpeer.so");
  n = adc_fault_frames_pick(thread, 12, picked, ADC_FAULT_FRAMES);
  ck_assert_uint_eq(n, ADC_FAULT_FRAMES);
  for (size_t i = 0; i < n; i++) ck_assert_uint_eq(picked[i].depth, i);
}
END_TEST

/* ---- Whose code ----------------------------------------------------------- */

static const char* const suite_files[] = {"/suite/adc-conform", "/suite/libadc_python.so", NULL};

static struct adc_crash_site site_of(const char* message) {
  struct adc_crash_site site;
  ck_assert_msg(adc_crash_site_read(message, suite_files, &site), "not read: %s", message);
  return site;
}

/* The innermost frame outside the system's libraries decides; the Python
 * shim is the suite's, libpython and what it loads the library's. */
START_TEST(innermost_frame_outside_the_system_decides) {
  struct adc_crash_site site = site_of(
      "signal 6 code -6 address 0x0 handed 0\n#0 0x10 /lib/libc.so.6\n#1 0x20 \"\n#2 0x30 "
      "/suite/libadc_python.so\n"
      "#3 0x40 /usr/lib/libpython3.11.so.1.0\n");
  ck_assert_int_eq(site.in, ADC_CRASH_IN_SUITE);
  ck_assert_int_eq(site.deciding, 2);
  ck_assert(site.frames[0].system && site.frames[1].system && !site.frames[2].system);
  site = site_of(
      "signal 11 code 1 address 0x8 handed 0\n#0 0x10 /lib/libstdc++.so.6\n#1 0x40 "
      "/usr/lib/libpython3.11.so.1.0\n"
      "#2 0x30 /suite/libadc_python.so\n");
  ck_assert_int_eq(site.in, ADC_CRASH_IN_LIBRARY);
  ck_assert_int_eq(site.deciding, 1);
  site = site_of("signal 11 code 1 address 0x8 handed 0\n#0 0x10 /suite/adc-conform\n");
  ck_assert_int_eq(site.in, ADC_CRASH_IN_SUITE);
}
END_TEST

/* A call to a wild address, system libraries alone, and a fault on memory
 * the library handed over are the library's. */
START_TEST(the_library_s_otherwise) {
  struct adc_crash_site site =
      site_of("signal 11 code 1 address 0xdead handed 0\n#0 0xdead -\n#1 0x30 /suite/adc-conform\n");
  ck_assert_int_eq(site.in, ADC_CRASH_IN_LIBRARY);
  ck_assert_int_eq(site.deciding, 0);
  site = site_of("signal 6 code -6 address 0x0 handed 0\n#0 0x10 /lib/libc.so.6\n#1 0x20 [vdso]\n");
  ck_assert_int_eq(site.in, ADC_CRASH_IN_LIBRARY);
  ck_assert_int_eq(site.deciding, -1);
  site = site_of("signal 11 code 1 address 0x7f0000000000 handed 1\n#0 0x30 /suite/adc-conform\n");
  ck_assert_int_eq(site.in, ADC_CRASH_IN_LIBRARY);
  ck_assert(site.handed_over);
}
END_TEST

/* Named by this test's own symbols: the function, its file and line. */
__attribute__((noinline)) static int a_function_with_a_name(int x) {
  return x * 3 + 1;
}

START_TEST(frames_are_symbolised) {
  Dl_info info;
  void* address = (void*)(uintptr_t)&a_function_with_a_name;
  ck_assert_int_ne(dladdr(address, &info), 0);
  char object[PATH_MAX];
  ck_assert_ptr_nonnull(realpath("/proc/self/exe", object));
  char message[PATH_MAX + 128];
  snprintf(message, sizeof(message), "signal 11 code 1 address 0x0 handed 0\n#0 0x%jx %s\n",
           (uintmax_t)((uintptr_t)address - (uintptr_t)info.dli_fbase), object);
  struct adc_crash_site site = site_of(message);
  ck_assert_str_eq(site.frames[0].symbol.function, "a_function_with_a_name");
  ck_assert_str_eq(base_name(site.frames[0].symbol.file), "test_crash_sites.c");
  ck_assert_int_gt(site.frames[0].symbol.line, 0);
  char words[1024];
  adc_crash_site_describe(&site, words, sizeof(words));
  ck_assert_msg(strstr(words, "a_function_with_a_name (test_crash_sites.c:") != NULL, "%s", words);
  ck_assert_int_eq(a_function_with_a_name(1), 4);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("crash_sites");
  TCase* runs = tcase_create("runs");
  tcase_set_timeout(runs, 120);
  tcase_add_loop_test(runs, crash_is_told_where_and_whose, 0, N_CRASHES * N_ISOLATIONS);
  tcase_add_test(runs, debug_case_runs_in_the_harness_s_process);
  suite_add_tcase(suite, runs);
  TCase* reading = tcase_create("reading");
  tcase_add_test(reading, record_reads_back_as_sent);
  tcase_add_test(reading, record_keeps_whole_frames);
  tcase_add_test(reading, record_refuses_what_is_not_one);
  tcase_add_test(reading, frames_reach_past_the_system_s);
  tcase_add_test(reading, innermost_frame_outside_the_system_decides);
  tcase_add_test(reading, the_library_s_otherwise);
  tcase_add_test(reading, frames_are_symbolised);
  suite_add_tcase(suite, reading);
  return run_suite(suite);
}
