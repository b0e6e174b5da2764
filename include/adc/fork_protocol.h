/* Beyond the plugin ABI: a library loaded once and forked after.
 *
 * Each case runs in a process of its own, or in a prepared process that
 * runs many (CONFORMANCE.md, "Prepared processes"), and each such process
 * loads the library under test.  Where loading costs much (a Python
 * library: the interpreter's start and the import of a query engine, 0.15
 * to 0.3 s a process), the harness can load it once, in its preloading
 * server (harness/runner/preload_server.h), and fork each case's process
 * from there, as Python's own multiprocessing "forkserver" does with its
 * preloaded modules.  A fork copies the calling thread only, so this is
 * done only for a library that
 *   - exports the three functions below, <prefix>_BeforeFork,
 *     <prefix>_AfterForkInParent and <prefix>_AfterForkInChild, by which
 *     it says it can be forked once loaded and does what its runtime asks
 *     around a fork (CPython: PyOS_BeforeFork, PyOS_AfterFork_Parent,
 *     PyOS_AfterFork_Child, with the interpreter's lock held); and
 *   - starts no thread while it loads but an allocator's, which its
 *     allocator stops in a fork's child itself (the harness's preflight
 *     load counts them: a library whose loading leaves a thread of its
 *     own, polars's spill-file cleaner, is loaded in each process as
 *     before; harness/support/allocator_threads.h).
 * The server calls BeforeFork before each fork, AfterForkInParent in
 * itself after it, and AfterForkInChild in the case's process before
 * anything else of the case; it never forks while it has a second thread
 * other than an allocator's.
 * Nothing the rules judge is called in the server: loading is not an
 * entry point, and every entry point's calls happen in the case's process.
 *
 * The Python shim (harness/python) exports them; a C library may.
 * Plain C: the harness and the shim share it. */
#ifndef ADC_FORK_PROTOCOL_H
#define ADC_FORK_PROTOCOL_H

/* Each of the three steps: no argument, no result. */
typedef void (*adc_fork_step_function)(void);

#define ADC_BEFORE_FORK_SUFFIX "BeforeFork"
#define ADC_AFTER_FORK_IN_PARENT_SUFFIX "AfterForkInParent"
#define ADC_AFTER_FORK_IN_CHILD_SUFFIX "AfterForkInChild"

/* A library's three steps, NULL where it lacks one (then it is not
 * forked after loading). */
struct adc_fork_protocol {
  adc_fork_step_function before_fork;
  adc_fork_step_function after_fork_in_parent;
  adc_fork_step_function after_fork_in_child;
};

#endif /* ADC_FORK_PROTOCOL_H */
