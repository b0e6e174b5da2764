/* The verdict API of case_context.h. */
#include <stdarg.h>
#include <stdio.h>

#include "rule_api/case_context.h"

static void give_verdict(struct adc_case_context* ctx, enum adc_status status, const char* fmt, va_list ap) {
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

void adc_crash(struct adc_case_context* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  give_verdict(ctx, ADC_CRASH, fmt, ap);
  va_end(ap);
}

void adc_timed_out(struct adc_case_context* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  give_verdict(ctx, ADC_TIMEOUT, fmt, ap);
  va_end(ap);
}

void adc_note(struct adc_case_context* ctx, const char* fmt, ...) {
  if (ctx->has_verdict) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->message, sizeof(ctx->message), fmt, ap);
  va_end(ap);
}
