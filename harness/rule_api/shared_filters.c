/* Filters more than one family of rules uses, written once so that their
 * descriptions (printed in the catalogue) cannot drift apart. */
#include "rule_api/rule.h"

#include "rule_api/library.h"

bool adc_rule_judges_batches(const struct adc_rule* rule) {
  adc_entry_point_set batch_entry_points =
      ADC_NEED(ExportBatchFromJson) | ADC_NEED(ExportDeviceBatchFromJson) |
      ADC_NEED(ImportBatchAndCompareToJson) | ADC_NEED(ImportDeviceBatchAndCompareToJson);
  return (rule->needs & batch_entry_points) != 0;
}

bool adc_rule_applies_to_fixture(const struct adc_rule* rule, const struct arrow_json_file* fixture) {
  if (adc_rule_judges_batches(rule) && fixture->n_batches == 0) return false;
  return rule->fixtures == NULL || rule->fixtures->holds(fixture);
}

const struct adc_fixture_filter adc_fixtures_with_values = {arrow_json_has_values,
                                                            "at least one non-null value"};

/* The rules on the order of async calls, of both roles: a stream of
 * several batches takes every step of the sequence (schema, tasks on
 * demand, waiting for demand, the end) at least once. */
static bool has_several_batches(const struct arrow_json_file* fixture) {
  return fixture->n_batches > 1;
}
const struct adc_fixture_filter adc_fixtures_with_several_batches = {has_several_batches,
                                                                     "more than one batch"};

/* The rules on an async producer's error path: it fails once a batch is
 * requested (plugin_abi.h, ExportFailingAsyncFromJson), so the fixture must
 * have one to request. */
static bool has_batches(const struct arrow_json_file* fixture) {
  return fixture->n_batches > 0;
}
const struct adc_fixture_filter adc_fixtures_with_batches = {has_batches, "at least one batch"};

/* A device stream is a stream of device arrays on every device, the CPU
 * included: on the CPU the device `cpu` judges it, and the device that
 * judges the CPU a second time through device arrays would only repeat
 * every case. */
static bool streams_judged_here(const struct adc_device_target* device) {
  return !(device->driver->kind->arrow_type == ARROW_DEVICE_CPU && device->driver->batches_as_device_arrays);
}
const struct adc_device_filter adc_devices_for_streams = {
    streams_judged_here,
    "other than cpu_device_arrays (on the CPU, cpu judges streams: they carry device arrays there too)"};
