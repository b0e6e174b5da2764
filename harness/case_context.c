/* The verdict API of spec-tests/rule.h, and the child side of a case. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "guard.h"
#include "session.h"
#include "wire.h"

static void give_verdict(struct adc_case_context* ctx, enum adc_status status, const char* fmt,
                         va_list ap) {
  if (ctx->has_verdict) return; /* the first verdict is final */
  ctx->has_verdict = true;
  ctx->status = status;
  vsnprintf(ctx->message, sizeof(ctx->message), fmt, ap);
}

enum adc_status adc_violation_status(const struct adc_rule* rule) {
  return rule->severity == ADC_MUST ? ADC_FAIL : ADC_WARNING;
}

void adc_violation(struct adc_case_context* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  give_verdict(ctx, adc_violation_status(ctx->rule), fmt, ap);
  va_end(ap);
}

void adc_not_supported(struct adc_case_context* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  give_verdict(ctx, ADC_NOT_SUPPORTED, fmt, ap);
  va_end(ap);
}

void adc_unresolved(struct adc_case_context* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  give_verdict(ctx, ADC_UNRESOLVED, fmt, ap);
  va_end(ap);
}

void adc_note(struct adc_case_context* ctx, const char* fmt, ...) {
  if (ctx->has_verdict) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->message, sizeof(ctx->message), fmt, ap);
  va_end(ap);
}

void* adc_require(struct adc_case_context* ctx, struct adc_library* library,
                  enum adc_entry_point entry_point) {
  void* symbol = library->symbols[entry_point];
  if (symbol == NULL) {
    adc_not_supported(ctx, "%s does not export %s_%s", library->path, library->prefix,
                      adc_entry_point_suffixes[entry_point]);
  }
  return symbol;
}

void adc_run_case_in_child(const struct adc_session* session, const struct adc_case* c,
                           int verdict_fd) {
  struct adc_case_context ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.rule = c->rule;
  ctx.device = session->device;
  ctx.fixture_path = c->fixture->path;
  ctx.fixture = &c->fixture->model;
  adc_guard_install(verdict_fd);

  struct adc_library library;
  const struct adc_side* side = c->rule->role == ADC_ROLE_PRODUCER ? &session->producer : &session->consumer;
  char error[1024];
  char reason[512];
  if (adc_library_open(&library, side->path, side->prefix, error, sizeof(error)) != 0) {
    adc_unresolved(&ctx, "cannot load %s: %s", side->path, error);
  } else if (session->device->probe(reason, sizeof(reason)) != 0) {
    adc_not_supported(&ctx, "device %s unavailable: %s", session->device->name, reason);
  } else {
    if (c->rule->role == ADC_ROLE_PRODUCER) {
      ctx.producer = &library;
    } else {
      ctx.consumer = &library;
    }
    c->rule->run(&ctx);
  }
  adc_wire_send(verdict_fd, ctx.has_verdict ? ctx.status : ADC_PASS, ctx.message);
}
