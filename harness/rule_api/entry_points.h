/* The entry points of the JSON ABI, as the harness counts them: an enum
 * and sets of them, derived from the one list in include/adc/plugin_abi.h. */
#ifndef ADC_RULE_API_ENTRY_POINTS_H
#define ADC_RULE_API_ENTRY_POINTS_H

#include "adc/plugin_abi.h"

/* ADC_EP_ExportSchemaFromJson, ADC_EP_BytesAllocated, ...: one per entry
 * point, in the order of the list. */
#define ADC_DECLARE_ENTRY_POINT_ENUM(name, suffix, result, parameters, arguments) ADC_EP_##name,
enum adc_entry_point { ADC_PLUGIN_ENTRY_POINTS(ADC_DECLARE_ENTRY_POINT_ENUM) ADC_EP_COUNT };
#undef ADC_DECLARE_ENTRY_POINT_ENUM

/* A set of entry points, as a rule declares what it needs:
 * ADC_NEED(ExportSchemaFromJson) | ADC_NEED(ExportBatchFromJson). */
typedef unsigned adc_entry_point_set;
#define ADC_ENTRY_POINT_BIT(entry_point) ((adc_entry_point_set)1u << (entry_point))
#define ADC_NEED(name) ADC_ENTRY_POINT_BIT(ADC_EP_##name)
_Static_assert(ADC_EP_COUNT <= 32, "adc_entry_point_set has room for 32 entry points");

/* "ExportSchemaFromJson", ...: the name the code and CONFORMANCE.md use. */
const char* adc_entry_point_name(enum adc_entry_point entry_point);

#endif /* ADC_RULE_API_ENTRY_POINTS_H */
