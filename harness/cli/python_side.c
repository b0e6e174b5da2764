#include "cli/python_side.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/install_layout.h"
#include "support/program_output.h"

/* A module whose import hangs ends the run with an error after this. */
#define PROBE_SECONDS 60
#define PROBE_OUTPUT_LIMIT (256 * 1024)

/* Run as `PYTHON -c PROBE MODULE FACTORY`: prints "key<TAB>value" lines
 * (library, home, path once per sys.path entry), then imports MODULE; on
 * any failure its last line is "error<TAB>why" and it exits 3. */
static const char probe_script[] =
    "import importlib, os, sys, sysconfig, traceback\n"
    "def say(key, value): sys.stdout.write(key + '\\t' + str(value).replace('\\n', ' ') + '\\n')\n"
    "def fail(why):\n"
    "    say('error', why); sys.stdout.flush(); os._exit(3)\n"
    "var = sysconfig.get_config_var\n"
    "if not var('Py_ENABLE_SHARED'):\n"
    "    fail(sys.executable + ' has no shared libpython (built without --enable-shared): adc-conform '\n"
    "         'embeds CPython in each case and needs one; set ADC_PYTHON to a Python that has it')\n"
    "libdir = var('LIBDIR') or ''\n"
    "names = [n for n in (var('INSTSONAME'), var('LDLIBRARY')) if n]\n"
    "folders = [libdir, os.path.join(libdir, var('MULTIARCH') or ''), var('LIBPL') or '']\n"
    "found = [os.path.join(f, n) for n in names for f in folders if os.path.isfile(os.path.join(f, n))]\n"
    "say('library', found[0] if found else names[0])\n"
    "say('home', sys.base_prefix)\n"
    "for entry in sys.path: say('path', entry or os.getcwd())\n"
    "module, factory = sys.argv[1], sys.argv[2]\n"
    "try:\n"
    "    made = getattr(importlib.import_module(module), factory)\n"
    "except BaseException as e:\n"
    "    fail('importing ' + module + ': ' + traceback.format_exception_only(type(e), e)[-1].strip()\n"
    "         if not isinstance(e, AttributeError) else module + ' has no ' + factory)\n"
    "if not callable(made): fail(module + '.' + factory + ' is not callable')\n"
    "sys.stdout.flush()\n";

bool adc_is_python_side(const char* given) {
  return given != NULL && strncmp(given, ADC_PYTHON_SIDE_SCHEME, strlen(ADC_PYTHON_SIDE_SCHEME)) == 0;
}

/* Runs the probe; its standard output (NUL-terminated, malloc'd) into
 * `*output` and its exit status into `*status`.  -1 with the reason when it
 * could not run or did not end in time. */
static int run_probe(const char* python, const char* module, const char* factory, char** output, int* status,
                     struct adc_error* error) {
  char* argv[] = {(char*)python, "-c", (char*)probe_script, (char*)module, (char*)factory, NULL};
  char* text = malloc(PROBE_OUTPUT_LIMIT + 1);
  if (text == NULL) return adc_fail(error, "out of memory");
  struct adc_program_run run;
  adc_program_output(argv, PROBE_SECONDS, text, PROBE_OUTPUT_LIMIT + 1, &run);
  *status = run.status;
  if (run.spawn_error != 0 || run.timed_out) {
    free(text);
    if (run.timed_out)
      return adc_fail(error, "'%s' did not import %s within %d s", python, module, PROBE_SECONDS);
    return adc_fail(error, "cannot run '%s' to find Python (set ADC_PYTHON to another): %s", python,
                    strerror(run.spawn_error));
  }
  *output = text;
  return 0;
}

/* The value of the line "key<TAB>value" of `output` into `value` (the
 * first such line), or false. */
static bool line_value(const char* output, const char* key, char* value, size_t size) {
  size_t length = strlen(key);
  for (const char* line = output; *line != '\0';
       line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
    if (strncmp(line, key, length) == 0 && line[length] == '\t') {
      snprintf(value, size, "%.*s", (int)strcspn(line + length + 1, "\n"), line + length + 1);
      return true;
    }
  }
  return false;
}

/* Every "path<TAB>entry" line's entry, one a line, into `paths`. */
static void path_lines(const char* output, char* paths, size_t size) {
  size_t used = 0;
  paths[0] = '\0';
  for (const char* line = output; *line != '\0';
       line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
    if (strncmp(line, "path\t", 5) != 0) continue;
    int n = snprintf(paths + used, size - used, "%s%.*s", used ? "\n" : "", (int)strcspn(line + 5, "\n"),
                     line + 5);
    if (n < 0 || (size_t)n >= size - used) break;
    used += (size_t)n;
  }
}

static bool is_dotted_name(const char* text, size_t length) {
  if (length == 0) return false;
  for (size_t i = 0; i < length; i++) {
    char c = text[i];
    if (!(isalnum((unsigned char)c) || c == '_' ||
          (c == '.' && i > 0 && i + 1 < length && text[i - 1] != '.')))
      return false;
  }
  return !isdigit((unsigned char)text[0]);
}

void adc_select_python_side(const char* role, const char* given) {
  /* MODULE:FACTORY for the producer, MODULE:FUNCTION for the consumer. */
  const char* variable = strcmp(role, "producer") == 0 ? "ADC_PYTHON_PRODUCER" : "ADC_PYTHON_CONSUMER";
  if (given == NULL) {
    unsetenv(variable);
  } else {
    setenv(variable, given + strlen(ADC_PYTHON_SIDE_SCHEME), 1);
  }
}

int adc_settle_python_side(const char* role, const char* given, char* shim, size_t size,
                           struct adc_error* error) {
  const char* spec = given + strlen(ADC_PYTHON_SIDE_SCHEME);
  const char* colon = strchr(spec, ':');
  if (colon == NULL || !is_dotted_name(spec, (size_t)(colon - spec)) ||
      !is_dotted_name(colon + 1, strlen(colon + 1)) || strchr(colon + 1, '.') != NULL) {
    return adc_fail(error, "--%s '%s' is not python:MODULE:%s (a module path and a callable in it)", role,
                    given, strcmp(role, "producer") == 0 ? "FACTORY" : "FUNCTION");
  }
  char module[512];
  snprintf(module, sizeof(module), "%.*s", (int)(colon - spec), spec);
  const char* python = getenv("ADC_PYTHON");
  if (python == NULL || python[0] == '\0') python = "python3";
  char* output = NULL;
  int status = 0;
  if (run_probe(python, module, colon + 1, &output, &status, error) != 0) return -1;
  char value[4096];
  int result = 0;
  if (line_value(output, "error", value, sizeof(value))) {
    result = adc_fail(error, "--%s %s: %s (with %s)", role, given, value, python);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
             !line_value(output, "library", value, sizeof(value))) {
    result = adc_fail(error, "--%s %s: '%s' could not be asked for its libpython and sys.path (%s %d)", role,
                      given, python, WIFSIGNALED(status) ? "signal" : "exit status",
                      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
  } else {
    /* Inherited by every case's process (harness/python/python_runtime.h). */
    setenv("ADC_PYTHON_LIBRARY", value, 1);
    if (line_value(output, "home", value, sizeof(value))) setenv("ADC_PYTHON_HOME", value, 1);
    char* paths = malloc(PROBE_OUTPUT_LIMIT);
    if (paths != NULL) {
      path_lines(output, paths, PROBE_OUTPUT_LIMIT);
      setenv("ADC_PYTHON_PATH", paths, 1);
      free(paths);
    }
    adc_select_python_side(role, given);
    adc_find_python_shim(shim, size);
    if (access(shim, R_OK) != 0)
      result = adc_fail(error, "--%s %s: the Python shim '%s' is missing", role, given, shim);
  }
  free(output);
  return result;
}
