/* What a prepared process ran, kept where a task did not pass there after
 * other tasks had run, so that the process can be replayed (CONFORMANCE.md,
 * "Prepared processes"): the task runner's bookkeeping, in the parent only.
 *
 * A task that does not pass in a prepared process, with tasks run before
 * it there, runs again in a process where nothing ran before it.  Where it
 * does not pass there either, that verdict stands.  Where it passes, its
 * failure came from what ran before it, or from load, timing or the
 * device; a fresh prepared process then runs the same tasks again, in the
 * same order, up to it (a replay): where it fails again, the failure is
 * the library's, after so many earlier calls (a finding, never turned into
 * a pass); where it does not, the failure was not reproduced, and is said
 * beside the pass.  One replay serves every task of the process that
 * waits for one: it runs up to the last of them, and each is judged at its
 * place. */
#ifndef ADC_REPLAY_H
#define ADC_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/task.h"

struct adc_process_history {
  size_t group;  /* the group of the prepared process */
  size_t* tasks; /* every task it ran, in order (known once it ended) */
  size_t n_tasks;
  bool ended;        /* the process ended: `tasks` is whole */
  size_t waiting;    /* its tasks run again whose verdict is not known yet */
  size_t wanting;    /* its tasks that passed when run again: the replay's */
  size_t replay_end; /* the replay runs tasks[0 .. replay_end) */
};

struct adc_replay_book {
  size_t n_tasks;
  /* Per task: the history of the process where it did not pass after
   * others, or NULL; its place there (how many tasks ran before it); and
   * whether it passed when run again, and waits for the replay. */
  struct adc_process_history** history_of;
  size_t* place;
  bool* wants_replay;
  /* Histories ready to replay, in the order they became so. */
  struct adc_process_history** ready;
  size_t n_ready;
};

/* 0, or -1 when out of memory. */
int adc_replay_book_init(struct adc_replay_book* book, size_t n_tasks);
void adc_replay_book_free(struct adc_replay_book* book);

/* A new history for a process of `group` (NULL when out of memory). */
struct adc_process_history* adc_history_new(size_t group);

/* Task `task` did not pass in the process of `history`, at `place` (> 0):
 * it runs again, and waits in the history until that run's verdict. */
void adc_history_add_failure(struct adc_replay_book* book, struct adc_process_history* history, size_t task,
                             size_t place);

/* The process ended, having run `tasks` (n of them) in order.  Returns
 * false when out of memory (its tasks are then settled without a replay). */
bool adc_history_ended(struct adc_replay_book* book, struct adc_process_history* history, const size_t* tasks,
                       size_t n);

/* Task `task`'s run again gave its verdict: `passed` (pass or
 * not_supported) or not.  True where it now waits for the replay (the
 * caller keeps its verdict open until adc_replay_book's replay settles
 * it); false where its verdict is final. */
bool adc_history_rerun_settled(struct adc_replay_book* book, size_t task, bool passed);

/* The next history to replay, taken off the list; NULL where none. */
struct adc_process_history* adc_replay_next(struct adc_replay_book* book);

/* Whether `task` waits for the replay of `history`. */
bool adc_replay_wants(const struct adc_replay_book* book, const struct adc_process_history* history,
                      size_t task);

/* The replay gave `task` its verdict (or could not reach it): it no longer
 * waits. */
void adc_replay_settled(struct adc_replay_book* book, struct adc_process_history* history, size_t task);

/* Frees a history taken by adc_replay_next once its replay has ended and
 * each task that waited for it is settled. */
void adc_replay_free(struct adc_process_history* history);

#endif /* ADC_REPLAY_H */
