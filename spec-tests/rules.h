/* The bodies and fixture predicates the catalogue refers to. */
#ifndef ADC_RULES_H
#define ADC_RULES_H

#include "rule.h"

/* rules_device_array.c */
void rule_device_array_reserved_zeroed(struct adc_case_context* ctx);
void rule_device_array_device_type_matches(struct adc_case_context* ctx);
void rule_device_array_device_id_cpu(struct adc_case_context* ctx);
void rule_device_array_sync_event_cpu(struct adc_case_context* ctx);

/* rules_release.c */
void rule_array_release_non_null(struct adc_case_context* ctx);
void rule_schema_release_non_null(struct adc_case_context* ctx);
void rule_array_release_sets_null(struct adc_case_context* ctx);
void rule_schema_release_sets_null(struct adc_case_context* ctx);

/* rules_content.c */
void rule_schema_matches_fixture(struct adc_case_context* ctx);
void rule_array_matches_fixture(struct adc_case_context* ctx);
void rule_schema_release_independent(struct adc_case_context* ctx);

/* rules_move.c */
void rule_array_move_base(struct adc_case_context* ctx);
void rule_array_move_children(struct adc_case_context* ctx);
void rule_array_move_dictionary(struct adc_case_context* ctx);
bool fixture_has_top_level_dictionary(const struct arrow_json_file* fixture);

/* rules_lifetime.c */
void rule_array_release_no_leak(struct adc_case_context* ctx);

/* rules_consumer.c */
void rule_consumer_release_exactly_once(struct adc_case_context* ctx);
void rule_consumer_release_not_children(struct adc_case_context* ctx);
void rule_consumer_schema_release_exactly_once(struct adc_case_context* ctx);
void rule_consumer_buffers_not_written(struct adc_case_context* ctx);
void rule_consumer_offset_handled(struct adc_case_context* ctx);
void rule_consumer_null_count_unknown(struct adc_case_context* ctx);
void rule_consumer_detects_mismatch(struct adc_case_context* ctx);
bool fixture_has_int32_rows(const struct arrow_json_file* fixture);
bool fixture_has_nulls(const struct arrow_json_file* fixture);
bool fixture_has_values(const struct arrow_json_file* fixture);

#endif /* ADC_RULES_H */
