#include "runner/fixture_set.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/own_arena.h"

static int by_name(const void* a, const void* b) {
  return strcmp(((const struct adc_fixture*)a)->name, ((const struct adc_fixture*)b)->name);
}

/* Adds every *.json file of `folder` to the session's fixtures. */
static int add_folder(struct adc_session* session, const char* folder, size_t* capacity,
                      struct adc_error* error) {
  DIR* dir = opendir(folder);
  if (dir == NULL) return adc_fail(error, "cannot open fixtures folder '%s': %s", folder, strerror(errno));
  struct dirent* entry;
  while ((entry = readdir(dir)) != NULL) {
    size_t length = strlen(entry->d_name);
    if (length < 6 || strcmp(entry->d_name + length - 5, ".json") != 0) continue;
    if (session->n_fixtures == *capacity) {
      *capacity = *capacity ? *capacity * 2 : 16;
      session->fixtures = realloc(session->fixtures, *capacity * sizeof(*session->fixtures));
    }
    struct adc_fixture* fixture = &session->fixtures[session->n_fixtures++];
    memset(fixture, 0, sizeof(*fixture));
    fixture->name = strndup(entry->d_name, length - 5);
    size_t path_size = strlen(folder) + length + 2;
    fixture->path = malloc(path_size);
    snprintf(fixture->path, path_size, "%s/%s", folder, entry->d_name);
  }
  closedir(dir);
  return 0;
}

static int load_fixtures(struct adc_session* session, struct adc_error* error) {
  /* One folder, or several separated by ':' (the bundled set is the
   * hand-written fixtures and the generated ones of the whole format). */
  size_t capacity = 0;
  char folders[sizeof(session->fixtures_dir)];
  snprintf(folders, sizeof(folders), "%s", session->fixtures_dir);
  char* rest = folders;
  for (char* folder = strsep(&rest, ":"); folder != NULL; folder = strsep(&rest, ":")) {
    if (folder[0] == '\0') continue;
    if (add_folder(session, folder, &capacity, error) != 0) {
      adc_free_fixtures(session);
      return -1;
    }
  }
  if (session->n_fixtures == 0) {
    adc_free_fixtures(session);
    return adc_fail(error, "no *.json fixture in '%s'", session->fixtures_dir);
  }
  qsort(session->fixtures, session->n_fixtures, sizeof(*session->fixtures), by_name);
  /* A fixture's name is its cases' last part: two of one name would be
   * one case twice. */
  for (size_t i = 1; i < session->n_fixtures; i++) {
    if (strcmp(session->fixtures[i].name, session->fixtures[i - 1].name) == 0) {
      int status = adc_fail(error, "two fixtures are named '%s': %s and %s", session->fixtures[i].name,
                            session->fixtures[i - 1].path, session->fixtures[i].path);
      adc_free_fixtures(session);
      return status;
    }
  }
  for (size_t i = 0; i < session->n_fixtures; i++) {
    char reason[900];
    if (arrow_json_read_file(session->fixtures[i].path, &session->fixtures[i].model, reason,
                             sizeof(reason)) != 0) {
      adc_free_fixtures(session);
      return adc_fail(error, "malformed fixture %s", reason);
    }
  }
  return 0;
}

struct fixtures_to_load {
  struct adc_session* session;
  struct adc_error* error;
};

static int load_fixtures_job(void* argument) {
  struct fixtures_to_load* job = argument;
  return load_fixtures(job->session, job->error);
}

int adc_load_fixtures(struct adc_session* session, struct adc_error* error) {
  /* Reading a fixture frees its parsed JSON between the blocks of the model
   * it keeps: read in an arena of its own, so that no case's process
   * allocates into those gaps, a copy-on-write fault each (measured on the
   * 1102 CPU cases with --jobs 1: 110 faults a case, 93 so). */
  struct fixtures_to_load job = {session, error};
  return adc_run_in_own_arena(load_fixtures_job, &job);
}

void adc_free_fixtures(struct adc_session* session) {
  for (size_t i = 0; i < session->n_fixtures; i++) {
    arrow_json_file_free(&session->fixtures[i].model);
    free(session->fixtures[i].name);
    free(session->fixtures[i].path);
  }
  free(session->fixtures);
  session->fixtures = NULL;
  session->n_fixtures = 0;
}
