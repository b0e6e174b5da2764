#include "runner/fixture_cover.h"

#include <stdlib.h>
#include <string.h>

/* The types a fixture holds: a flag per row of the type table, and one
 * more for dictionary encoding. */
#define DICTIONARY_KEY arrow_type_row_count

static void mark_type(const struct arrow_json_type* type, bool* held) {
  if (type->row != NULL) held[type->row - arrow_type_rows] = true;
}

static void mark_field(const struct arrow_json_field* field, bool* held) {
  mark_type(&field->type, held);
  if (field->is_dictionary) {
    mark_type(&field->index_type, held);
    held[DICTIONARY_KEY] = true;
  }
  for (int64_t i = 0; i < field->n_children; i++) mark_field(&field->children[i], held);
}

void adc_fixture_type_keys(const struct arrow_json_file* fixture, bool* held) {
  for (int64_t i = 0; i < fixture->n_fields; i++) mark_field(&fixture->fields[i], held);
}

void adc_cover_fixtures(const struct adc_session* session, const bool* applies, bool* keep) {
  size_t n_keys = ADC_FIXTURE_TYPE_KEYS, n = session->n_fixtures;
  bool* held = calloc(n * n_keys + n_keys + 1, sizeof(*held)); /* per fixture, then the set's */
  if (held == NULL) abort();
  bool* covered = held + n * n_keys;
  for (size_t f = 0; f < n; f++) {
    keep[f] = false;
    if (applies[f]) adc_fixture_type_keys(&session->fixtures[f].model, held + f * n_keys);
  }
  for (;;) {
    size_t best = n, best_gain = 0;
    for (size_t f = 0; f < n; f++) {
      if (!applies[f] || keep[f]) continue;
      size_t gain = 0;
      for (size_t k = 0; k < n_keys; k++) gain += held[f * n_keys + k] && !covered[k];
      if (gain > best_gain) best = f, best_gain = gain;
    }
    if (best == n) break;
    keep[best] = true;
    for (size_t k = 0; k < n_keys; k++) covered[k] |= held[best * n_keys + k];
  }
  /* A rule whose fixtures hold no type at all still runs on one. */
  bool any_kept = false;
  for (size_t f = 0; f < n; f++) any_kept |= keep[f];
  for (size_t f = 0; f < n && !any_kept; f++) any_kept = keep[f] = applies[f];
  free(held);
}
