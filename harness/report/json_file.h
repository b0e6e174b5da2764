/* A whole JSON file, read or written (a report, a bundle's environment). */
#ifndef ADC_REPORT_JSON_FILE_H
#define ADC_REPORT_JSON_FILE_H

#include <cjson/cJSON.h>

#include "support/error.h"

/* The parsed document at `path`, owned by the caller (cJSON_Delete); NULL
 * with the reason when it cannot be read or is not JSON. */
cJSON* adc_read_json_file(const char* path, struct adc_error* error);

/* Writes `json` to `path`, indented, with a final newline.  Returns 0, or
 * -1 with the reason; `json` stays the caller's. */
int adc_write_json_file(const char* path, const cJSON* json, struct adc_error* error);

#endif /* ADC_REPORT_JSON_FILE_H */
