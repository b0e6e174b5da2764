/* The self-test table: every rule is implemented, a deliberately broken
 * implementation makes it fail, and makes no other rule fail, and the
 * reference pair raises no false alarm.  Rules depending on the broken one
 * may end unresolved; none may end fail, crash, timeout or warning.  Each
 * library names the rule it must fail (broken_FailsRule), so this test keeps
 * no list of its own.  Each is run on every device its rule applies to and
 * this machine has (the CPU and the simulated device everywhere), since a
 * rule must hold on every device.  The table (twin, rule, statuses, other
 * rules failing, verdict, totals) is printed and kept in the build folder as
 * self-test-table.md.
 *
 * A twin may name the fixtures that show its defect (broken_ShownByFixtures):
 * it is then run on those alone, every rule of its role on them.  Several
 * twins' runs go at once, since most of a run is spent waiting on the
 * bounds that catch a library which never does what it should.
 *
 * Arguments narrow the run to the twins whose name or rule matches one of
 * them (globs): `test_broken_implementations producer_wrong_value` or
 * `test_broken_implementations 'async.tasks.*'`; `--device NAME` (repeated)
 * to those devices, and `--fixture NAME` (repeated) runs the twins that
 * name no fixtures of their own on those: a GPU session's budget cannot
 * pay every twin on every fixture.  `--own-rule` runs each twin's own rule
 * alone, not every rule of its role: whether it is caught, not whether it
 * fails nothing else (that precision is judged on the CPU and the
 * simulated device, where every rule runs; ci/gpu-session.sh).
 * `--round-trip` runs the twins whose defect reaches a library judged
 * through the round-trip ABI (broken_ReachedByRoundTrip: hooks spoiling
 * correct exports) through it: the round trip's passthrough, spoiled by
 * the twin (fixtures/deliberately_broken/rule_twins/twin_through_round_trip.c),
 * which each must fail by its rule alone, as through the JSON ABI.  A
 * consumer's reading shown in what it hands on (broken_HandedOnAlone:
 * consumer.accepted.values_kept's twins) is run through the round trip
 * alone: the JSON ABI's consumer compares itself and hands nothing on, and
 * the table says so.
 * `--isolation case|shared` hands each run that isolation, so that the
 * table made in either can be compared (CONFORMANCE.md, "Prepared
 * processes").
 * `--through-copies` makes the twins that spoil exported buffers write
 * them through the device's copies even where the CPU could write in
 * place, as a GPU's memory makes them, and the consumer twins read them
 * through those copies (ADC_TWINS_THROUGH_COPIES,
 * fixtures/deliberately_broken/rule_twins/broken_common.c), has the simulated device decline to
 * make memory read-only, as a GPU's cannot (ADC_SIMULATED_NO_READ_ONLY:
 * consumer.buffers.not_written then reads the buffers back through the
 * copies instead), and checks that each twin run took that path.  A
 * narrowed run prints its table, checks the twins it ran only and keeps
 * no table file.
 *
 * The table says, for each twin and each device considered (those
 * --device names, else every one here but opencl), whether it was caught
 * there, or why it was not run there: its defect does not show there
 * (broken_ShownOnDevices), its rule does not apply there, or the rule
 * cannot judge that device (a need of the rule the device lacks: memory
 * the harness can make read-only).  A twin run on no device is listed as
 * such, never counted as caught or missed.
 *
 * Exit status 77 (a skipped test), with a line "not run: ..." saying why,
 * when nothing was run: no device --device names is here (the probe's
 * reason), or no twin selected has a case on the devices and fixtures
 * named.  Such a run has tested nothing and must not read as a pass. */
#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/device.h"
#include "report/report.h"
#include "rule_api/needs.h"
#include "rule_api/rule.h"
#include "test_support.h"

#define MAX_DEFECTS 256
/* Devices a twin may run on here, at most. */
#define ADC_MAX_TEST_DEVICES 16

#define MAX_SHOWN_BY 8

struct defect {
  char name[128]; /* fixtures/deliberately_broken/rule_twins/<name>.c */
  char library[512];
  char rule[128]; /* the one rule it must fail */
  /* The fixtures that show the defect; none: every fixture. */
  char shown_by[MAX_SHOWN_BY][64];
  int n_shown_by;
  /* The devices on which it shows (broken_ShownOnDevices), separated by
   * spaces; "": every device its rule runs on. */
  char shown_on[256];
  bool selected; /* the arguments, if any, name it */
  /* Its defect reaches a library judged through the round trip
   * (broken_ReachedByRoundTrip): hooks spoiling correct exports. */
  bool reached_by_round_trip;
  /* It is a consumer's reading, shown in what a round-trip consumer hands
   * on alone (broken_HandedOnAlone): not run through the JSON ABI. */
  bool handed_on_alone;
  int copy_uses; /* --through-copies: its writes or reads through the device's copies */
};

static struct defect defects[MAX_DEFECTS];
static int n_defects;
/* Whether the arguments narrowed the run to some twins, devices or
 * fixtures. */
static bool narrowed;

/* --device and --fixture: none given means every device the twin's rule
 * runs on here, every fixture (or the twin's own). */
#define MAX_NAMED 16
static const char* named_devices[MAX_NAMED];
static int n_named_devices;
static const char* named_fixtures[MAX_NAMED];
static int n_named_fixtures;
/* --own-rule and --through-copies; --isolation MODE, handed to each run
 * (NULL: the default), so that the table can be made in both modes. */
static bool own_rule_only;
static bool through_copies;
/* --round-trip: each twin whose defect reaches the round trip is judged
 * through it (twin_through_round_trip.c): a twin written once, caught by
 * its rule alone through either ABI. */
static bool through_round_trip;
static const char* isolation;
/* Where the twins log their writes through copies (--through-copies). */
static char copies_log[64];

/* What a run that tested nothing exits with: a skipped test. */
#define EXIT_NOTHING_RUN 77

/* The text a twin's function `symbol` returns ("" when it has none). */
static const char* twin_text(void* handle, const char* symbol) {
  void* address = dlsym(handle, symbol);
  const char* (*text)(void) = NULL;
  if (address != NULL) memcpy(&text, &address, sizeof(address));
  const char* value = text != NULL ? text() : NULL;
  return value != NULL ? value : "";
}

/* Asks the library which rule it must fail and which fixtures show it.
 * Loading a twin runs no code of its own but a constructor filling its
 * forwarding table. */
static void read_declarations(struct defect* d) {
  void* handle = dlopen(d->library, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    fprintf(stderr, "cannot load %s: %s\n", d->library, dlerror());
    exit(EXIT_FAILURE);
  }
  snprintf(d->rule, sizeof(d->rule), "%s", twin_text(handle, "broken_FailsRule"));
  char shown_by[512];
  snprintf(shown_by, sizeof(shown_by), "%s", twin_text(handle, "broken_ShownByFixtures"));
  for (char* name = strtok(shown_by, " "); name != NULL && d->n_shown_by < MAX_SHOWN_BY;
       name = strtok(NULL, " ")) {
    snprintf(d->shown_by[d->n_shown_by++], sizeof(d->shown_by[0]), "%s", name);
  }
  snprintf(d->shown_on, sizeof(d->shown_on), "%s", twin_text(handle, "broken_ShownOnDevices"));
  d->reached_by_round_trip = twin_text(handle, "broken_ReachedByRoundTrip")[0] != '\0';
  d->handed_on_alone = twin_text(handle, "broken_HandedOnAlone")[0] != '\0';
  dlclose(handle);
}

/* Reads --device and --fixture, and marks the twins the other arguments
 * name (by their name or their rule's ID, as globs); every twin when none
 * does. */
static void select_defects(int argc, char** argv) {
  const char* globs[MAX_NAMED];
  int n_globs = 0;
  for (int a = 1; a < argc; a++) {
    bool device = strcmp(argv[a], "--device") == 0, fixture = strcmp(argv[a], "--fixture") == 0;
    if (strcmp(argv[a], "--own-rule") == 0) {
      own_rule_only = true;
    } else if (strcmp(argv[a], "--through-copies") == 0) {
      through_copies = true;
    } else if (strcmp(argv[a], "--round-trip") == 0) {
      through_round_trip = true;
    } else if (strcmp(argv[a], "--isolation") == 0 && a + 1 < argc) {
      isolation = argv[++a];
    } else if ((device || fixture) && a + 1 < argc && n_named_devices < MAX_NAMED &&
               n_named_fixtures < MAX_NAMED) {
      if (device) named_devices[n_named_devices++] = argv[++a];
      if (fixture) named_fixtures[n_named_fixtures++] = argv[++a];
    } else if (n_globs < MAX_NAMED) {
      globs[n_globs++] = argv[a];
    }
  }
  narrowed = argc > 1;
  for (int i = 0; i < n_defects; i++) {
    defects[i].selected = n_globs == 0;
    for (int g = 0; g < n_globs; g++) {
      defects[i].selected |=
          fnmatch(globs[g], defects[i].name, 0) == 0 || fnmatch(globs[g], defects[i].rule, 0) == 0;
    }
    defects[i].selected &= !through_round_trip || defects[i].reached_by_round_trip;
  }
}

/* Whether `name` is one of the words of `list`. */
static bool among_words(const char* list, const char* name) {
  size_t length = strlen(name);
  for (const char* p = strstr(list, name); p != NULL; p = strstr(p + 1, name)) {
    bool starts = p == list || p[-1] == ' ';
    bool ends = p[length] == '\0' || p[length] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

/* The devices considered for the twins: those --device names (NAME or
 * NAME:ID).  Without --device, every driver's first device (opencl
 * included: its prepared processes start PoCL once for many cases, about
 * 35 s of the table on two cores), and a device id other than the first
 * that a selected twin shows on (its shown_on_devices: "simulated:1"),
 * where that twin alone runs. */
static struct adc_device_target targets[ADC_MAX_TEST_DEVICES];
static int n_targets;

static void consider(const struct adc_device_target* target) {
  for (int t = 0; t < n_targets; t++) {
    if (strcmp(targets[t].name, target->name) == 0) return;
  }
  if (n_targets < ADC_MAX_TEST_DEVICES) targets[n_targets++] = *target;
}

static void settle_targets(void) {
  struct adc_error error;
  for (int n = 0; n < n_named_devices; n++) {
    struct adc_device_target target;
    if (adc_device_target_parse(named_devices[n], &target, &error) != 0) {
      fprintf(stderr, "test_broken_implementations: %s\n", error.message);
      exit(2);
    }
    consider(&target);
  }
  if (n_named_devices > 0) return;
  for (size_t d = 0; d < adc_device_count(); d++) {
    struct adc_device_target first = adc_device_target_of(adc_device_at(d));
    consider(&first);
  }
  for (int i = 0; i < n_defects; i++) {
    char words[sizeof(defects[i].shown_on)];
    snprintf(words, sizeof(words), "%s", defects[i].shown_on);
    char* rest = words;
    for (char* word = strsep(&rest, " "); word != NULL; word = strsep(&rest, " ")) {
      struct adc_device_target target;
      if (defects[i].selected && strchr(word, ':') != NULL &&
          adc_device_target_parse(word, &target, &error) == 0)
        consider(&target);
    }
  }
}

/* Whether a device id other than the first: considered for the twins
 * that show on it alone. */
static bool is_other_id(const struct adc_device_target* target) {
  return target->device_id > 0;
}

static int by_name(const void* a, const void* b) {
  return strcmp(((const struct defect*)a)->name, ((const struct defect*)b)->name);
}

static void discover_defects(void) {
  DIR* dir = opendir(ADC_BUILD_DIR);
  if (dir == NULL) exit(EXIT_FAILURE);
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    size_t length = strlen(entry->d_name);
    if (strncmp(entry->d_name, "libbroken_", 10) != 0 || length < 14 ||
        strcmp(entry->d_name + length - 3, ".so") != 0) {
      continue;
    }
    if (n_defects == MAX_DEFECTS) {
      fprintf(stderr, "more than %d twins in %s: raise MAX_DEFECTS\n", MAX_DEFECTS, ADC_BUILD_DIR);
      exit(EXIT_FAILURE);
    }
    struct defect* d = &defects[n_defects++];
    snprintf(d->name, sizeof(d->name), "%.*s", (int)(length - 13), entry->d_name + 10);
    snprintf(d->library, sizeof(d->library), "%s/%s", ADC_BUILD_DIR, entry->d_name);
    read_declarations(d);
  }
  closedir(dir);
  qsort(defects, (size_t)n_defects, sizeof(defects[0]), by_name);
}

static bool is_failing(const char* status) {
  return strcmp(status, "fail") == 0 || strcmp(status, "crash") == 0 || strcmp(status, "timeout") == 0 ||
         strcmp(status, "warning") == 0;
}

/* Whether a device --device names is here; for each that is not, a line
 * "not run: no NAME device (the probe's reason)".  A name no device has is
 * bad input (settle_targets: exit status 2). */
static bool a_named_device_is_here(void) {
  bool any = false;
  for (int t = 0; t < n_targets; t++) {
    struct adc_error error;
    if (target_opens(&targets[t], &error) == 0) {
      any = true;
    } else {
      printf("not run: no %s device (%s)\n", targets[t].name, error.message);
    }
  }
  return any;
}

/* Whether each device opens on this machine, asked once (an opencl
 * device starts its platform): 1 it does, -1 it does not, 0 not asked. */
static int device_here[ADC_MAX_TEST_DEVICES];
static char device_absence[ADC_MAX_TEST_DEVICES][sizeof(
    ((struct adc_error*)0)->message)]; /* the probe's reason, where it does not */

static bool opens_here(size_t index) {
  if (device_here[index] == 0) {
    struct adc_error error;
    device_here[index] = target_opens(&targets[index], &error) == 0 ? 1 : -1;
    if (device_here[index] < 0)
      snprintf(device_absence[index], sizeof(device_absence[0]), "%s", error.message);
  }
  return device_here[index] > 0;
}

/* Why twin `d` is not run on `device`, which opens here, into `why`; ""
 * when it is. */
static void why_not_run(const struct defect* d, const struct adc_rule* rule,
                        const struct adc_device_target* target, char* why, size_t size) {
  char lacks[256];
  why[0] = '\0';
  if (d->handed_on_alone && !through_round_trip) {
    snprintf(why, size,
             "its defect shows in what a consumer hands on, which the JSON ABI's consumer does not: run "
             "through the round trip (--round-trip)");
  } else if (d->shown_on[0] != '\0' && !among_words(d->shown_on, target->name)) {
    snprintf(why, size, "its defect does not show there (it shows on %s)", d->shown_on);
  } else if (rule->devices != NULL && !rule->devices->holds(target)) {
    snprintf(why, size, "its rule does not apply there");
  } else if (!adc_device_meets_needs(rule, target->driver, lacks, sizeof(lacks))) {
    snprintf(why, size, "its rule cannot judge the device: %s", lacks);
  }
}

/* ---- The self-test table: what each twin got, gathered once (in main,
 * before the suite forks its tests), printed, and judged by the tests. */

#define MAX_STATUSES 8

/* What one twin got on one device considered, or why it was not run
 * there. */
struct device_outcome {
  const char* device;
  char not_run[320];       /* why it was not run there; "" when it was */
  bool missing_report;     /* the run wrote no report */
  int own_cases;           /* its rule's cases */
  int own_failures;        /* of those, the ones failing (fail, crash, timeout, warning) */
  bool should_rule_failed; /* a SHOULD rule ended fail instead of warning */
  bool wrong_exit_code;    /* the run's exit status did not follow the rule's severity */
};

/* What one twin got, over every device considered. */
struct outcome {
  struct device_outcome on[ADC_MAX_TEST_DEVICES];
  int n_on;
  int runs; /* devices it was run on */
  struct {
    char name[16];
    int count;
  } statuses[MAX_STATUSES]; /* the statuses of its own rule's cases */
  int n_statuses;
  int other_failures;    /* cases of other rules failing */
  char first_other[256]; /* the first of those: "case: status: message" */
};

static struct outcome outcomes[MAX_DEFECTS];

/* Every case of every run of the table that crashed in the suite's own
 * code (test_support.h, is_suite_crash): "<library>: <id>: <message>".  A
 * defect of the suite, never a twin's verdict: the table lists each, and
 * the test fails on any. */
#define MAX_SUITE_CRASHES 32
static char suite_crashes[MAX_SUITE_CRASHES][400];
static int n_suite_crashes;

static void note_suite_crashes(const char* library, const cJSON* report) {
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    if (!is_suite_crash(item)) continue;
    if (n_suite_crashes < MAX_SUITE_CRASHES) {
      const char* name = strrchr(library, '/');
      snprintf(suite_crashes[n_suite_crashes], sizeof(suite_crashes[0]), "%s: %s: %.280s",
               name != NULL ? name + 1 : library, cJSON_GetObjectItem(item, "id")->valuestring,
               cJSON_GetObjectItem(item, "message")->valuestring);
    }
    n_suite_crashes++;
  }
}
/* The reference pair run on every device: its cases that neither passed
 * nor were not_supported, and the first of them (count -1: the run wrote
 * no report). */
struct false_alarms {
  int count;
  char first[256];
};
static struct false_alarms reference_alarms;

static void count_status(struct outcome* o, const char* status) {
  for (int i = 0; i < o->n_statuses; i++) {
    if (strcmp(o->statuses[i].name, status) == 0) {
      o->statuses[i].count++;
      return;
    }
  }
  if (o->n_statuses == MAX_STATUSES) return;
  snprintf(o->statuses[o->n_statuses].name, sizeof(o->statuses[0].name), "%s", status);
  o->statuses[o->n_statuses++].count = 1;
}

/* Counts what one run of a twin reported (NULL: it wrote no report) into
 * its outcome on that device, and frees the report. */
static void count_run(const struct defect* d, const struct adc_rule* rule, cJSON* report, int exit_code,
                      struct outcome* o, struct device_outcome* on) {
  if (report == NULL) {
    on->missing_report = true;
    return;
  }
  note_suite_crashes(d->library, report);
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* id = cJSON_GetObjectItem(item, "id")->valuestring;
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    if (strcmp(cJSON_GetObjectItem(item, "rule")->valuestring, d->rule) == 0) {
      count_status(o, status);
      on->own_cases++;
      on->own_failures += is_failing(status);
      on->should_rule_failed |= rule->severity == ADC_SHOULD && strcmp(status, "fail") == 0;
    } else if (is_failing(status) && o->other_failures++ == 0) {
      snprintf(o->first_other, sizeof(o->first_other), "%s: %s: %.160s", id, status,
               cJSON_GetObjectItem(item, "message")->valuestring);
    }
  }
  /* MUST failures fail the run; a SHOULD shortfall alone does not, and a
   * SHOULD rule run alone (--own-rule) leaves its side with no MUST case:
   * not shown to conform. */
  int expected_exit = rule->severity == ADC_MUST ? EXIT_FAILURE : own_rule_only ? ADC_EXIT_NOT_SHOWN : 0;
  on->wrong_exit_code = exit_code != expected_exit;
  cJSON_Delete(report);
}

/* ---- Running the twins, several at once -------------------------------- */

/* Runs of adc-conform going at once: each mostly waits, on bounds or on its
 * own cases' processes. */
#define RUNS_AT_ONCE 4

/* One run of a twin on one device. */
struct twin_run {
  int defect;
  const struct adc_device_target* device;
  struct device_outcome* outcome; /* its twin's outcome on the device */
  pid_t pid;
  char report[160];
};

static void start_run(struct twin_run* run) {
  const struct defect* d = &defects[run->defect];
  const struct adc_rule* rule = adc_rule_find(d->rule);
  snprintf(run->report, sizeof(run->report), "/tmp/adc_twin_%ld_%d_%s.json", (long)getpid(), run->defect,
           run->device->name);
  char filters[MAX_SHOWN_BY][320]; /* device, rule ID and fixture name, each bounded */
  const char* args[14 + 2 * MAX_SHOWN_BY] = {rule->role == ADC_ROLE_PRODUCER ? "--producer" : "--consumer",
                                             d->library,
                                             "--device",
                                             run->device->name,
                                             "--report-json",
                                             run->report};
  int n = 6;
  if (through_round_trip) {
    /* The twin reached through the round-trip ABI: the passthrough its
     * hooks spoil (twin_through_round_trip.c), which loads it. */
    args[1] = BUILD_PATH("libtwin_through_round_trip.so");
    args[n++] = "--prefix";
    args[n++] = "broken_round_trip";
    setenv("ADC_ROUND_TRIP_TWIN", d->library, 1);
  }
  if (isolation != NULL) {
    args[n++] = "--isolation";
    args[n++] = isolation;
  }
  /* The twin's own fixtures, else those --fixture names, else the
   * hand-written ones: they show every defect that is not about a layout
   * of its own, and a twin about one names its fixture; the generated set
   * would multiply the self-test's time by its size. */
  bool own = d->n_shown_by > 0;
  if (!own && n_named_fixtures == 0) {
    args[n++] = "--fixtures";
    args[n++] = HAND_WRITTEN_FIXTURES;
  }
  int n_fixtures = own ? d->n_shown_by : n_named_fixtures < MAX_SHOWN_BY ? n_named_fixtures : MAX_SHOWN_BY;
  /* Every rule of its role, or its own alone (--own-rule). */
  const char* rules = own_rule_only ? d->rule : "*";
  for (int f = 0; f < n_fixtures; f++) {
    snprintf(filters[f], sizeof(filters[f]), "%s/%s/%s", run->device->name, rules,
             own ? d->shown_by[f] : named_fixtures[f]);
    args[n++] = "--filter";
    args[n++] = filters[f];
  }
  if (n_fixtures == 0 && own_rule_only) {
    snprintf(filters[0], sizeof(filters[0]), "%s/%s/*", run->device->name, rules);
    args[n++] = "--filter";
    args[n++] = filters[0];
  }
  args[n] = NULL;
  unlink(run->report);
  run->pid = spawn_conform(args);
}

static void finish_run(const struct twin_run* run, int status) {
  const struct defect* d = &defects[run->defect];
  int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  cJSON* report = read_json_file(run->report);
  count_run(d, adc_rule_find(d->rule), report, exit_code, &outcomes[run->defect], run->outcome);
  unlink(run->report);
}

/* Plans the runs of twin `i`: one on each device considered that opens
 * here, unless why_not_run says why not (its outcome there keeps the
 * reason).  Returns the new count of runs. */
static int plan_runs(int i, struct twin_run* runs, int n_runs) {
  const struct adc_rule* rule = adc_rule_find(defects[i].rule);
  struct outcome* o = &outcomes[i];
  for (int t = 0; t < n_targets; t++) {
    const struct adc_device_target* device = &targets[t];
    bool named = n_named_devices > 0 || among_words(defects[i].shown_on, device->name);
    if ((is_other_id(device) && !named) || !opens_here((size_t)t)) continue;
    struct device_outcome* on = &o->on[o->n_on++];
    on->device = device->name;
    why_not_run(&defects[i], rule, device, on->not_run, sizeof(on->not_run));
    if (on->not_run[0] == '\0') runs[n_runs++] = (struct twin_run){i, device, on, 0, ""};
  }
  return n_runs;
}

/* Runs every selected twin on every device considered where it is to run,
 * RUNS_AT_ONCE at a time, and fills `outcomes`. */
static void run_selected_defects(void) {
  static struct twin_run runs[MAX_DEFECTS * ADC_MAX_TEST_DEVICES];
  int n_runs = 0;
  for (int i = 0; i < n_defects; i++) {
    if (defects[i].selected && adc_rule_find(defects[i].rule) != NULL) n_runs = plan_runs(i, runs, n_runs);
  }
  int started = 0, running = 0;
  while (started < n_runs || running > 0) {
    while (running < RUNS_AT_ONCE && started < n_runs) {
      start_run(&runs[started++]);
      running++;
    }
    int status;
    pid_t pid = wait(&status);
    if (pid < 0) break;
    for (int r = 0; r < started; r++) {
      if (runs[r].pid != pid) continue;
      runs[r].pid = 0; /* a later run may get the same pid */
      finish_run(&runs[r], status);
      running--;
      break;
    }
  }
  /* A run none of whose rule's cases fall on the fixtures --fixture names
   * did not run the twin: those fixtures cannot show its defect. */
  for (int r = 0; r < n_runs; r++) {
    struct device_outcome* on = runs[r].outcome;
    if (n_named_fixtures > 0 && defects[runs[r].defect].n_shown_by == 0 && !on->missing_report &&
        on->own_cases == 0) {
      snprintf(on->not_run, sizeof(on->not_run), "its rule has no case on the fixtures named");
    }
    outcomes[runs[r].defect].runs += on->not_run[0] == '\0';
  }
}

/* --through-copies: counts each twin's lines in the log its runs wrote (a
 * line, its library's file name, per write or batch read through the
 * device's copies). */
static void count_copy_uses(void) {
  FILE* log = fopen(copies_log, "r");
  if (log == NULL) return;
  char line[600];
  while (fgets(line, sizeof(line), log) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    for (int i = 0; i < n_defects; i++) {
      const char* file = strrchr(defects[i].library, '/');
      defects[i].copy_uses += strcmp(file != NULL ? file + 1 : defects[i].library, line) == 0;
    }
  }
  fclose(log);
  unlink(copies_log);
}

/* Runs adc-conform with `args` and counts the cases that neither passed
 * nor were not_supported. */
static void count_false_alarms(const char* const* args, struct false_alarms* alarms) {
  int exit_code;
  cJSON* report = run_conform_report(args, &exit_code);
  if (report == NULL) {
    alarms->count = -1;
    return;
  }
  note_suite_crashes(args[1], report);
  alarms->count = 0;
  const cJSON* item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItem(report, "cases")) {
    const char* status = cJSON_GetObjectItem(item, "status")->valuestring;
    bool fine = strcmp(status, "pass") == 0 || strcmp(status, "not_supported") == 0;
    if (fine || alarms->count++ > 0) continue;
    snprintf(alarms->first, sizeof(alarms->first), "%s: %s: %.160s",
             cJSON_GetObjectItem(item, "id")->valuestring, status,
             cJSON_GetObjectItem(item, "message")->valuestring);
  }
  cJSON_Delete(report);
}

/* The reference pair on every device: every case passes, or is
 * not_supported (a GPU device without its GPU). */
static void run_reference_pair(void) {
  const char* args[] = {"--producer", "reference", "--consumer", "reference", "--device", "all", NULL};
  count_false_alarms(args, &reference_alarms);
}

static void print_false_alarms(FILE* out, const char* subject, const struct false_alarms* alarms) {
  if (alarms->count < 0) {
    fprintf(out, "False alarms on %s: no report\n", subject);
  } else {
    fprintf(out, "False alarms on %s: %d%s%s\n", subject, alarms->count, alarms->count ? ", the first " : "",
            alarms->first);
  }
}

/* Caught on one device: its rule failed there, as its severity asks. */
static bool caught_on(const struct device_outcome* on) {
  return on->not_run[0] == '\0' && !on->missing_report && on->own_failures > 0 && !on->should_rule_failed &&
         !on->wrong_exit_code;
}

/* Caught: run on some device, and caught on every device it ran on. */
static bool caught(const struct outcome* o) {
  for (int d = 0; d < o->n_on; d++) {
    if (o->on[d].not_run[0] == '\0' && !caught_on(&o->on[d])) return false;
  }
  return o->runs > 0;
}

static const char* verdict_of(const struct outcome* o) {
  if (o->runs == 0) return "not run on these devices";
  if (!caught(o)) return "MISSED";
  return o->other_failures > 0 ? "IMPRECISE" : "caught";
}

/* Appends to `text` (of `size`) what `format` says. */
static void append(char* text, size_t size, const char* format, ...) __attribute__((format(printf, 3, 4)));
static void append(char* text, size_t size, const char* format, ...) {
  size_t used = strlen(text);
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(text + used, size - used, format, arguments);
  va_end(arguments);
}

/* Per device considered: caught there, missed, or why it was not run. */
static void describe_devices(const struct outcome* o, char* text, size_t size) {
  text[0] = '\0';
  for (int d = 0; d < o->n_on; d++) {
    const struct device_outcome* on = &o->on[d];
    const char* verdict = on->not_run[0] != '\0' ? "not run, "
                          : on->missing_report   ? "no report"
                          : caught_on(on)        ? "caught"
                                                 : "MISSED";
    append(text, size, "%s%s: %s%s", d ? "; " : "", on->device, verdict, on->not_run);
  }
}

/* The devices the twins were considered on, those not here (the probe's
 * reason), and opencl when left out. */
static void print_devices(FILE* out) {
  char considered[512] = "", absent[2048] = "";
  for (int t = 0; t < n_targets; t++) {
    const struct adc_device_target* device = &targets[t];
    if (opens_here((size_t)t)) {
      append(considered, sizeof(considered), "%s%s", considered[0] ? ", " : "", device->name);
    } else {
      append(absent, sizeof(absent), "%s%s (%s)", absent[0] ? "; " : "", device->name, device_absence[t]);
    }
  }
  fprintf(out, "Devices: %s.%s%s%s\n\n", considered, absent[0] ? " Not here: " : "", absent,
          absent[0] ? "." : "");
}

/* The table, as Markdown, to `out`. */
static void print_table(FILE* out) {
  int caught_precisely = 0, imprecise = 0, run = 0, not_run = 0;
  print_devices(out);
  fprintf(out,
          "| Twin | Rule it must fail | Statuses of that rule | Devices | Other rules failing | Verdict |\n");
  fprintf(out, "|---|---|---|---|---|---|\n");
  for (int i = 0; i < n_defects; i++) {
    const struct outcome* o = &outcomes[i];
    if (!defects[i].selected) continue;
    run += o->runs > 0;
    not_run += o->runs == 0;
    char statuses[256] = "";
    for (int s = 0; s < o->n_statuses; s++) {
      append(statuses, sizeof(statuses), "%s%s %d", s ? ", " : "", o->statuses[s].name, o->statuses[s].count);
    }
    if (through_copies) append(statuses, sizeof(statuses), "; %d use(s) of copies", defects[i].copy_uses);
    char devices[ADC_MAX_TEST_DEVICES * 360];
    describe_devices(o, devices, sizeof(devices));
    char others[300] = "none";
    if (own_rule_only) snprintf(others, sizeof(others), "not run (--own-rule)");
    if (o->other_failures > 0) snprintf(others, sizeof(others), "%d (%s)", o->other_failures, o->first_other);
    fprintf(out, "| %s | `%s` | %s | %s | %s | %s |\n", defects[i].name, defects[i].rule,
            o->runs > 0 ? statuses : "-", devices, others, verdict_of(o));
    caught_precisely += caught(o) && o->other_failures == 0;
    imprecise += caught(o) && o->other_failures > 0;
  }
  if (own_rule_only) {
    fprintf(out, "\nTwins caught by their own rule, run alone (other rules not run): %d / %d\n",
            caught_precisely, run);
  } else {
    fprintf(out, "\nTwins caught with the right rule and nothing else: %d / %d\n", caught_precisely, run);
  }
  fprintf(out, "Twins caught that also failed another rule: %d\n", imprecise);
  /* One line with the missed (ci/run-all-tests.sh shows the table's last five). */
  fprintf(out, "Twins missed: %d; not run on these devices (each row says why): %d\n",
          run - caught_precisely - imprecise, not_run);
  fprintf(out, "Cases that crashed in the suite's own code (a defect of the suite): %d\n", n_suite_crashes);
  for (int i = 0; i < n_suite_crashes && i < MAX_SUITE_CRASHES; i++) fprintf(out, "- %s\n", suite_crashes[i]);
  if (narrowed) return;
  print_false_alarms(out, "the reference pair (every device)", &reference_alarms);
  /* The peers' false alarms are their own tests' (peer_<name>_<role>,
   * interop/peers.tsv): each judged once, by its expectations. */
}

/* Runs the selected twins and, unless the run is narrowed, the reference
 * pair; prints the table, and keeps the whole one
 * in the build folder (ci/run-all-tests.sh shows it). */
static void build_table(void) {
  if (through_copies) {
    snprintf(copies_log, sizeof(copies_log), "/tmp/adc_twin_copies_%ld.log", (long)getpid());
    unlink(copies_log);
    setenv("ADC_TWINS_THROUGH_COPIES", copies_log, 1);
    setenv("ADC_SIMULATED_NO_READ_ONLY", "1", 1);
  }
  run_selected_defects();
  if (through_copies) {
    unsetenv("ADC_TWINS_THROUGH_COPIES");
    unsetenv("ADC_SIMULATED_NO_READ_ONLY");
    count_copy_uses();
  }
  if (narrowed) {
    print_table(stdout);
    return;
  }
  run_reference_pair();
  print_table(stdout);
  FILE* kept = fopen(BUILD_PATH("self-test-table.md"), "w");
  if (kept != NULL) {
    print_table(kept);
    fclose(kept);
  }
}

/* The twins run on some device, by index into `defects`: a twin run on
 * none is in the table with the reasons, and is no test. */
static int twins_run[MAX_DEFECTS];
static int n_twins_run;

START_TEST(defect_fails_exactly_its_rule) {
  const struct defect* d = &defects[twins_run[_i]];
  const struct outcome* o = &outcomes[twins_run[_i]];
  ck_assert_msg(adc_rule_find(d->rule) != NULL, "%s names no rule of the catalogue: '%s'", d->name, d->rule);
  for (int i = 0; i < o->n_on; i++) {
    const struct device_outcome* on = &o->on[i];
    if (on->not_run[0] != '\0') continue;
    ck_assert_msg(!on->missing_report, "no report for %s on %s", d->name, on->device);
    ck_assert_msg(!on->should_rule_failed, "%s on %s: the SHOULD rule %s ended fail, not warning", d->name,
                  on->device, d->rule);
    ck_assert_msg(on->own_failures > 0, "%s did not make %s fail on %s", d->name, d->rule, on->device);
    ck_assert_msg(!on->wrong_exit_code,
                  "%s: its run on %s exited with a status its rule's severity does not give", d->name,
                  on->device);
  }
  ck_assert_msg(o->other_failures == 0, "%s: %s also made %d case(s) of other rules fail, the first %s",
                d->name, d->rule, o->other_failures, o->first_other);
  /* Caught, but in place, would not show the copy path. */
  ck_assert_msg(!through_copies || d->copy_uses > 0, "%s used none of the device's copies (--through-copies)",
                d->name);
}
END_TEST

START_TEST(reference_pair_has_no_false_alarm) {
  ck_assert_msg(reference_alarms.count == 0,
                "the reference pair: %d case(s) neither pass nor not_supported, the first %s",
                reference_alarms.count, reference_alarms.first);
}
END_TEST

/* A crash in the suite's own code judged nothing of the library: the
 * suite's defect, whichever run met it. */
START_TEST(no_case_crashed_in_the_suite) {
  ck_assert_msg(n_suite_crashes == 0, "%d case(s) crashed in the suite's own code, the first %s",
                n_suite_crashes, suite_crashes[0]);
}
END_TEST

START_TEST(every_rule_has_a_defect) {
  for (size_t r = 0; r < adc_rule_count(); r++) {
    /* A rule judging Python objects has Python twins, which
     * test_pycapsule_rules checks (fixtures/deliberately_broken/misbehaving/python). */
    if (adc_rule_at(r)->judges_python_objects) continue;
    /* A rule judging a pair is failed by twins in a matrix with the
     * reference, which test_matrix checks (each_pair_rule_is_failed_by_its_twins_alone). */
    if (adc_rule_at(r)->judges_a_pair) continue;
    bool covered = false;
    for (int d = 0; d < n_defects; d++) covered |= strcmp(defects[d].rule, adc_rule_at(r)->id) == 0;
    ck_assert_msg(covered, "rule %s has no deliberately broken implementation", adc_rule_at(r)->id);
  }
}
END_TEST

START_TEST(every_defect_source_was_built) {
  DIR* dir = opendir(ADC_SOURCE_DIR "/fixtures/deliberately_broken/rule_twins");
  ck_assert_ptr_nonnull(dir);
  struct dirent* entry;
  int sources = 0;
  while ((entry = readdir(dir)) != NULL) {
    const char* name = entry->d_name;
    size_t length = strlen(name);
    bool defect = strncmp(name, "producer_", 9) == 0 || strncmp(name, "consumer_", 9) == 0;
    if (!defect || strcmp(name + length - 2, ".c") != 0) continue;
    sources++;
    bool built = false;
    for (int d = 0; d < n_defects; d++)
      built |= strncmp(defects[d].name, name, length - 2) == 0 && defects[d].name[length - 2] == '\0';
    ck_assert_msg(built, "fixtures/deliberately_broken/rule_twins/%s has no library in the build folder",
                  name);
  }
  closedir(dir);
  ck_assert_int_eq(sources, n_defects);
}
END_TEST

/* The twins selected and run on some device, into twins_run: none means
 * nothing was run. */
static void list_twins_run(void) {
  for (int i = 0; i < n_defects; i++) {
    if (defects[i].selected && outcomes[i].runs > 0) twins_run[n_twins_run++] = i;
  }
}

int main(int argc, char** argv) {
  discover_defects();
  select_defects(argc, argv);
  settle_targets();
  if (n_named_devices > 0 && !a_named_device_is_here()) return EXIT_NOTHING_RUN;
  build_table();
  list_twins_run();
  if (n_twins_run == 0) {
    printf("not run: no twin selected has a case on the devices and fixtures named\n");
    return EXIT_NOTHING_RUN;
  }
  Suite* suite = suite_create("broken_implementations");
  TCase* each = tcase_create("each_defect");
  tcase_add_loop_test(each, defect_fails_exactly_its_rule, 0, n_twins_run);
  if (!narrowed) {
    tcase_add_test(each, reference_pair_has_no_false_alarm);
  }
  tcase_add_test(each, no_case_crashed_in_the_suite);
  tcase_add_test(each, every_rule_has_a_defect);
  tcase_add_test(each, every_defect_source_was_built);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
