#include "device/simulated_runtime_model.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "device/device.h"

/* The model's settings, read from the environment. */
struct model {
  double start_seconds;
  long client_limit; /* 0: none */
  char dir[512];
};

static struct model read_model(void) {
  struct model model = {0, 0, ""};
  const char* start = getenv("ADC_SIMULATED_START_SECONDS");
  const char* limit = getenv("ADC_SIMULATED_CLIENT_LIMIT");
  const char* dir = getenv("ADC_SIMULATED_RUNTIME_DIR");
  if (start != NULL) model.start_seconds = strtod(start, NULL);
  if (limit != NULL) model.client_limit = strtol(limit, NULL, 10);
  if (model.start_seconds < 0) model.start_seconds = 0;
  if (model.client_limit < 0) model.client_limit = 0;
  if (dir != NULL && dir[0] != '\0') {
    snprintf(model.dir, sizeof(model.dir), "%s", dir);
  } else {
    snprintf(model.dir, sizeof(model.dir), "/tmp/adc-simulated-runtime-%ld", (long)getuid());
  }
  return model;
}

bool adc_simulated_model_on(void) {
  struct model model = read_model();
  return model.start_seconds > 0 || model.client_limit > 0;
}

/* This process's client, held until it ends; -1 before its first open. */
static int client_fd = -1;
static bool started;

/* Opens (creating) the model's lock file `name`. */
static int open_lock(const struct model* model, const char* name, struct adc_error* error) {
  if (mkdir(model->dir, 0700) != 0 && errno != EEXIST) {
    return adc_fail(error, "the simulated runtime model cannot make %s: %s", model->dir, strerror(errno));
  }
  char path[640];
  snprintf(path, sizeof(path), "%s/%s", model->dir, name);
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return adc_fail(error, "the simulated runtime model cannot open %s: %s", path, strerror(errno));
  return fd;
}

/* Takes a free client, as MPS admits a client: -1 (busy) when all are held. */
static int take_client(const struct model* model, struct adc_error* error) {
  for (long c = 0; c < model->client_limit; c++) {
    char name[32];
    snprintf(name, sizeof(name), "client.%ld", c);
    int fd = open_lock(model, name, error);
    if (fd < 0) return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      client_fd = fd;
      return 0;
    }
    close(fd);
  }
  adc_fail(error,
           "simulated runtime busy: the %ld client(s) it admits are taken (ADC_SIMULATED_CLIENT_LIMIT)",
           model->client_limit);
  return ADC_DEVICE_BUSY;
}

/* Spends the start's cost holding the start lock: one start at a time. */
static int pay_start(const struct model* model, struct adc_error* error) {
  int fd = open_lock(model, "start", error);
  if (fd < 0) return -1;
  int locked;
  do {
    locked = flock(fd, LOCK_EX);
  } while (locked != 0 && errno == EINTR);
  struct timespec rest = {(time_t)model->start_seconds,
                          (long)((model->start_seconds - (double)(time_t)model->start_seconds) * 1e9)};
  while (nanosleep(&rest, &rest) != 0 && errno == EINTR) continue;
  /* One byte per start paid, in the file "starts": what the runner's
   * policies cost is counted, not timed (tests/test_costly_runtime_model.c). */
  char path[640];
  snprintf(path, sizeof(path), "%s/starts", model->dir);
  int count_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (count_fd >= 0) {
    ssize_t written = write(count_fd, "s", 1); /* a count short of one start is still a count */
    (void)written;
    close(count_fd);
  }
  close(fd); /* releases the lock */
  return 0;
}

int adc_simulated_model_start(struct adc_error* error) {
  if (started) return 0;
  struct model model = read_model();
  if (model.client_limit > 0 && client_fd < 0) {
    int taken = take_client(&model, error);
    if (taken != 0) return taken;
  }
  if (model.start_seconds > 0 && pay_start(&model, error) != 0) return -1;
  started = true;
  return 0;
}

void adc_simulated_model_describe(char* text, size_t size) {
  struct model model = read_model();
  text[0] = '\0';
  size_t used = 0;
  if (model.start_seconds > 0) {
    used = (size_t)snprintf(text, size, "start %g s, one at a time", model.start_seconds);
  }
  if (model.client_limit > 0 && used < size) {
    snprintf(text + used, size - used, "%sat most %ld clients", used > 0 ? "; " : "", model.client_limit);
  }
}
