/* The harness's instrumented async handler: how every producer rule of the
 * async device stream drives a producer under test (spec: "Async Device
 * Stream Interface").
 *
 * The harness is the consumer here.  It hands ExportAsyncFromJson a
 * handler (in an output slot) whose callbacks only observe: they count
 * every call, note the first wrong one of each kind, move the schema and
 * every extracted array into memory of the harness, and request more as a
 * script says.  No callback judges: callbacks run on the producer's
 * threads, verdicts are given on the case's main thread, from a snapshot
 * of the observations, once the producer has released the handler or gone
 * quiet.
 *
 * Calls the harness makes into the producer (request, cancel) are marked on
 * the calling thread, so that a handler callback arriving on that thread
 * before the call returns is caught as a synchronous call (spec: request
 * "MUST NOT synchronously call on_next_task or on_error"; cancel "MUST NOT
 * call any consumer-side handlers other than on_error").  A count of the
 * callbacks running catches callbacks that overlap, and a script may hold
 * callbacks of each kind open (on_schema, an on_next_task, the end,
 * on_error), so that a second thread of the producer has time to start a
 * callback beside them (spec: "Thread safety").
 *
 * A wait for a callback ends once the producer can make none: every other
 * thread of the case's process waits on the process itself
 * (support/quiescence.h), so a producer that never calls release, or
 * deadlocks, costs its case a few milliseconds.  A producer with a thread
 * running may be on its way to the callback and is waited for, up to
 * ADC_ASYNC_QUIET_SECONDS without any callback; where its process does not
 * go quiet (a thread on a timer) or threads cannot be seen, each wait keeps
 * the time limit it had before the harness could tell.  A run's records
 * live until the case's process ends: a producer that calls back late finds
 * them intact. */
#ifndef ADC_ASYNC_HANDLER_H
#define ADC_ASYNC_HANDLER_H

#include <stdbool.h>
#include <stdint.h>

#include "rule_api/case_context.h"

/* The rules (spec-tests/rules_async_*.c) that other async rules point at
 * when a step they depend on goes wrong. */
#define ADC_RULE_ASYNC_PRODUCER_SET "async.producer.set_before_on_schema"
#define ADC_RULE_ASYNC_SCHEMA "async.schema.matches_fixture"
#define ADC_RULE_ASYNC_TASKS "async.task.matches_fixture"
#define ADC_RULE_ASYNC_END "async.end.null_task"
#define ADC_RULE_ASYNC_RELEASE "async.release.last_and_once"
#define ADC_RULE_ASYNC_REENTRANT "async.request.reentrant"
#define ADC_RULE_ASYNC_VALID_EVENT "async.sync_event.valid_event"
#define ADC_RULE_ASYNC_EVENTS_OUTLIVE "async.lifetime.events_outlive_stream"

/* How long a wait lasts without any handler callback before it gives up,
 * where the producer's process does not go quiet. */
#define ADC_ASYNC_QUIET_SECONDS 1.0

/* What the handler does on its own, from inside its callbacks. */
struct adc_async_script {
  int64_t request_in_on_schema;    /* requested from inside on_schema; 0: nothing */
  int64_t request_in_on_next_task; /* from inside each on_next_task with a task; 0: nothing */
  int reject_schema;               /* on_schema returns this; 0: accepts the schema */
  int64_t reject_task;             /* on_next_task of this task (from 0) returns EINVAL; -1: none */
  bool extract_without_data;       /* extract_data(task, NULL): the data are not wanted */
  /* The callbacks of the kinds in `hold` (enum adc_async_hold) stay open
   * once they have done their work, until another callback starts or no
   * thread of the process can start one (all wait); `hold_seconds` where
   * the process does not go quiet: a producer that does not wait for
   * callbacks to return shows it there (spec: "Thread safety").  0
   * seconds: no callback is held. */
  unsigned hold;
  int64_t hold_task; /* ADC_ASYNC_HOLD_TASK: the on_next_task of this task (from 0) */
  double hold_seconds;
};

/* How long a script holds a callback open where the producer's process
 * does not go quiet and none of its threads runs (the hold ends once every
 * other thread waits, and goes on while one runs): a producer thread that
 * does not wait for the running callback starts its own within a
 * scheduler tick or two (at most 6 ms seen with both cores busy), so this
 * is about three times that (the serialised rules' methods say 0.02 s). */
#define ADC_ASYNC_OVERLAP_WATCH_SECONDS 0.02

/* The kinds of callback a script may hold open. */
enum adc_async_hold {
  ADC_ASYNC_HOLD_SCHEMA = 1u << 0, /* on_schema, once it requested what the script asks */
  ADC_ASYNC_HOLD_TASK = 1u << 1,   /* on_next_task of task hold_task, once extracted */
  ADC_ASYNC_HOLD_END = 1u << 2,    /* on_next_task(NULL) */
  ADC_ASYNC_HOLD_ERROR = 1u << 3,  /* on_error, once its arguments are read */
};

/* The script most rules use: everything requested from inside on_schema,
 * one batch more than the fixture has, so a producer that wants credit for
 * the end of the stream gets it. */
struct adc_async_script adc_async_script_request_all(const struct arrow_json_file* fixture);

/* A wrong call: how many, and which callback came first. */
struct adc_async_wrong_calls {
  int count;
  const char* first; /* "on_schema", "on_next_task", "on_next_task(NULL)", "on_error", "release" */
};

/* What the handler saw, as of a snapshot. */
struct adc_async_observed {
  const char* first_callback; /* NULL: none yet */
  int on_schema_calls;
  int tasks; /* on_next_task with a task */
  int ends;  /* on_next_task(NULL) */
  int on_error_calls;
  int release_calls;
  int callbacks; /* all of the above */
  /* Read when on_schema came, if handler->producer was set then. */
  bool producer_set_at_on_schema;
  ArrowDeviceType producer_device_type;
  bool metadata_present;
  char metadata_problem[256]; /* "" unless additional_metadata is malformed */
  /* Demand: the sum of the n > 0 the harness passed to request, and the
   * most tasks delivered beyond it at any on_next_task. */
  int64_t requested;
  int64_t most_tasks_beyond_requested;
  /* The first on_error's code, message (read with a bound, bytes that are
   * not UTF-8 replaced) and metadata. */
  int error_code;
  char error_message[256];
  bool error_message_null;
  bool error_message_well_formed; /* NUL-terminated UTF-8 in readable memory, or NULL */
  bool error_metadata_null;
  char error_metadata_problem[256]; /* "" unless the metadata is malformed */
  int first_extract_failure;        /* extract_data's first non-zero code; 0: none */
  int extract_failures;
  /* extract_data returned 0 and left the array unwritten (its release
   * still the fill pattern, ADC_FILL_BYTE): nothing was kept of it. */
  int extracts_unwritten;
  /* Arrays kept whose sync_event was no live event of the case's device
   * when extract_data returned (checked inside on_next_task), the first
   * of them and what was wrong with its event. */
  int dead_events_at_extract;
  int first_dead_event_task;
  char dead_event_problem[1024];
  bool cancelled;                                  /* the harness called cancel */
  struct adc_async_wrong_calls inside_request;     /* on_next_task, on_error inside request */
  struct adc_async_wrong_calls inside_cancel;      /* anything but on_error inside cancel */
  struct adc_async_wrong_calls overlapping;        /* entered while another callback ran */
  struct adc_async_wrong_calls after_release;      /* after release returned */
  struct adc_async_wrong_calls after_end;          /* on_next_task, on_error after on_next_task(NULL) */
  struct adc_async_wrong_calls after_rejection;    /* anything but release after a non-zero return */
  struct adc_async_wrong_calls error_after_cancel; /* on_error after the harness cancelled */
  struct adc_async_wrong_calls after_error;        /* anything but release after on_error */
  /* A request the handler made from inside this callback has not returned. */
  const char* request_stuck_in;
  /* The last wait that gave up found every thread of the process waiting
   * (else it gave up after ADC_ASYNC_QUIET_SECONDS, or its window). */
  bool went_quiet;
};

struct adc_async_run;

/* ExportAsyncFromJson with a new handler following `script`, on the case's
 * device.  NULL with a verdict when the producer refused the handler
 * (not_supported, with its message) or the call cannot be made. */
struct adc_async_run* adc_async_start(struct adc_case_context* ctx, const struct adc_async_script* script);
/* The same with adc_async_script_request_all: the usual course. */
struct adc_async_run* adc_async_start_whole_stream(struct adc_case_context* ctx);
/* The same through ExportFailingAsyncFromJson (optional, plugin ABI): a
 * stream whose batch `fail_at_batch` is replaced by on_error. */
struct adc_async_run* adc_async_start_failing(struct adc_case_context* ctx,
                                              const struct adc_async_script* script, int fail_at_batch);

/* Calls from the case's main thread, another thread than the producer's:
 * made only while the handler is not released (the producer object is
 * valid until release, spec: "ArrowAsyncProducer Lifetime"); a release
 * racing with them waits until they return. */
void adc_async_request(struct adc_async_run* run, int64_t n);
void adc_async_cancel(struct adc_async_run* run);

/* How far a run has come. */
enum adc_async_milestone {
  ADC_ASYNC_SCHEMA_SEEN, /* on_schema, on_error or release came */
  ADC_ASYNC_TASK_SEEN,   /* a task (beyond those counted before), or the stream ended */
  ADC_ASYNC_ENDED,       /* on_next_task(NULL), on_error or release came */
  ADC_ASYNC_RELEASED,
};

/* Waits until `milestone` (ADC_ASYNC_TASK_SEEN: until `tasks` tasks came),
 * or until the producer can make no callback (every other thread of the
 * process waits on it), or, without any callback, for `window` while none
 * of its threads runs (one waits on a timer, or threads cannot be seen) and
 * ADC_ASYNC_QUIET_SECONDS while one does; whether it came. */
bool adc_async_wait_for(struct adc_async_run* run, enum adc_async_milestone milestone, int tasks,
                        double window);

/* Lets the producer call what it will, on its own: returns once
 * `done(context)` (NULL: never; asked on this thread, no lock held, after
 * each look), or once the producer can do nothing more (every other thread
 * waits), or after `window` while none of its threads runs and
 * ADC_ASYNC_QUIET_SECONDS while one does; whether `done` held. */
bool adc_async_watch(double window, bool (*done)(void* context), void* context);

/* Why the last wait that gave up did ("every thread of its process
 * waited...", or "no callback for 1 s"), for messages. */
const char* adc_async_how_silent(const struct adc_async_observed* seen);

struct adc_async_observed adc_async_snapshot(struct adc_async_run* run);

/* The schema on_schema handed over (moved into the harness's memory), NULL
 * when none came; released by adc_async_release_results. */
struct ArrowSchema* adc_async_schema(struct adc_async_run* run);
/* Task `task`'s array, as extract_data wrote it, NULL when no such task
 * was extracted into an array; checked for writes outside it first (a
 * crash verdict and NULL when there were). */
struct ArrowDeviceArray* adc_async_array(struct adc_case_context* ctx, struct adc_async_run* run, int task);
/* Whether task `task`'s array, kept, had a sync_event that was NULL or a
 * live event of the case's device when extract_data returned: checked
 * there, inside on_next_task, while the producer is surely alive
 * (observed.dead_events_at_extract counts those that were not). */
bool adc_async_event_live_at_extract(struct adc_async_run* run, int task);
/* Before a rule waits on task `task`'s sync_event once the stream ended:
 * false, with an unresolved verdict naming ADC_RULE_ASYNC_EVENTS_OUTLIVE,
 * when the event was live when extracted and is no longer (spec: the
 * array's data, "This includes the sync_event member", live until its
 * release); true otherwise (an event never live is the wait's to report). */
bool adc_async_event_still_live(struct adc_case_context* ctx, struct adc_async_run* run, int task,
                                struct ArrowDeviceArray* array);
/* Releases the schema and arrays not yet released. */
void adc_async_release_results(struct adc_async_run* run);

/* How long a run that ended is given to release its handler, where its
 * process does not go quiet and no thread of it runs, before a rule not
 * about release stops waiting: release follows the end at once in a
 * conforming producer. */
#define ADC_ASYNC_RELEASE_GRACE_SECONDS 0.25

/* Waits for the end of the stream, then for release (the window
 * ADC_ASYNC_RELEASE_GRACE_SECONDS); whether release came.  Gives no
 * verdict.  Returns at once when on_schema came without handler->producer:
 * nothing can be requested. */
bool adc_async_wait_for_release(struct adc_async_run* run);

/* For a run that did not reach release: unresolved, naming the rule that
 * judges why (ADC_RULE_ASYNC_PRODUCER_SET, ADC_RULE_ASYNC_REENTRANT when a
 * request made from inside a callback never returned, ADC_RULE_ASYNC_END,
 * ADC_RULE_ASYNC_RELEASE). */
void adc_async_explain_stall(struct adc_case_context* ctx, struct adc_async_run* run);

/* The usual course of a rule: adc_async_wait_for_release, then
 * adc_async_explain_stall when release did not come; whether it came. */
bool adc_async_finish(struct adc_case_context* ctx, struct adc_async_run* run);

/* adc_async_start, then adc_async_finish: the run, released, or NULL with
 * a verdict (and its results released) when it could not be started or
 * did not reach release. */
struct adc_async_run* adc_async_run_to_release(struct adc_case_context* ctx,
                                               const struct adc_async_script* script);

/* For a rule judged before the stream ends: lets the producer run to
 * release (adc_async_wait_for_release, no verdict), then releases the
 * results. */
void adc_async_wind_down(struct adc_async_run* run);

/* Forgets the handler records of the last case: in a prepared process,
 * before the next case, once nothing of the last one is left running
 * (runner/prepared_process.h). */
void adc_async_runs_forget(void);

#endif /* ADC_ASYNC_HANDLER_H */
