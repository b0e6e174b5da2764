#include "support/own_arena.h"

#include <pthread.h>

struct arena_work {
  int (*work)(void* argument);
  void* argument;
  int result;
};

static void* run_work(void* context) {
  struct arena_work* job = context;
  job->result = job->work(job->argument);
  return NULL;
}

int adc_run_in_own_arena(int (*work)(void* argument), void* argument) {
  struct arena_work job = {work, argument, 0};
  pthread_t thread;
  if (pthread_create(&thread, NULL, run_work, &job) != 0) return work(argument);
  pthread_join(thread, NULL);
  return job.result;
}
