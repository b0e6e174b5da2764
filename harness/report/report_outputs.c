#include "report/report_outputs.h"

#include <string.h>

#include "report/report.h"

static int write_junit(const struct adc_run_record* record, const char* path, struct adc_error* error) {
  return adc_write_junit_report(path, record, error);
}

static int write_tap(const struct adc_run_record* record, const char* path, struct adc_error* error) {
  (void)path;
  (void)error;
  adc_print_tap_report(stdout, record);
  return 0;
}

const struct adc_report_format adc_report_formats[ADC_REPORT_FORMAT_COUNT] = {
    {"junit", "FILE",
     "write a JUnit XML report (fail: failure; crash, timeout:\n"
     "error; not_supported, unresolved: skipped)",
     write_junit},
    {"tap", NULL,
     "TAP version 14 on standard output, one point per case;\n"
     "the console report goes to standard error",
     write_tap},
};

struct option adc_report_format_option(size_t format, int value) {
  const struct adc_report_format* f = &adc_report_formats[format];
  return (struct option){f->option, f->argument != NULL ? required_argument : no_argument, NULL, value};
}

void adc_report_format_chosen(struct adc_report_outputs* outputs, size_t format, const char* argument) {
  outputs->chosen[format] = true;
  outputs->argument[format] = adc_report_formats[format].argument != NULL ? argument : NULL;
}

bool adc_report_outputs_any(const struct adc_report_outputs* outputs) {
  for (size_t i = 0; i < ADC_REPORT_FORMAT_COUNT; i++) {
    if (outputs->chosen[i]) return true;
  }
  return false;
}

bool adc_report_outputs_use_stdout(const struct adc_report_outputs* outputs) {
  for (size_t i = 0; i < ADC_REPORT_FORMAT_COUNT; i++) {
    if (outputs->chosen[i] && adc_report_formats[i].argument == NULL) return true;
  }
  return false;
}

/* "  --junit FILE" padded to the 30 columns where --help's texts start,
 * and each further line of the text indented as far. */
void adc_print_report_format_help(FILE* out) {
  for (size_t i = 0; i < ADC_REPORT_FORMAT_COUNT; i++) {
    const struct adc_report_format* f = &adc_report_formats[i];
    char name[64];
    snprintf(name, sizeof(name), "--%s%s%s", f->option, f->argument != NULL ? " " : "",
             f->argument != NULL ? f->argument : "");
    fprintf(out, "  %-26s  ", name);
    for (const char* line = f->help; *line != '\0';) {
      size_t length = strcspn(line, "\n");
      fprintf(out, "%.*s\n", (int)length, line);
      line += length;
      if (*line == '\n') {
        line++;
        fprintf(out, "%30s", "");
      }
    }
  }
}

int adc_write_report_outputs(const struct adc_run_record* record, const struct adc_report_outputs* outputs,
                             FILE* console, struct adc_error* error) {
  int status = 0;
  struct adc_error failure;
  for (size_t i = 0; i < ADC_REPORT_FORMAT_COUNT; i++) {
    if (outputs->chosen[i] && adc_report_formats[i].write(record, outputs->argument[i], &failure) != 0 &&
        status == 0) {
      *error = failure;
      status = -1;
    }
  }
  if (adc_github_actions()) {
    adc_print_github_annotations(console, record);
    if (adc_append_github_summary(record, &failure) != 0 && status == 0) {
      *error = failure;
      status = -1;
    }
  }
  return status;
}
