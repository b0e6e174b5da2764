#include "runner/preload_server.h"
#include "support/allocator_threads.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* A request: the task's index; its two descriptors travel beside it. */
struct request {
  uint64_t index;
};

/* The answer: the case's pid, minus the errno of the fork that failed, or
 * THREADED_ANSWER minus how many threads the server had. */
typedef int64_t reply;
#define THREADED_ANSWER (-((reply)1 << 32))

/* The fork protocols of the libraries the server loaded (a producer and a
 * consumer, each at most once). */
#define MAX_FORK_PROTOCOLS 2
static struct adc_fork_protocol fork_protocols[MAX_FORK_PROTOCOLS];
static size_t n_fork_protocols;

void adc_preload_server_add_fork_protocol(const struct adc_fork_protocol* steps) {
  for (size_t i = 0; i < n_fork_protocols; i++) {
    if (memcmp(&fork_protocols[i], steps, sizeof(*steps)) == 0) return;
  }
  if (n_fork_protocols < MAX_FORK_PROTOCOLS) fork_protocols[n_fork_protocols++] = *steps;
}

/* Before the fork in the order the libraries were loaded, after it in the
 * reverse, as pthread_atfork orders its handlers. */
static void before_fork(void) {
  for (size_t i = 0; i < n_fork_protocols; i++) fork_protocols[i].before_fork();
}

static void after_fork_in_parent(void) {
  for (size_t i = n_fork_protocols; i-- > 0;) fork_protocols[i].after_fork_in_parent();
}

static void after_fork_in_child(void) {
  for (size_t i = n_fork_protocols; i-- > 0;) fork_protocols[i].after_fork_in_child();
}

static bool is_kept(int fd, int socket_fd, const int* keep, size_t n_keep) {
  if (fd <= STDERR_FILENO || fd == socket_fd) return true;
  for (size_t i = 0; i < n_keep; i++) {
    if (keep[i] == fd) return true;
  }
  return false;
}

/* The harness's other descriptors (report files, its signal descriptor)
 * are not the server's: a case's process would close them anyway, but a
 * long-lived server holding a pipe's end would keep it from ending. */
static void close_all_but(int socket_fd, const int* keep, size_t n_keep) {
  DIR* open_fds = opendir("/proc/self/fd");
  if (open_fds == NULL) return;
  int fds[1024];
  size_t n = 0;
  struct dirent* entry;
  while ((entry = readdir(open_fds)) != NULL && n < sizeof(fds) / sizeof(fds[0])) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    int fd = atoi(entry->d_name);
    if (fd != dirfd(open_fds) && !is_kept(fd, socket_fd, keep, n_keep)) fds[n++] = fd;
  }
  closedir(open_fds);
  for (size_t i = 0; i < n; i++) close(fds[i]);
}

/* Reads one request and its two descriptors; false at the end (the
 * harness closed its end, or sent something else). */
static bool receive(int socket_fd, struct request* request, int fds[2]) {
  union {
    struct cmsghdr header;
    char bytes[CMSG_SPACE(2 * sizeof(int))];
  } control;
  struct iovec data = {request, sizeof(*request)};
  struct msghdr message = {
      .msg_iov = &data, .msg_iovlen = 1, .msg_control = &control, .msg_controllen = sizeof(control)};
  ssize_t n;
  do {
    n = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  struct cmsghdr* header = CMSG_FIRSTHDR(&message);
  bool whole = n == (ssize_t)sizeof(*request) && header != NULL && header->cmsg_level == SOL_SOCKET &&
               header->cmsg_type == SCM_RIGHTS && header->cmsg_len == CMSG_LEN(2 * sizeof(int));
  if (!whole) return false;
  memcpy(fds, CMSG_DATA(header), 2 * sizeof(int));
  return true;
}

/* The middle process: forks the case, makes it a group leader (so that
 * the harness can kill its group as soon as it knows the pid), says its
 * pid and exits, handing the case to the harness. */
static void fork_case(int socket_fd, const struct request* request, const int fds[2],
                      adc_preload_server_task task, void* context) {
  pid_t forked_by = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    close(socket_fd);
    /* The middle process ran nothing since the server's fork: what the
     * protocol's BeforeFork held there is held here, as in a child. */
    after_fork_in_child();
    task(context, (size_t)request->index, fds[0], fds[1], forked_by);
    _exit(1); /* not reached: the task ends its process */
  }
  reply answer = pid > 0 ? (reply)pid : -(reply)errno;
  if (pid > 0) setpgid(pid, pid);
  ssize_t sent = send(socket_fd, &answer, sizeof(answer), MSG_NOSIGNAL);
  _exit(sent == (ssize_t)sizeof(answer) ? 0 : 1);
}

static void serve(pid_t harness, int socket_fd, void (*preload)(void* context), adc_preload_server_task task,
                  void* context, const int* keep, size_t n_keep) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != harness) _exit(1); /* the harness died before the line above */
  /* A group of its own: a terminal's ^C is the harness's to handle. */
  setpgid(0, 0);
  close_all_but(socket_fd, keep, n_keep);
  preload(context);
  struct request request;
  int fds[2];
  while (receive(socket_fd, &request, fds)) {
    /* A thread the preload left (one a library started after its loading
     * was counted) would be missing from every case's process, and any
     * lock it held held for ever there; an allocator's is left behind as
     * its allocator intends (allocator_threads.h). */
    int threads = adc_count_threads_but_allocators();
    if (threads > 1) {
      reply answer = THREADED_ANSWER - threads;
      send(socket_fd, &answer, sizeof(answer), MSG_NOSIGNAL);
      break;
    }
    fflush(NULL);
    before_fork();
    pid_t middle = fork();
    if (middle == 0) fork_case(socket_fd, &request, fds, task, context);
    int fork_errno = errno;
    after_fork_in_parent();
    if (middle < 0) {
      reply answer = -(reply)fork_errno;
      send(socket_fd, &answer, sizeof(answer), MSG_NOSIGNAL);
    }
    close(fds[0]);
    close(fds[1]);
    if (middle > 0) waitpid(middle, NULL, 0);
  }
  _exit(0);
}

int adc_preload_server_start(struct adc_preload_server* server, void (*preload)(void* context),
                             adc_preload_server_task task, void* context, const int* keep, size_t n_keep,
                             double answer_seconds, struct adc_error* error) {
  server->pid = 0;
  server->socket_fd = -1;
  int ends[2];
  /* Sequenced packets: a request or an answer arrives whole or not at all. */
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
    return adc_fail(error, "cannot make the preloading server's socket: %s", strerror(errno));
  }
  pid_t harness = getpid();
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    int fork_errno = errno;
    close(ends[0]);
    close(ends[1]);
    return adc_fail(error, "cannot start the preloading server: %s", strerror(fork_errno));
  }
  if (pid == 0) {
    close(ends[0]);
    serve(harness, ends[1], preload, task, context, keep, n_keep);
  }
  close(ends[1]);
  server->pid = pid;
  server->socket_fd = ends[0];
  server->answer_seconds = answer_seconds;
  /* A bound on every answer, so that a hung server stops only itself. */
  struct timeval limit = {(time_t)answer_seconds,
                          (suseconds_t)((answer_seconds - (double)(time_t)answer_seconds) * 1e6)};
  setsockopt(ends[0], SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
  return 0;
}

int adc_preload_server_spawn(struct adc_preload_server* server, size_t index, int verdict_fd, int output_fd,
                             pid_t* pid, struct adc_error* error) {
  struct request request = {index};
  union {
    struct cmsghdr header;
    char bytes[CMSG_SPACE(2 * sizeof(int))];
  } control;
  memset(&control, 0, sizeof(control));
  struct iovec data = {&request, sizeof(request)};
  struct msghdr message = {
      .msg_iov = &data, .msg_iovlen = 1, .msg_control = &control, .msg_controllen = sizeof(control)};
  struct cmsghdr* header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(2 * sizeof(int));
  int fds[2] = {verdict_fd, output_fd};
  memcpy(CMSG_DATA(header), fds, sizeof(fds));
  reply answer = 0;
  ssize_t n;
  do {
    n = sendmsg(server->socket_fd, &message, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  if (n == (ssize_t)sizeof(request)) {
    do {
      n = recv(server->socket_fd, &answer, sizeof(answer), 0);
    } while (n < 0 && errno == EINTR);
  }
  if (n == (ssize_t)sizeof(answer) && answer > 0) {
    *pid = (pid_t)answer;
    return 0;
  }
  int cause = n < 0 ? errno : 0;
  double answer_seconds = server->answer_seconds;
  adc_preload_server_stop(server);
  if (answer <= THREADED_ANSWER) {
    return adc_fail(error, "the preloading server had %lld threads after its preload (a fork copies one)",
                    (long long)(THREADED_ANSWER - answer));
  }
  if (answer < 0) return adc_fail(error, "the preloading server could not fork: %s", strerror((int)-answer));
  if (cause == EAGAIN || cause == EWOULDBLOCK) {
    return adc_fail(error, "the preloading server did not answer within %g s", answer_seconds);
  }
  if (cause != 0) return adc_fail(error, "the preloading server is unreachable: %s", strerror(cause));
  return adc_fail(error, "the preloading server ended");
}

void adc_preload_server_stop(struct adc_preload_server* server) {
  if (server->socket_fd >= 0) close(server->socket_fd);
  /* Still the harness's child until reaped: the pid cannot be another's. */
  if (server->pid > 0) kill(server->pid, SIGKILL);
  server->socket_fd = -1;
  server->pid = 0;
}

void adc_preload_server_await_handover(pid_t forked_by) {
  /* The middle process exits right after the fork; it has nothing else to
   * do, so this is a few microseconds' wait. */
  while (getppid() == forked_by) sched_yield();
}
