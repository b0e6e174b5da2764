/* Moving structures (spec: "Moving an array", "Moving child arrays").
 *
 * A move is a bitwise copy plus marking the source released.  The source
 * sits on a page of its own (output_slot.h), which the harness makes
 * inaccessible after the move, so a producer whose release callback still
 * reaches the old address faults there, and the fault is this rule's
 * verdict. */
#include <stdlib.h>
#include <string.h>

#include "rule_api/fixture_compare.h"
#include "rule_api/output_slot.h"
#include "rule_api/producer_calls.h"

static const char moved_from_message[] =
    "the producer touched the moved-from ArrowArray after the "
    "consumer moved it; the release callback must not assume the "
    "structure stays where it was produced";

/* Moves `size` bytes (the whole structure the producer filled) to the
 * heap and marks the source released, without calling its callback. */
static void* move_to_heap(struct ArrowArray* source, size_t size) {
  void* destination = malloc(size);
  memcpy(destination, source, size);
  source->release = NULL;
  return destination;
}

static struct ArrowArray* move_child_to_heap(struct ArrowArray* source) {
  return move_to_heap(source, sizeof(*source));
}

static void base_relocatable(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* source = adc_export_batch(ctx, batch);
    if (source == NULL) return;
    if (!adc_batch_matches_before(ctx, batch, source)) {
      source->release(source);
      return;
    }
    /* The array is the first member of a device array, so the moved batch
     * starts where the moved structure does. */
    struct ArrowArray* moved = move_to_heap(source, adc_output_slot_size(source));
    adc_output_slot_seal(source, adc_violation_status(ctx->rule), moved_from_message);
    char difference[512];
    if (adc_compare_batch(ctx, batch, moved, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d differs after being moved: %s", batch, difference);
    }
    moved->release(moved);
    free(moved);
  }
}

/* Every column is moved out of the batch, then the batch is released
 * "immediately afterwards"; each column must stay readable and releasable. */
static void child_outlives_parent(struct adc_case_context* ctx) {
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* parent = adc_export_batch(ctx, batch);
    if (parent == NULL) return;
    if (!adc_batch_matches_before(ctx, batch, parent)) {
      parent->release(parent);
      return;
    }
    int64_t n = parent->n_children;
    struct ArrowArray** columns = calloc((size_t)n + 1, sizeof(*columns));
    for (int64_t i = 0; i < n; i++) columns[i] = move_child_to_heap(parent->children[i]);
    parent->release(parent);
    for (int64_t i = 0; i < n; i++) {
      char difference[512];
      if (!ctx->has_verdict &&
          adc_compare_column(ctx, batch, i, columns[i], difference, sizeof(difference)) != 0) {
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

/* The dictionary is moved out of its column, the column released; the
 * dictionary must stay readable and releasable on its own. */
static void dictionary_outlives_parent(struct adc_case_context* ctx) {
  int64_t c = first_dictionary_column(ctx->fixture);
  ADC_FOR_EACH_BATCH(ctx, batch) {
    struct ArrowArray* parent = adc_export_batch(ctx, batch);
    if (parent == NULL) return;
    if (!adc_batch_matches_before(ctx, batch, parent)) {
      parent->release(parent);
      return;
    }
    if (parent->children[c]->dictionary == NULL) {
      /* A library that keeps its own model may export the column decoded
       * (its values are the fixture's: array.data.matches_fixture). */
      adc_not_supported(ctx, "the library exports column '%s' decoded: it has no dictionary to move out",
                        ctx->fixture->fields[c].name);
      parent->release(parent);
      return;
    }
    struct ArrowArray* column = move_child_to_heap(parent->children[c]);
    parent->release(parent);
    struct ArrowArray* dictionary = move_child_to_heap(column->dictionary);
    column->release(column);
    free(column);
    char difference[512];
    if (adc_compare_dictionary(ctx, batch, c, dictionary, difference, sizeof(difference)) != 0) {
      adc_violation(ctx, "batch %d: a dictionary moved out before its column was released changed: %s", batch,
                    difference);
    }
    dictionary->release(dictionary);
    free(dictionary);
  }
}

static bool has_top_level_dictionary(const struct arrow_json_file* fixture) {
  return first_dictionary_column(fixture) >= 0;
}
static const struct adc_fixture_filter with_top_level_dictionary = {has_top_level_dictionary,
                                                                    "a dictionary-encoded top-level column"};

static const char move_children_sentence[] =
    "It is also possible to move one or several child arrays, but "
    "the parent ArrowArray structure MUST be released immediately "
    "afterwards, as it won't point to valid child arrays anymore.";

static const struct adc_rule rules[] = {
    {
        .id = "array.move.base_relocatable",
        .clause = "Moving an array",
        .sentence = "The release callback MUST not assume that the structure will be located at the same "
                    "memory location as when it was originally produced.",
        .method = "Exports into a struct on its own page, copies it bitwise, makes the page inaccessible, "
                  "then reads and releases the copy.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = base_relocatable,
    },
    {
        .id = "array.move.child_outlives_parent",
        .clause = "Moving child arrays",
        .sentence = move_children_sentence,
        .method = "Moves every column out of the batch, releases the batch, then checks and releases each "
                  "column.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .run = child_outlives_parent,
    },
    {
        .id = "array.move.dictionary_outlives_parent",
        .clause = "Moving child arrays",
        .sentence = move_children_sentence,
        .method = "Moves a dictionary-encoded column out of the batch and its dictionary out of the "
                  "column, releases both parents, then checks and releases the dictionary.",
        .role = ADC_ROLE_PRODUCER,
        .severity = ADC_MUST,
        .needs = ADC_NEED(ExportBatchFromJson),
        .fixtures = &with_top_level_dictionary,
        .run = dictionary_outlives_parent,
    },
};

const struct adc_rule_family adc_move_rules = ADC_RULE_FAMILY(rules);
