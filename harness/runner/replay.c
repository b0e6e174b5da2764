#include "runner/replay.h"

#include <string.h>

#include "support/parent_only_memory.h"

int adc_replay_book_init(struct adc_replay_book* book, size_t n_tasks) {
  memset(book, 0, sizeof(*book));
  book->n_tasks = n_tasks;
  size_t n = n_tasks + 1;
  book->history_of = adc_parent_only_calloc(n, sizeof(*book->history_of));
  book->place = adc_parent_only_calloc(n, sizeof(*book->place));
  book->wants_replay = adc_parent_only_calloc(n, sizeof(*book->wants_replay));
  book->ready = adc_parent_only_calloc(n, sizeof(*book->ready));
  if (book->history_of && book->place && book->wants_replay && book->ready) return 0;
  adc_replay_book_free(book);
  return -1;
}

static void free_history(struct adc_process_history* history) {
  adc_parent_only_free(history->tasks);
  adc_parent_only_free(history);
}

/* Forgets `history` wherever the book holds it. */
static void forget(struct adc_replay_book* book, const struct adc_process_history* history) {
  for (size_t t = 0; t < book->n_tasks; t++) {
    if (book->history_of[t] == history) book->history_of[t] = NULL;
  }
  for (size_t r = 0; r < book->n_ready; r++) {
    if (book->ready[r] == history) book->ready[r] = NULL;
  }
}

void adc_replay_book_free(struct adc_replay_book* book) {
  /* What a run cut short left: each history once. */
  for (size_t t = 0; book->history_of != NULL && t < book->n_tasks; t++) {
    struct adc_process_history* history = book->history_of[t];
    if (history == NULL) continue;
    forget(book, history);
    free_history(history);
  }
  for (size_t r = 0; book->ready != NULL && r < book->n_ready; r++) {
    struct adc_process_history* history = book->ready[r];
    if (history == NULL) continue;
    forget(book, history);
    free_history(history);
  }
  adc_parent_only_free(book->history_of);
  adc_parent_only_free(book->place);
  adc_parent_only_free(book->wants_replay);
  adc_parent_only_free(book->ready);
  memset(book, 0, sizeof(*book));
}

struct adc_process_history* adc_history_new(size_t group) {
  struct adc_process_history* history = adc_parent_only_calloc(1, sizeof(*history));
  if (history == NULL) return NULL;
  history->group = group;
  return history;
}

void adc_history_add_failure(struct adc_replay_book* book, struct adc_process_history* history, size_t task,
                             size_t place) {
  book->history_of[task] = history;
  book->place[task] = place;
  book->wants_replay[task] = false;
  history->waiting++;
}

/* Nothing left to wait for: replayed where a task wants it, else freed. */
static void settle_if_complete(struct adc_replay_book* book, struct adc_process_history* history) {
  if (!history->ended || history->waiting > 0) return;
  if (history->wanting > 0) {
    book->ready[book->n_ready++] = history;
  } else {
    free_history(history);
  }
}

bool adc_history_ended(struct adc_replay_book* book, struct adc_process_history* history, const size_t* tasks,
                       size_t n) {
  history->tasks = adc_parent_only_calloc(n + 1, sizeof(*history->tasks));
  if (history->tasks != NULL) memcpy(history->tasks, tasks, n * sizeof(*tasks));
  history->n_tasks = history->tasks != NULL ? n : 0;
  history->ended = true;
  /* Those that passed again before the process ended wait for this. */
  for (size_t t = 0; t < book->n_tasks; t++) {
    if (book->history_of[t] != history || !book->wants_replay[t]) continue;
    if (book->place[t] >= history->replay_end) history->replay_end = book->place[t] + 1;
  }
  bool whole = history->tasks != NULL;
  settle_if_complete(book, history); /* may free it */
  return whole;
}

bool adc_history_rerun_settled(struct adc_replay_book* book, size_t task, bool passed) {
  struct adc_process_history* history = book->history_of[task];
  if (history == NULL || book->wants_replay[task]) return false;
  history->waiting--;
  if (passed) {
    book->wants_replay[task] = true;
    history->wanting++;
    if (book->place[task] >= history->replay_end) history->replay_end = book->place[task] + 1;
  } else {
    book->history_of[task] = NULL;
  }
  settle_if_complete(book, history);
  return passed;
}

struct adc_process_history* adc_replay_next(struct adc_replay_book* book) {
  if (book->n_ready == 0) return NULL;
  struct adc_process_history* history = book->ready[0];
  memmove(&book->ready[0], &book->ready[1], (book->n_ready - 1) * sizeof(book->ready[0]));
  book->n_ready--;
  return history;
}

bool adc_replay_wants(const struct adc_replay_book* book, const struct adc_process_history* history,
                      size_t task) {
  return task < book->n_tasks && book->history_of[task] == history && book->wants_replay[task];
}

void adc_replay_settled(struct adc_replay_book* book, struct adc_process_history* history, size_t task) {
  book->history_of[task] = NULL;
  book->wants_replay[task] = false;
  history->wanting--;
}

void adc_replay_free(struct adc_process_history* history) {
  free_history(history);
}
