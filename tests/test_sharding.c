/* --shard INDEX/COUNT: the shards of a case list are disjoint, together
 * are the whole list, differ in size by one case at most, and each holds
 * cases of every rule that has at least COUNT of them, so that shards of a
 * CI matrix take similar time. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define COUNT 3
#define MAX_CASES 16384

struct case_list {
  char* ids[MAX_CASES];
  int n;
};

/* The case IDs adc-conform lists for the reference pair on every device,
 * for `shard` ("I/N"), or unsharded when it is NULL. */
static void list_cases(const char* shard, struct case_list* out) {
  const char* args[] = {"--fixtures", HAND_WRITTEN_FIXTURES,
                        "--producer", "reference",
                        "--consumer", "reference",
                        "--device",   "all",
                        "--list",     shard != NULL ? "--shard" : NULL,
                        shard,        NULL};
  struct run_result run = run_conform(args);
  ck_assert_msg(run.exit_code == 0, "exit %d: %s", run.exit_code, run.err);
  out->n = 0;
  for (char* line = strtok(run.out, "\n"); line != NULL && out->n < MAX_CASES; line = strtok(NULL, "\n")) {
    out->ids[out->n++] = strdup(line);
  }
  run_result_free(&run);
}

static void free_list(struct case_list* list) {
  for (int i = 0; i < list->n; i++) free(list->ids[i]);
}

static int by_id(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

/* The rule of a case ID (<device>/<rule>/<fixture>), copied into `rule`. */
static void rule_of(const char* id, char* rule, size_t size) {
  const char* start = strchr(id, '/') + 1;
  snprintf(rule, size, "%.*s", (int)(strchr(start, '/') - start), start);
}

static int cases_of_rule(const struct case_list* list, const char* rule) {
  int n = 0;
  char other[128];
  for (int i = 0; i < list->n; i++) {
    rule_of(list->ids[i], other, sizeof(other));
    n += strcmp(other, rule) == 0;
  }
  return n;
}

START_TEST(shards_partition_the_cases_evenly) {
  static struct case_list all, shards[COUNT], joined;
  list_cases(NULL, &all);
  ck_assert_int_gt(all.n, COUNT);
  joined.n = 0;
  int smallest = all.n, largest = 0;
  for (int s = 0; s < COUNT; s++) {
    char shard[16];
    snprintf(shard, sizeof(shard), "%d/%d", s + 1, COUNT);
    list_cases(shard, &shards[s]);
    smallest = shards[s].n < smallest ? shards[s].n : smallest;
    largest = shards[s].n > largest ? shards[s].n : largest;
    for (int i = 0; i < shards[s].n; i++) joined.ids[joined.n++] = shards[s].ids[i];
  }
  ck_assert_int_le(largest - smallest, 1);
  /* Together, exactly the whole list: no case twice, none missing. */
  ck_assert_int_eq(joined.n, all.n);
  qsort(all.ids, (size_t)all.n, sizeof(char*), by_id);
  qsort(joined.ids, (size_t)joined.n, sizeof(char*), by_id);
  for (int i = 0; i < all.n; i++) ck_assert_str_eq(joined.ids[i], all.ids[i]);
  /* Each shard has a share of every rule with COUNT cases or more. */
  char rule[128];
  for (int i = 0; i < all.n; i++) {
    rule_of(all.ids[i], rule, sizeof(rule));
    if (cases_of_rule(&all, rule) < COUNT) continue;
    for (int s = 0; s < COUNT; s++) {
      ck_assert_msg(cases_of_rule(&shards[s], rule) > 0, "shard %d/%d has no case of %s", s + 1, COUNT, rule);
    }
  }
  free_list(&all);
  for (int s = 0; s < COUNT; s++) free_list(&shards[s]);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("sharding");
  TCase* plan = tcase_create("plan");
  tcase_set_timeout(plan, 120);
  tcase_add_test(plan, shards_partition_the_cases_evenly);
  suite_add_tcase(suite, plan);
  return run_suite(suite);
}
