/* The reports of an interop matrix (outcome/matrix_record.h): the console
 * (a grid per device, then the cases that did not pass, each with the
 * side at fault), the JSON report (matrix.schema.json: every pair's cases
 * in the run report's case schema, both sides named) and the HTML page
 * (matrix_html.c).  None keeps or frees anything of the record. */
#ifndef ADC_MATRIX_REPORT_H
#define ADC_MATRIX_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "outcome/matrix_record.h"
#include "support/error.h"

/* The grid of each device and the cases that did not pass (all of them
 * with `verbose`, else the first ADC_MATRIX_CONSOLE_CASES), then a line of
 * counts and how the cases stood against --expect. */
#define ADC_MATRIX_CONSOLE_CASES 40
void adc_print_matrix_console(FILE* out, const struct adc_matrix_record* matrix, bool verbose, bool colour);

/* The JSON report (the caller owns it). */
cJSON* adc_matrix_json(const struct adc_matrix_record* matrix);

/* adc_matrix_json written to `path`.  Returns 0, or -1 with the reason. */
int adc_write_matrix_json(const char* path, const struct adc_matrix_record* matrix, struct adc_error* error);

/* The HTML page (matrix_html.c): one self-contained file, no network and
 * no script, the grid of each device coloured by each cell's worst status,
 * each cell opening its cases that did not pass with their messages and
 * the side at fault, and each library's cells with the reference.  Every
 * text a library under test wrote (messages, names) is escaped: a message
 * that is markup or script stays text.  Returns 0, or -1 with the reason. */
int adc_write_matrix_html(const char* path, const struct adc_matrix_record* matrix, struct adc_error* error);

#endif /* ADC_MATRIX_REPORT_H */
