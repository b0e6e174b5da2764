#include "commands/wrapped_harness.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/install_layout.h"
#include "runner/process_log.h"
#include "runner/task_runner.h"
#include "support/folders.h"

/* "<wrapper>:<pid>": set just before the exec, which keeps the pid. */
#define WRAPPED_VARIABLE "ADC_CONFORM_WRAPPED"
/* Memcheck's exit status for a process it found an error or a definite
 * leak in: a case's process that exits with it is that case's crash. */
#define MEMCHECK_ERROR_EXIT "99"
#define MAX_WRAPPER_WORDS 16

static const char* const wrapper_names[] = {"", "valgrind", "preload"};

enum adc_harness_wrapper adc_harness_wrapper(void) {
  const char* value = getenv(WRAPPED_VARIABLE);
  if (value == NULL) return ADC_UNWRAPPED;
  const char* colon = strchr(value, ':');
  if (colon == NULL || strtol(colon + 1, NULL, 10) != (long)getpid()) return ADC_UNWRAPPED;
  for (int w = ADC_WRAPPED_BY_VALGRIND; w <= ADC_WRAPPED_WITH_PRELOAD; w++) {
    size_t length = strlen(wrapper_names[w]);
    if ((size_t)(colon - value) == length && strncmp(value, wrapper_names[w], length) == 0) {
      return (enum adc_harness_wrapper)w;
    }
  }
  return ADC_UNWRAPPED;
}

const char* adc_harness_wrapper_description(void) {
  switch (adc_harness_wrapper()) {
    case ADC_WRAPPED_BY_VALGRIND:
      return "valgrind memcheck (--valgrind)";
    case ADC_WRAPPED_WITH_PRELOAD: {
      static char description[PATH_MAX + 32];
      const char* preload = getenv("LD_PRELOAD");
      snprintf(description, sizeof(description), "LD_PRELOAD=%.*s (--preload)", PATH_MAX,
               preload != NULL ? preload : "");
      return description;
    }
    case ADC_UNWRAPPED:
      break;
  }
  return NULL;
}

/* The first executable `name` on PATH, into `path`; false when none. */
static bool find_on_path(const char* name, char* path, size_t size) {
  const char* search = getenv("PATH");
  if (search == NULL) search = "/usr/bin:/bin";
  while (*search != '\0') {
    size_t length = strcspn(search, ":");
    if ((size_t)snprintf(path, size, "%.*s/%s", (int)length, search, name) < size &&
        access(path, X_OK) == 0) {
      return true;
    }
    search += length + (search[length] == ':');
  }
  return false;
}

/* The wrapped harness, for the SIGTERM handler to pass the signal on to. */
static volatile pid_t forwarded_to;

static void forward_signal(int signal_number) {
  if (forwarded_to > 0) kill(forwarded_to, signal_number);
}

static int mark_wrapped(enum adc_harness_wrapper wrapper, struct adc_error* error) {
  char value[64];
  snprintf(value, sizeof(value), "%s:%ld", wrapper_names[wrapper], (long)getpid());
  if (setenv(WRAPPED_VARIABLE, value, 1) != 0) return adc_fail(error, "cannot set %s", WRAPPED_VARIABLE);
  return 0;
}

/* The folder each process's memcheck log goes to (--log-file with %p:
 * memcheck writes its log to a descriptor of its own, which a case's
 * process cannot point at its output pipe, so the runner reads the case's
 * log when it ends instead). */
#define MEMCHECK_LOGS_VARIABLE "ADC_CONFORM_MEMCHECK_LOGS"

const char* adc_memcheck_log_dir(void) {
  return adc_harness_wrapper() == ADC_WRAPPED_BY_VALGRIND ? getenv(MEMCHECK_LOGS_VARIABLE) : NULL;
}

/* Copies the harness process's own memcheck log, if it says anything, to
 * standard error, then removes the folder of logs. */
static void settle_memcheck_logs(const char* dir, pid_t harness) {
  char path[PATH_MAX + NAME_MAX + 2];
  adc_process_log_path(path, sizeof(path), dir, (long)harness);
  FILE* log = fopen(path, "r");
  if (log != NULL) {
    char line[1024];
    bool said = false;
    while (fgets(line, sizeof(line), log) != NULL) {
      if (!said) fprintf(stderr, "adc-conform: memcheck's report on the harness process itself:\n");
      said = true;
      fputs(line, stderr);
    }
    fclose(log);
  }
  adc_remove_folder(dir);
}

/* The exit status a shell would report for the wrapped harness. */
static int shell_status(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) : 1;
}

/* The harness again under memcheck, as a child that this process waits
 * for: errors and definite leaks only (what a library under test did
 * wrong, not what it keeps until exit), followed into forked processes,
 * each logged apart, with the GPU runtimes' known reports suppressed.
 * SIGINT from the terminal reaches the child too; SIGTERM is passed on. */
static int run_under_valgrind(char** argv, int* exit_status, struct adc_error* error) {
  static char valgrind[PATH_MAX], self[PATH_MAX], suppressions[PATH_MAX + 32], supp_file[PATH_MAX];
  static char logs[PATH_MAX], log_file[PATH_MAX + 64];
  if (!find_on_path("valgrind", valgrind, sizeof(valgrind))) {
    return adc_fail(error, "--valgrind: no valgrind on PATH (Debian: apt-get install valgrind)");
  }
  if (!adc_executable_path(self, sizeof(self)))
    return adc_fail(error, "--valgrind: cannot read /proc/self/exe");
  adc_find_valgrind_suppressions(supp_file, sizeof(supp_file));
  if (access(supp_file, R_OK) != 0) {
    return adc_fail(error, "--valgrind: cannot read the suppressions file '%s': %s", supp_file,
                    strerror(errno));
  }
  const char* tmp = getenv("TMPDIR");
  snprintf(logs, sizeof(logs), "%s/adc-conform-memcheck.XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
  if (mkdtemp(logs) == NULL)
    return adc_fail(error, "--valgrind: cannot make a folder for memcheck's logs: %s", strerror(errno));
  snprintf(suppressions, sizeof(suppressions), "--suppressions=%s", supp_file);
  /* memcheck puts the pid where %p stands: the runner's name for the log. */
  snprintf(log_file, sizeof(log_file), "--log-file=%s/" ADC_PROCESS_LOG_PREFIX "%%p" ADC_PROCESS_LOG_SUFFIX,
           logs);
  char* words[MAX_WRAPPER_WORDS] = {valgrind, "--quiet", "--tool=memcheck", "--leak-check=full",
                                    "--show-leak-kinds=definite", "--errors-for-leak-kinds=definite",
                                    /* Deep enough to reach the runtime's own frames beneath the
                                     * dynamic loader's (gpu-runtimes.supp, OpenCL). */
                                    "--num-callers=40", "--child-silent-after-fork=no",
                                    "--error-exitcode=" MEMCHECK_ERROR_EXIT, suppressions, log_file, self};
  size_t n_words = 0, n_args = 0;
  while (n_words < MAX_WRAPPER_WORDS && words[n_words] != NULL) n_words++;
  while (argv[1 + n_args] != NULL) n_args++;
  char** wrapped = calloc(n_words + n_args + 1, sizeof(*wrapped));
  if (wrapped == NULL) return adc_fail(error, "out of memory");
  memcpy(wrapped, words, n_words * sizeof(*wrapped));
  memcpy(wrapped + n_words, argv + 1, n_args * sizeof(*wrapped));
  struct sigaction ignore, saved_interrupt;
  memset(&ignore, 0, sizeof(ignore));
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &saved_interrupt);
  pid_t child = fork();
  if (child == 0) {
    sigaction(SIGINT, &saved_interrupt, NULL);
    struct adc_error child_error;
    if (mark_wrapped(ADC_WRAPPED_BY_VALGRIND, &child_error) != 0 ||
        setenv(MEMCHECK_LOGS_VARIABLE, logs, 1) != 0)
      _exit(127);
    execv(valgrind, wrapped);
    fprintf(stderr, "adc-conform: error: --valgrind: cannot run '%s': %s\n", valgrind, strerror(errno));
    _exit(127);
  }
  int fork_errno = errno;
  free(wrapped);
  if (child < 0) {
    sigaction(SIGINT, &saved_interrupt, NULL);
    rmdir(logs);
    return adc_fail(error, "--valgrind: cannot start a process: %s", strerror(fork_errno));
  }
  forwarded_to = child;
  struct sigaction forward, saved_terminate;
  memset(&forward, 0, sizeof(forward));
  forward.sa_handler = forward_signal;
  sigaction(SIGTERM, &forward, &saved_terminate);
  int wait_status = 0;
  while (waitpid(child, &wait_status, 0) < 0 && errno == EINTR) continue;
  sigaction(SIGTERM, &saved_terminate, NULL);
  sigaction(SIGINT, &saved_interrupt, NULL);
  settle_memcheck_logs(logs, child);
  *exit_status = shell_status(wait_status);
  return 1;
}

/* The harness again with `library` first in LD_PRELOAD (the dynamic loader
 * reads it only when a program starts). */
static int exec_with_preload(const char* library, char** argv, struct adc_error* error) {
  static char self[PATH_MAX], preload[2 * PATH_MAX];
  if (access(library, R_OK) != 0) {
    return adc_fail(error, "--preload: cannot read '%s': %s", library, strerror(errno));
  }
  if (!adc_executable_path(self, sizeof(self)))
    return adc_fail(error, "--preload: cannot read /proc/self/exe");
  const char* earlier = getenv("LD_PRELOAD");
  if ((size_t)snprintf(preload, sizeof(preload), "%s%s%s", library, earlier ? ":" : "",
                       earlier ? earlier : "") >= sizeof(preload)) {
    return adc_fail(error, "--preload: LD_PRELOAD would be too long");
  }
  if (setenv("LD_PRELOAD", preload, 1) != 0 || mark_wrapped(ADC_WRAPPED_WITH_PRELOAD, error) != 0) {
    return adc_fail(error, "--preload: cannot set LD_PRELOAD");
  }
  execv(self, argv);
  return adc_fail(error, "--preload: cannot run '%s' again: %s", self, strerror(errno));
}

int adc_wrap_harness_if_asked(const struct adc_options* options, char** argv, int* exit_status,
                              struct adc_error* error) {
  if (adc_harness_wrapper() != ADC_UNWRAPPED) return 0;
  fflush(NULL);
  if (options->valgrind) return run_under_valgrind(argv, exit_status, error);
  if (options->preload != NULL) return exec_with_preload(options->preload, argv, error);
  return 0;
}
