#include "runner/case_child.h"

#include <string.h>

#include "rule_api/guard.h"
#include "rule_api/needs.h"
#include "runner/wire.h"

static int verdict_fd = -1;

/* The guard's way out of a fault: async-signal-safe, as adc_wire_send is. */
static void send_fault_verdict(enum adc_status status, const char* message) {
  adc_wire_send(verdict_fd, status, message);
}

void adc_run_case_in_child(const struct adc_session* session, const struct adc_case* c, int fd) {
  verdict_fd = fd;
  struct adc_case_context ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.rule = c->rule;
  struct adc_device device = {c->device->driver, c->device->device_id, NULL};
  ctx.device = &device;
  ctx.fixture_path = c->fixture->path;
  ctx.fixture = &c->fixture->model;
  adc_guard_install(send_fault_verdict);

  const struct adc_side* side = adc_side_tested_by(session, c->rule);
  struct adc_library library;
  struct adc_error error;
  if (adc_library_open(&library, side->path, side->prefix, &error) != 0) {
    adc_unresolved(&ctx, "cannot load %s: %s", side->path, error.message);
  } else if (adc_device_open(c->device, &device, &error) != 0) {
    /* The run's probe found the device available (runner.c settles the
     * cases of one it did not), but this process starts the runtime anew. */
    adc_not_supported(&ctx, "device %s unavailable: %s", c->device->driver->name, error.message);
  } else {
    ctx.library = &library;
    if (adc_needs_met(&ctx)) c->rule->run(&ctx);
  }
  /* Released at the end, as a library's own process would: whatever the
   * rule left on the device (a queue, a feed) it has freed by now. */
  adc_device_close(&device);
  adc_wire_send(fd, ctx.has_verdict ? ctx.status : ADC_PASS, ctx.message);
}
