#include "runner/case_child.h"

#include <stdio.h>
#include <string.h>

#include "rule_api/async_handler.h"
#include "rule_api/needs.h"
#include "rule_api/output_slot.h"
#include "runner/crash_handler.h"
#include "runner/deliberate_suite_crash.h"
#include "runner/kept_threads.h"
#include "runner/task_process.h"
#include "wire/wire.h"

static int channel_fd = -1;

/* The guard's way out of a fault: async-signal-safe, as adc_wire_send is. */
static void send_fault_verdict(enum adc_status status, const char* message) {
  adc_wire_send(channel_fd, status, message);
}

/* What a prepared process made once for all its cases. */
static struct {
  struct adc_library library;
  struct adc_library pair_producer; /* a pair's run: the producer, beside the consumer */
  struct adc_device device;
  bool ready;
  /* What the library said it held (BytesAllocated) as the last case
   * began, where it says. */
  int64_t bytes_before;
} prepared;

/* BytesAllocated, where the library has it. */
static bool library_bytes(int64_t* bytes) {
  if (!prepared.library.present[ADC_EP_BytesAllocated]) return false;
  *bytes = prepared.library.functions.BytesAllocated();
  return true;
}

static void begin_context(struct adc_case_context* ctx, const struct adc_case* c, struct adc_device* device) {
  memset(ctx, 0, sizeof(*ctx));
  ctx->rule = c->rule;
  ctx->device = device;
  ctx->fixture_path = c->fixture->path;
  ctx->fixture = &c->fixture->model;
}

/* Opens the device the run's probe found available: a failure now is the
 * device refusing this process (busy, out of memory), in the runtime's
 * words, which the runner retries; never the case's verdict. */
static int open_probed_device(const struct adc_device_target* target, struct adc_device* device,
                              struct adc_error* error) {
  struct adc_error refusal;
  if (adc_device_open(target, device, &refusal) == 0) return 0;
  return adc_fail(error, "device %s refused the process: %s", target->name, refusal.message);
}

/* Loads a pair's producer where the run is a pair's (session.h, pairs),
 * beside the consumer: a library loaded as both is opened twice, each
 * handle its own role's.  0, or -1 with the reason. */
static int open_pair_producer(const struct adc_session* session, struct adc_library* producer,
                              struct adc_error* error) {
  if (!session->pairs) return 0;
  struct adc_error why;
  if (adc_library_open(producer, session->producer.path, session->producer.prefix, &why) == 0) return 0;
  return adc_fail(error, "cannot load the producer %s: %s", session->producer.path, why.message);
}

void adc_run_case_in_child(const struct adc_session* session, const struct adc_case* c, int fd) {
  channel_fd = fd;
  struct adc_device device = {c->device->driver, c->device->device_id, NULL};
  struct adc_case_context ctx;
  begin_context(&ctx, c, &device);
  adc_crash_handler_install(fd, send_fault_verdict);
  const struct adc_side* side = adc_side_tested_by(session, c->rule);
  struct adc_library library;
  struct adc_library producer;
  struct adc_error error;
  if (adc_library_open(&library, side->path, side->prefix, &error) != 0) {
    adc_unresolved(&ctx, "cannot load %s: %s", side->path, error.message);
  } else if (open_pair_producer(session, &producer, &error) != 0) {
    adc_unresolved(&ctx, "%s", error.message);
  } else if (open_probed_device(c->device, &device, &error) != 0) {
    adc_device_close(&device);
    adc_wire_send_kind(fd, ADC_WIRE_REFUSED, error.message);
    return;
  } else {
    if (adc_device_start_is_costly(c->device->driver)) adc_wire_send_kind(fd, ADC_WIRE_READY, "");
    ctx.library = &library;
    if (session->pairs) ctx.pair_producer = &producer;
    adc_deliberate_suite_crash();
    if (adc_needs_met(&ctx)) c->rule->run(&ctx);
  }
  /* Released at the end, as a library's own process would: whatever the
   * rule left on the device (a queue, a feed) it has freed by now. */
  adc_device_close(&device);
  adc_wire_send(fd, ctx.has_verdict ? ctx.status : ADC_PASS, ctx.message);
}

int adc_prepare_cases(const struct adc_case_group* group, bool* refused, struct adc_error* error) {
  channel_fd = ADC_TASK_CHANNEL_FD;
  adc_crash_handler_install(channel_fd, send_fault_verdict);
  *refused = false;
  /* The device first: the threads its runtime starts (CUDA's, PoCL's) are
   * the process's own, and every thread from the library's load on is the
   * library's, which the process follows (kept_threads.h). */
  if (open_probed_device(group->device, &prepared.device, error) != 0) {
    adc_device_close(&prepared.device);
    *refused = true;
    return -1;
  }
  adc_kept_threads_begin();
  struct adc_error why;
  if (adc_library_open(&prepared.library, group->side->path, group->side->prefix, &why) != 0) {
    adc_device_close(&prepared.device);
    return adc_fail(error, "cannot load %s: %s", group->side->path, why.message);
  }
  if (open_pair_producer(group->session, &prepared.pair_producer, error) != 0) {
    adc_device_close(&prepared.device);
    return -1;
  }
  prepared.ready = true;
  return 0;
}

/* What the last case of a prepared process kept to outlive anything its
 * library did (output slots, handler records, guarded regions) goes:
 * nothing of that case is left running, or the process would have ended
 * after it (runner/process_state.h). */
static void forget_the_last_case(void) {
  adc_output_slots_release();
  adc_async_runs_forget();
}

void adc_run_prepared_case(const struct adc_case_task* task, struct adc_task_verdict* verdict) {
  forget_the_last_case();
  library_bytes(&prepared.bytes_before);
  const struct adc_case* c = task->c;
  struct adc_case_context ctx;
  begin_context(&ctx, c, &prepared.device);
  ctx.library = &prepared.library;
  if (task->session->pairs) ctx.pair_producer = &prepared.pair_producer;
  adc_deliberate_suite_crash();
  if (adc_needs_met(&ctx)) c->rule->run(&ctx);
  verdict->status = ctx.has_verdict ? ctx.status : ADC_PASS;
  snprintf(verdict->message, sizeof(verdict->message), "%.1011s", ctx.message);
}

bool adc_prepared_left_behind(char* text, size_t size) {
  if (!prepared.ready) return false;
  /* Memory the library says it still holds: a later case's count of it
   * (the *.no_leak rules) would start from it, and a leak freed by the
   * next case's first call would go unseen. */
  int64_t bytes_after;
  if (library_bytes(&bytes_after) && bytes_after > prepared.bytes_before) {
    snprintf(text, size, "left the library holding %lld more bytes (BytesAllocated)",
             (long long)(bytes_after - prepared.bytes_before));
    return true;
  }
  struct adc_error error;
  if (adc_device_settle(&prepared.device, &error) == 0) return false;
  snprintf(text, size, "left device %s unusable: %.900s", prepared.device.driver->name, error.message);
  return true;
}
