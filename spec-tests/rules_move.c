/* Moving structures (spec: "Moving an array", "Moving child arrays").
 *
 * A move is a bitwise copy plus marking the source released.  The harness
 * places the source on pages of its own and makes them inaccessible after the
 * move, so a producer whose release callback still reaches the old address
 * faults there, and the fault is this rule's verdict. */
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "producer_calls.h"
#include "rules.h"

static const char moved_from_message[] =
    "the producer touched the moved-from ArrowArray after the consumer moved it; the release "
    "callback must not assume the structure stays where it was produced";

static struct ArrowArray* move_to_heap(struct ArrowArray* source) {
  struct ArrowArray* destination = malloc(sizeof(*destination));
  memcpy(destination, source, sizeof(*destination));
  source->release = NULL; /* released, without calling the callback */
  return destination;
}

void rule_array_move_base(struct adc_case_context* ctx) {
  for (int batch = 0; batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ArrowArray* source = adc_guard_pages_new(sizeof(*source));
    if (!adc_export_batch(ctx, batch, source)) return adc_guard_pages_free(source, sizeof(*source));
    if (!adc_batch_matches_before(ctx, batch, source)) {
      source->release(source);
      return adc_guard_pages_free(source, sizeof(*source));
    }
    struct ArrowArray* moved = move_to_heap(source);
    adc_guard_pages_seal(source, sizeof(*source), adc_violation_status(ctx->rule), moved_from_message);
    char difference[512];
    if (arrow_json_compare_batch(ctx->fixture, batch, moved, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d differs after being moved: %s", batch, difference);
    }
    moved->release(moved);
    adc_guard_remove_all();
    adc_guard_pages_free(source, sizeof(*source));
    free(moved);
  }
}

/* Every column is moved out of the batch, then the batch is released
 * "immediately afterwards"; each column must stay readable and releasable. */
void rule_array_move_children(struct adc_case_context* ctx) {
  for (int batch = 0; batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ArrowArray parent;
    if (!adc_export_batch(ctx, batch, &parent)) return;
    if (!adc_batch_matches_before(ctx, batch, &parent)) return parent.release(&parent);
    int64_t n = parent.n_children;
    struct ArrowArray** columns = calloc((size_t)n + 1, sizeof(*columns));
    for (int64_t i = 0; i < n; i++) columns[i] = move_to_heap(parent.children[i]);
    parent.release(&parent);
    for (int64_t i = 0; i < n; i++) {
      char difference[512];
      if (!ctx->has_verdict &&
          arrow_json_compare_column(ctx->fixture, &ctx->fixture->fields[i], &ctx->fixture->batches[batch].columns[i],
                                    columns[i], difference, sizeof(difference)) != 0) {
        adc_violation(ctx, "batch %d: a column moved out before its parent was released changed: %s", batch,
                      difference);
      }
      columns[i]->release(columns[i]);
      free(columns[i]);
    }
    free(columns);
  }
}

static int64_t first_dictionary_column(const struct arrow_json_file* fixture) {
  for (int64_t i = 0; i < fixture->n_fields; i++) {
    if (fixture->fields[i].is_dictionary) return i;
  }
  return -1;
}

bool fixture_has_top_level_dictionary(const struct arrow_json_file* fixture) {
  return first_dictionary_column(fixture) >= 0;
}

/* The dictionary is moved out of its column, the column released; the
 * dictionary must stay readable and releasable on its own. */
void rule_array_move_dictionary(struct adc_case_context* ctx) {
  int64_t c = first_dictionary_column(ctx->fixture);
  const struct arrow_json_field* field = &ctx->fixture->fields[c];
  for (int batch = 0; batch < ctx->fixture->n_batches && !ctx->has_verdict; batch++) {
    struct ArrowArray parent;
    if (!adc_export_batch(ctx, batch, &parent)) return;
    if (!adc_batch_matches_before(ctx, batch, &parent)) return parent.release(&parent);
    struct ArrowArray* column = move_to_heap(parent.children[c]);
    parent.release(&parent);
    struct ArrowArray* dictionary = move_to_heap(column->dictionary);
    column->release(column);
    free(column);
    char difference[512];
    if (arrow_json_compare_values(&field->type, arrow_json_dictionary_values(ctx->fixture, field), dictionary,
                                  difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d: a dictionary moved out before its column was released changed: %s", batch,
                    difference);
    }
    dictionary->release(dictionary);
    free(dictionary);
  }
}
