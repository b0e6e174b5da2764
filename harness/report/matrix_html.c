/* The HTML page of an interop matrix (matrix_report.h): a header with the
 * counts, a grid per device (a row per producer, a column per consumer),
 * each cell opening its cases that did not pass, then each library's cells
 * with the reference.
 *
 * The page shows what libraries under test wrote, so it is built to stay
 * inert whatever they wrote: every such text is escaped, the page holds no
 * script and loads nothing (inline CSS only, so that it can be mailed or
 * kept as a CI artifact and still read), and a Content-Security-Policy
 * forbids script and every fetch, so that even markup that slipped through
 * the escaping could neither run nor call out.  Cells open with <details>,
 * which needs no script.
 *
 * Each grid cell carries what the JSON report's matrix.cells says of it
 * (data-producer, data-consumer, data-device, data-worst, data-cases,
 * data-pass), so that tests/matrix_page_check.py can read the grid back
 * from the page as a browser built it and compare. */
#include <errno.h>
#include <string.h>

#include "report/matrix_report.h"
#include "report/xml_text.h"
#include "support/version.h"

/* The page's own title: the checker compares the title a browser shows
 * with this one, to see that nothing on the page rewrote it. */
#define PAGE_TITLE "adc-conform interop matrix"

/* Green for pass, grey for a decline, amber for what judged nothing or
 * only a SHOULD, red for what a MUST or the process broke; "none" for a
 * pair the matrix did not run, "empty" for a pair with no case on a device. */
static const char STYLE[] =
    "body{font-family:system-ui,sans-serif;margin:1.5em;color:#1b1b1b;line-height:1.35}\n"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
    "th,td{border:1px solid #999;padding:.3em .6em;vertical-align:top;text-align:left}\n"
    "th{background:#eee}\n"
    "td.cell{min-width:10em}\n"
    ".s-pass{background:#c6efce}\n"
    ".s-not_supported{background:#dedede}\n"
    ".s-warning,.s-unresolved{background:#ffe08a}\n"
    ".s-fail,.s-timeout,.s-crash{background:#f4b3b3}\n"
    ".s-none,.s-empty{background:#fff;color:#777}\n"
    ".worst{font-weight:bold}\n"
    ".tag{padding:0 .3em;border:1px solid #999;font-weight:bold}\n"
    ".msg{white-space:pre-wrap;font-family:monospace;font-size:90%;margin:.2em 0 0}\n"
    "details ul{margin:.4em 0;padding-left:1.2em}\n"
    "details li{margin:.5em 0}\n"
    "code{font-size:90%}\n"
    "a{color:inherit}\n";

/* Text from a library or the command line, as HTML: the reports' XML
 * escaping serves, since HTML5 knows the same five entities (&apos;
 * included) in text and in quoted attribute values, and every attribute
 * here is quoted with ".  NULL is written as nothing. */
static void put_text(FILE* out, const char* text) {
  if (text != NULL) adc_put_xml_text(out, text);
}

/* ` class="s-<status>"`: the status names are plain identifiers, so they
 * need no escaping. */
static void put_status_class(FILE* out, const char* extra, enum adc_status status) {
  fprintf(out, " class=\"%ss-%s\"", extra, adc_status_name(status));
}

static void put_head(FILE* out) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", out);
  /* Before the style and the body, which it governs. */
  fputs(
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'\">\n",
      out);
  fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", out);
  fprintf(out, "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n", PAGE_TITLE, STYLE);
}

/* The command line of the first pair's run: every pair's run shares it. */
static void put_command_line(FILE* out, const struct adc_matrix_record* matrix) {
  if (matrix->n_pairs == 0 || !cJSON_IsArray(matrix->pairs[0].record.command_line)) return;
  fputs("<p>Command line: <code>", out);
  const cJSON* arg = NULL;
  bool first = true;
  cJSON_ArrayForEach(arg, matrix->pairs[0].record.command_line) {
    if (!cJSON_IsString(arg)) continue;
    if (!first) fputc(' ', out);
    put_text(out, arg->valuestring);
    first = false;
  }
  fputs("</code></p>\n", out);
}

static void put_libraries(FILE* out, const struct adc_matrix_record* matrix) {
  fputs("<table class=\"libraries\">\n<tr><th>library</th><th>spec</th><th>sides</th></tr>\n", out);
  for (size_t l = 0; l < matrix->n_libraries; l++) {
    const struct adc_matrix_library* library = &matrix->libraries[l];
    fputs("<tr><td>", out);
    put_text(out, library->name);
    fputs("</td><td><code>", out);
    put_text(out, library->spec);
    fprintf(out, "</code></td><td>%s%s%s%s</td></tr>\n", library->is_producer ? "producer" : "",
            library->is_producer && library->is_consumer ? ", " : "", library->is_consumer ? "consumer" : "",
            library->is_reference ? " (the reference)" : "");
  }
  fputs("</table>\n", out);
}

/* The counts of the whole matrix, a column per status (those with cases
 * coloured), then what the console's last line says. */
static void put_counts(FILE* out, const struct adc_matrix_record* matrix) {
  fputs("<table class=\"counts\">\n<tr><th>cases</th>", out);
  for (int s = 0; s < ADC_STATUS_COUNT; s++) fprintf(out, "<th>%s</th>", adc_status_name((enum adc_status)s));
  fprintf(out, "<th>not as expected</th><th>exit status</th></tr>\n<tr><td>%zu</td>", matrix->cases);
  for (int s = 0; s < ADC_STATUS_COUNT; s++) {
    if (matrix->counts[s] > 0) {
      fputs("<td", out);
      put_status_class(out, "", (enum adc_status)s);
      fprintf(out, ">%zu</td>", matrix->counts[s]);
    } else {
      fputs("<td>0</td>", out);
    }
  }
  fprintf(out, "<td>%zu</td><td>%d</td></tr>\n</table>\n", matrix->failing_run_cases, matrix->exit_status);
}

static void put_header(FILE* out, const struct adc_matrix_record* matrix) {
  fprintf(
      out, "<h1>Interop matrix</h1>\n<p>adc-conform %s (%s): %zu libraries, %zu pairs, %zu cases in %.1f s.",
      ADC_VERSION, ADC_GIT_COMMIT, matrix->n_libraries, matrix->n_pairs, matrix->cases, matrix->wall_seconds);
  if (matrix->interrupted_by != 0)
    fprintf(out, " <strong>Interrupted by %s: the matrix is incomplete.</strong>",
            adc_signal_name(matrix->interrupted_by));
  fputs("</p>\n", out);
  put_command_line(out, matrix);
  put_libraries(out, matrix);
  put_counts(out, matrix);
}

/* One case that did not pass: its ID, status, the side at fault (and the
 * reference's case that shows it), how it stood against --expect, and its
 * message, whitespace kept (messages run over lines). */
static void put_case(FILE* out, const struct adc_matrix_record* matrix, const struct adc_matrix_pair* pair,
                     const struct adc_case_record* c) {
  const char* shown_by = NULL;
  enum adc_matrix_blame blame = adc_matrix_blame_of(matrix, pair, c, &shown_by);
  fputs("<li><span", out);
  put_status_class(out, "tag ", c->status);
  fprintf(out, ">%s</span> <code>", adc_status_name(c->status));
  put_text(out, c->id);
  fputs("</code>", out);
  if (blame != ADC_BLAME_NONE) {
    fprintf(out, " &mdash; at fault: %s", adc_matrix_blame_name(blame));
    if (shown_by != NULL) {
      fputs(", shown by <code>", out);
      put_text(out, shown_by);
      fputs("</code>", out);
    }
  }
  if (c->has_expectation) fprintf(out, " (%s)", adc_expectation_outcome_name(c->outcome));
  /* A <div>, not a <pre>: a <pre> drops a message's first line break. */
  fputs("\n<div class=\"msg\">", out);
  put_text(out, c->message);
  fputs("</div></li>\n", out);
}

/* The cases of `pair` on `device` that did not pass, folded away in the
 * cell until opened: a grid of many pairs stays readable. */
static void put_cell_cases(FILE* out, const struct adc_matrix_record* matrix,
                           const struct adc_matrix_pair* pair, const char* device,
                           const struct adc_matrix_cell* cell) {
  size_t not_passed = cell->cases - cell->counts[ADC_PASS];
  if (not_passed == 0) return;
  fprintf(out, "<details><summary>%zu did not pass</summary>\n<ul>\n", not_passed);
  for (size_t k = 0; k < pair->record.n_cases; k++) {
    const struct adc_case_record* c = &pair->record.cases[k];
    if (c->status != ADC_PASS && strcmp(c->device, device) == 0) put_case(out, matrix, pair, c);
  }
  fputs("</ul></details>\n", out);
}

/* What a test reads the grid back from; a pair not run is "none". */
static void put_cell_data(FILE* out, const struct adc_matrix_record* matrix, size_t producer, size_t consumer,
                          size_t device, const char* worst, size_t cases, size_t passed) {
  fputs(" data-producer=\"", out);
  put_text(out, matrix->libraries[producer].name);
  fputs("\" data-consumer=\"", out);
  put_text(out, matrix->libraries[consumer].name);
  fputs("\" data-device=\"", out);
  put_text(out, matrix->devices[device]);
  fprintf(out, "\" data-worst=\"%s\" data-cases=\"%zu\" data-pass=\"%zu\"", worst, cases, passed);
}

/* A grid cell, its id made of indexes (never of names, which would need
 * escaping for a URL fragment) so that the reference section can link it. */
static void put_grid_cell(FILE* out, const struct adc_matrix_record* matrix, size_t producer, size_t consumer,
                          size_t device) {
  const struct adc_matrix_pair* pair = adc_matrix_pair_of(matrix, producer, consumer);
  fprintf(out, "<td id=\"cell-%zu-%zu-%zu\"", device, producer, consumer);
  if (pair == NULL) {
    fputs(" class=\"cell s-none\"", out);
    put_cell_data(out, matrix, producer, consumer, device, "none", 0, 0);
    fputs(">not run</td>\n", out);
    return;
  }
  struct adc_matrix_cell cell = adc_matrix_cell_of(pair, matrix->devices[device]);
  /* data-worst stays the JSON report's ("pass" for no case), the colour
   * and the words say that nothing ran. */
  if (cell.cases == 0) {
    fputs(" class=\"cell s-empty\"", out);
    put_cell_data(out, matrix, producer, consumer, device, adc_status_name(cell.worst), 0, 0);
    fputs(">no case</td>\n", out);
    return;
  }
  put_status_class(out, "cell ", cell.worst);
  put_cell_data(out, matrix, producer, consumer, device, adc_status_name(cell.worst), cell.cases,
                cell.counts[ADC_PASS]);
  fprintf(out, "><span class=\"worst\">%s</span> %zu/%zu\n", adc_status_name(cell.worst),
          cell.counts[ADC_PASS], cell.cases);
  put_cell_cases(out, matrix, pair, matrix->devices[device], &cell);
  fputs("</td>\n", out);
}

static void put_grid(FILE* out, const struct adc_matrix_record* matrix, size_t device) {
  fputs("<h2>Device ", out);
  put_text(out, matrix->devices[device]);
  fputs("</h2>\n<p>A row per producer, a column per consumer; a cell: its worst status, passed/cases.</p>\n",
        out);
  fputs("<table class=\"grid\">\n<tr><th>producer \\ consumer</th>", out);
  for (size_t c = 0; c < matrix->n_libraries; c++) {
    if (!matrix->libraries[c].is_consumer) continue;
    fputs("<th scope=\"col\">", out);
    put_text(out, matrix->libraries[c].name);
    fputs("</th>", out);
  }
  fputs("</tr>\n", out);
  for (size_t p = 0; p < matrix->n_libraries; p++) {
    if (!matrix->libraries[p].is_producer) continue;
    fputs("<tr><th scope=\"row\">", out);
    put_text(out, matrix->libraries[p].name);
    fputs("</th>\n", out);
    for (size_t c = 0; c < matrix->n_libraries; c++) {
      if (matrix->libraries[c].is_consumer) put_grid_cell(out, matrix, p, c, device);
    }
    fputs("</tr>\n", out);
  }
  fputs("</table>\n", out);
}

/* A cell of the reference section: its summary and a link to the grid
 * cell that opens its cases.  It carries no data-producer: the grid holds
 * each cell once, and a test reading the grid back must not see it twice. */
static void put_reference_cell(FILE* out, const struct adc_matrix_record* matrix, size_t producer,
                               size_t consumer, size_t device, bool side_exists) {
  const struct adc_matrix_pair* pair = side_exists ? adc_matrix_pair_of(matrix, producer, consumer) : NULL;
  if (pair == NULL) {
    fprintf(out, "<td class=\"s-none\">%s</td>", side_exists ? "not run" : "no such side");
    return;
  }
  struct adc_matrix_cell cell = adc_matrix_cell_of(pair, matrix->devices[device]);
  if (cell.cases == 0) {
    fputs("<td class=\"s-empty\">no case</td>", out);
    return;
  }
  fputs("<td", out);
  put_status_class(out, "", cell.worst);
  fprintf(out, "><a href=\"#cell-%zu-%zu-%zu\"><span class=\"worst\">%s</span> %zu/%zu</a></td>", device,
          producer, consumer, adc_status_name(cell.worst), cell.counts[ADC_PASS], cell.cases);
}

/* Each library beside the reference, which conforms: what fails here is
 * the library's own (CONFORMANCE.md, "The interop matrix"). */
static void put_reference_section(FILE* out, const struct adc_matrix_record* matrix) {
  size_t reference = matrix->reference;
  const struct adc_matrix_library* ref = &matrix->libraries[reference];
  fputs("<h2>Each library with the reference</h2>\n", out);
  for (size_t d = 0; d < matrix->n_devices; d++) {
    fputs("<h3>Device ", out);
    put_text(out, matrix->devices[d]);
    fputs("</h3>\n<table class=\"with-reference\">\n<tr><th>library</th><th>as producer, into ", out);
    put_text(out, ref->name);
    fputs("</th><th>as consumer, from ", out);
    put_text(out, ref->name);
    fputs("</th></tr>\n", out);
    for (size_t l = 0; l < matrix->n_libraries; l++) {
      const struct adc_matrix_library* library = &matrix->libraries[l];
      fputs("<tr><th scope=\"row\">", out);
      put_text(out, library->name);
      fputs("</th>", out);
      put_reference_cell(out, matrix, l, reference, d, library->is_producer && ref->is_consumer);
      put_reference_cell(out, matrix, reference, l, d, library->is_consumer && ref->is_producer);
      fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
  }
}

int adc_write_matrix_html(const char* path, const struct adc_matrix_record* matrix, struct adc_error* error) {
  FILE* out = fopen(path, "w");
  if (out == NULL) return adc_fail(error, "cannot write the HTML page '%s': %s", path, strerror(errno));
  put_head(out);
  put_header(out, matrix);
  for (size_t d = 0; d < matrix->n_devices; d++) put_grid(out, matrix, d);
  if (matrix->reference < matrix->n_libraries) put_reference_section(out, matrix);
  fputs("</body>\n</html>\n", out);
  /* A full disk shows at the flush, or earlier as the stream's error. */
  bool failed = ferror(out) != 0;
  if (fclose(out) != 0 || failed) return adc_fail(error, "cannot write the HTML page '%s'", path);
  return 0;
}
