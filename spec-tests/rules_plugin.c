/* Rules on the plugin ABI itself (CONFORMANCE.md, "Plugin ABI"): what every
 * verdict of the other rules relies on when a library says no. */
#include "rule_api/library_text.h"
#include "rule_api/producer_calls.h"

/* A library's message is read with a bound whatever it is; this rule makes
 * one that is not NUL-terminated UTF-8 a finding of its own. */
static void declines_missing_batch(struct adc_case_context* ctx) {
  char text[ADC_LIBRARY_TEXT_LIMIT + 128];
  bool well_formed;
  int missing = (int)ctx->fixture->n_batches;
  const char* message = adc_export_missing_batch(ctx, missing, text, sizeof(text), &well_formed);
  if (ctx->has_verdict) return;
  if (message == NULL) {
    adc_violation(ctx, "batch %d, which the fixture does not have, was exported instead of declined",
                  missing);
  } else if (!well_formed) {
    adc_violation(ctx, "batch %d was declined with a message that is not NUL-terminated UTF-8: %s", missing,
                  message);
  }
}

static const struct adc_rule rules[] = {
    {
        .id = "plugin.export.declines_missing_batch",
        .clause = "Plugin ABI",
        .sentence = "Conventions: functions returning const char* return NULL on success, else a UTF-8 "
                    "message owned by the library and valid until its next call.",
        .method = "Asks for the batch after the fixture's last one: the producer must decline it with a "
                  "NUL-terminated UTF-8 message (read with a bound of 4096 bytes).",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_SHOULD,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = declines_missing_batch,
    },
};

const struct adc_rule_family adc_plugin_rules = ADC_RULE_FAMILY(rules);
