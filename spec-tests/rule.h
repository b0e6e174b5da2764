/* How a rule of the spec is written.
 *
 * A rule is one row of the catalogue (rule_catalogue.c): a stable dotted ID,
 * the spec sentence it enforces, the role it tests, its severity, the
 * devices it applies to, and a body.  The harness runs the body once per
 * (device, fixture) pair, each time in a child process of its own, with the
 * library under test loaded there and nowhere else.
 *
 * A body reads its inputs from the case context and ends in one verdict:
 * adc_violation() when the library breaks the rule (fail for a MUST, warning
 * for a SHOULD), adc_not_supported() when the library lacks what the rule
 * needs, adc_unresolved() when something outside the rule (another rule's
 * failure, the environment) keeps it from being judged.  A body that
 * returns without a verdict passes.  The first verdict given is final. */
#ifndef ADC_RULE_H
#define ADC_RULE_H

#include <stdbool.h>
#include <stddef.h>

#include "adc/arrow_c_abi.h"
#include "arrow_json/arrow_json.h"
#include "device/device.h"
#include "entry_points.h"
#include "status.h"

enum adc_role { ADC_ROLE_PRODUCER, ADC_ROLE_CONSUMER };
enum adc_severity { ADC_MUST, ADC_SHOULD };

struct adc_case_context;

struct adc_rule {
  const char* id;       /* stable: reports and expectation files key on it */
  const char* clause;   /* the spec section, e.g. "Moving an array" */
  const char* sentence; /* the sentence it enforces, quoted */
  enum adc_role role;
  enum adc_severity severity;
  unsigned devices;     /* ADC_DEVICE_* bits */
  /* Which fixtures exercise the rule; NULL for every fixture. */
  bool (*applies)(const struct arrow_json_file* fixture);
  void (*run)(struct adc_case_context* ctx);
  const char* method;   /* how the harness tests it, one sentence */
};

extern const struct adc_rule adc_rules[];
extern const size_t adc_rule_count;

/* What a body works with. */
struct adc_case_context {
  const struct adc_rule* rule;
  const struct adc_device* device;
  const char* fixture_path;
  const struct arrow_json_file* fixture;
  struct adc_library* producer; /* set for producer rules */
  struct adc_library* consumer; /* set for consumer rules */
  enum adc_status status;
  bool has_verdict;
  char message[1024];
};

/* Verdicts.  Each returns nothing so that a body can `return adc_...(...)`. */
void adc_violation(struct adc_case_context* ctx, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));
void adc_not_supported(struct adc_case_context* ctx, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));
void adc_unresolved(struct adc_case_context* ctx, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A note kept with a passing verdict (e.g. which entry point was used). */
void adc_note(struct adc_case_context* ctx, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The status a violation of this rule gets: fail for MUST, warning for SHOULD. */
enum adc_status adc_violation_status(const struct adc_rule* rule);

/* Returns the entry point, or gives not_supported naming the missing symbol
 * and returns NULL. */
void* adc_require(struct adc_case_context* ctx, struct adc_library* library,
                  enum adc_entry_point entry_point);

#endif /* ADC_RULE_H */
