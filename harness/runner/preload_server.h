/* A fork server: a process of the run's own that has mapped a device
 * runtime's libraries, without calling anything in them, and forks the
 * cases that run on that device, so that each case's process finds them
 * loaded instead of loading them anew (issue "The start-up cost": PoCL and
 * the LLVM it brings take about 30 of the 35 ms an opencl case costs).
 *
 * Why a process of its own: the harness parent never touches a device
 * runtime, and a case's process must be a fresh one whose runtime has
 * never been initialised (a child of a process that called
 * clGetPlatformIDs hangs in PoCL; CUDA refuses to run after a fork).
 * Mapping a library is not initialising its runtime: nothing of the
 * runtime has run, so nothing of it is copied half-made.
 *
 * What a case's process sees is unchanged: the harness stays its parent.
 * The server forks a short-lived middle process, which forks the case and
 * exits; the case is then handed to the nearest child subreaper, the
 * harness (runner/orphans.h), which waits for it, times it and kills its
 * group as it does any case.  The case waits until it has been handed over
 * before it goes on (adc_preload_server_await_handover).
 *
 * It also loads, once, a library under test that may be forked after
 * loading (adc/fork_protocol.h: a Python library, whose interpreter's
 * start and import would otherwise cost each process 0.15 to 0.3 s): the
 * library's fork protocol then runs around each fork, and the server
 * refuses to fork while it has a second thread (a fork copies the calling
 * thread only).
 *
 * The server is the harness's child, dies with it (PR_SET_PDEATHSIG), and
 * ends when the harness closes its end of the socket. */
#ifndef ADC_PRELOAD_SERVER_H
#define ADC_PRELOAD_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "adc/fork_protocol.h"
#include "support/error.h"

struct adc_preload_server {
  pid_t pid;     /* 0: none running */
  int socket_fd; /* the harness's end */
  double answer_seconds;
};

/* What the server does in a case's process, given the task's index, its
 * verdict and output descriptors, and the pid of the middle process that
 * forked it.  Never returns. */
typedef void (*adc_preload_server_task)(void* context, size_t index, int verdict_fd, int output_fd,
                                        pid_t forked_by);

/* Forks the server, which calls `preload(context)` once, then serves each
 * request by forking `task`.  The server keeps descriptors 0 to 2 and
 * those in `keep` (n_keep of them; a case's process needs them before it
 * settles its own), and closes every other it inherited.  Each answer,
 * the first one's preload included, must come within `answer_seconds`: a
 * runtime whose loading hangs costs that once (the server is then
 * stopped), never the run.  0, or -1 with the reason. */
int adc_preload_server_start(struct adc_preload_server* server, void (*preload)(void* context),
                             adc_preload_server_task task, void* context, const int* keep, size_t n_keep,
                             double answer_seconds, struct adc_error* error);

/* In the server, from its preload: has each fork run `steps` (a loaded
 * library's fork protocol, whose every step is set) around it.  A set
 * given twice is kept once; room for a producer's and a consumer's. */
void adc_preload_server_add_fork_protocol(const struct adc_fork_protocol* steps);

/* Asks the server to start task `index` with these descriptors (which the
 * caller keeps and closes as usual); its pid in `*pid`.  0, or -1 with the
 * reason, after which the server is stopped and `server->pid` is 0: the
 * caller may start the task itself. */
int adc_preload_server_spawn(struct adc_preload_server* server, size_t index, int verdict_fd, int output_fd,
                             pid_t* pid, struct adc_error* error);

/* Closes the harness's end and kills the server.  The caller reaps it
 * (with its other children). */
void adc_preload_server_stop(struct adc_preload_server* server);

/* In a case's process forked by the server: returns once the process has
 * been handed to its new parent (the middle process `forked_by` has
 * exited), so that what the caller checks of its parent next is true. */
void adc_preload_server_await_handover(pid_t forked_by);

#endif /* ADC_PRELOAD_SERVER_H */
