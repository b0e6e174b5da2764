/* The shim's fork protocol (adc/fork_protocol.h): the interpreter is
 * started and the module under test imported once, in the harness's
 * preloading server, and each case's process is forked from there, as
 * Python's multiprocessing "forkserver" forks from its preloaded modules.
 * Around each fork the shim does what CPython asks of a process that forks
 * and goes on using the interpreter (docs.python.org/3/c-api/sys.html,
 * PyOS_BeforeFork): the forking thread holds the interpreter's lock, and
 * the child reinitialises the interpreter's locks and threads' states and
 * runs the handlers modules registered with os.register_at_fork. */
#include "adc/fork_protocol.h"
#include "python_runtime.h"

#define EXPORT __attribute__((visibility("default")))

/* The lock's state taken before the fork, given back after it on each
 * side of it. */
static int lock_before_fork;
/* Whether BeforeFork found the interpreter running (it did not where it
 * could not start: then there is nothing to do around a fork). */
static int interpreter_forked;

EXPORT void adc_python_BeforeFork(void) {
  interpreter_forked = adc_python_running();
  if (!interpreter_forked) return;
  lock_before_fork = adc_py.PyGILState_Ensure();
  adc_py.PyOS_BeforeFork();
}

EXPORT void adc_python_AfterForkInParent(void) {
  if (!interpreter_forked) return;
  adc_py.PyOS_AfterFork_Parent();
  adc_py.PyGILState_Release(lock_before_fork);
}

EXPORT void adc_python_AfterForkInChild(void) {
  if (!interpreter_forked) return;
  adc_py.PyOS_AfterFork_Child();
  adc_py.PyGILState_Release(lock_before_fork);
}

/* The consumer's side of the shim (python_consumer.c) has its own prefix:
 * the same steps, at the same addresses, so that a process with both
 * sides runs each step once (runner/preload_server.c). */
EXPORT void adc_python_consumer_BeforeFork(void) __attribute__((alias("adc_python_BeforeFork")));
EXPORT void adc_python_consumer_AfterForkInParent(void)
    __attribute__((alias("adc_python_AfterForkInParent")));
EXPORT void adc_python_consumer_AfterForkInChild(void) __attribute__((alias("adc_python_AfterForkInChild")));
