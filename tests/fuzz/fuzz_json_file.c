/* The document: schema, dictionaries and batches (fuzz_json_writer.h).
 * A type is spelled from its row: its JSON name, the `match` parameters
 * that select the row (one equal to its default sometimes left out), and
 * the parameters its format string names. */
#include <inttypes.h>
#include <string.h>

#include "fuzz_json_values.h"
#include "fuzz_json_writer.h"

static void write_name(struct fuzz_text* text, const char* name) {
  fuzz_text_string(text, (const uint8_t*)name, strlen(name));
}

/* {"name": ..., parameters}: a type object. */
static void write_type(struct fuzz_text* text, const struct arrow_type_row* row, const bool spell_default[2],
                       const struct fuzz_parameter* parameters, int n_parameters) {
  fuzz_text_printf(text, "{\"name\": \"%s\"", row->json_name);
  for (int i = 0; i < 2 && row->match[i][0] != NULL; i++) {
    bool is_default = row->match_default[i] != NULL && strcmp(row->match_default[i], row->match[i][1]) == 0;
    if (is_default && !spell_default[i]) continue;
    fuzz_text_printf(text, ", \"%s\": %s", row->match[i][0], row->match[i][1]);
  }
  for (int i = 0; i < n_parameters; i++) {
    if (parameters[i].json[0] != '\0')
      fuzz_text_printf(text, ", \"%s\": %s", parameters[i].name, parameters[i].json);
  }
  fuzz_text_printf(text, "}");
}

/* "metadata": 1 to 3 pairs of short strings, empty ones among them. */
static void write_metadata(struct fuzz_bytes* in, struct fuzz_text* text) {
  int n = (int)fuzz_range(in, 1, 3);
  fuzz_text_printf(text, ", \"metadata\": [");
  for (int i = 0; i < n; i++) {
    uint8_t key[16], value[16];
    size_t key_size = fuzz_json_draw_bytes(in, ARROW_VALUES_STRING, 0, 8, key);
    size_t value_size = fuzz_json_draw_bytes(in, ARROW_VALUES_STRING, 0, 8, value);
    fuzz_text_printf(text, "%s{\"key\": ", i ? ", " : "");
    fuzz_text_string(text, key, key_size);
    fuzz_text_printf(text, ", \"value\": ");
    fuzz_text_string(text, value, value_size);
    fuzz_text_printf(text, "}");
  }
  fuzz_text_printf(text, "]");
}

static void write_field(struct fuzz_bytes* in, struct fuzz_text* text, const struct fuzz_node* node) {
  static const bool spelled[2] = {true, true};
  fuzz_text_printf(text, "{\"name\": ");
  write_name(text, node->name);
  fuzz_text_printf(text, ", \"nullable\": %s, \"type\": ", node->nullable ? "true" : "false");
  write_type(text, node->row, node->spell_default, node->parameters, node->n_parameters);
  fuzz_text_printf(text, ", \"children\": [");
  for (int c = 0; c < node->n_children; c++) {
    if (c > 0) fuzz_text_printf(text, ", ");
    write_field(in, text, node->children[c]);
  }
  fuzz_text_printf(text, "]");
  if (node->index != NULL) {
    fuzz_text_printf(text, ", \"dictionary\": {\"id\": %" PRId64 ", \"indexType\": ", node->dictionary_id);
    write_type(text, node->index, spelled, NULL, 0);
    fuzz_text_printf(text, ", \"isOrdered\": %s}", node->ordered ? "true" : "false");
  }
  if (node->has_metadata) write_metadata(in, text);
  fuzz_text_printf(text, "}");
}

/* A batch's length: short, empty, a few dozen, or long (an input that ran
 * out reads short). */
static int64_t draw_length(struct fuzz_bytes* in) {
  switch (fuzz_byte(in) % 8) {
    case 5:
      return 0;
    case 6:
      return fuzz_range(in, 9, 64);
    case 7:
      return fuzz_range(in, 100, 1100);
    default:
      return fuzz_range(in, 1, 8);
  }
}

void fuzz_json_write_file(struct fuzz_bytes* in, const struct fuzz_tree* tree, struct fuzz_text* text) {
  fuzz_text_printf(text, "{\"schema\": {\"fields\": [");
  for (int i = 0; i < tree->n_fields; i++) {
    if (i > 0) fuzz_text_printf(text, ", ");
    write_field(in, text, tree->fields[i]);
  }
  fuzz_text_printf(text, "]");
  if (tree->schema_metadata) write_metadata(in, text);
  fuzz_text_printf(text, "}");

  struct fuzz_writer w = {in, text, FUZZ_JSON_ROW_BUDGET};
  if (tree->n_dictionaries > 0) {
    fuzz_text_printf(text, ", \"dictionaries\": [");
    for (int d = 0; d < tree->n_dictionaries; d++) {
      const struct fuzz_node* node = tree->dictionaries[d];
      fuzz_text_printf(text, "%s{\"id\": %" PRId64 ", \"data\": {\"count\": %" PRId64 ", \"columns\": [",
                       d ? ", " : "", node->dictionary_id, node->dictionary_length);
      fuzz_json_column(&w, node, node->dictionary_length, true);
      fuzz_text_printf(text, "]}}");
    }
    fuzz_text_printf(text, "]");
  }

  /* 1 to 3 batches, or none (a schema alone, as the fixture zero_batches). */
  int n_batches = (fuzz_byte(in) + 1) % 4;
  fuzz_text_printf(text, ", \"batches\": [");
  for (int b = 0; b < n_batches; b++) {
    int64_t length = draw_length(in);
    fuzz_text_printf(text, "%s{\"count\": %" PRId64 ", \"columns\": [", b ? ", " : "", length);
    for (int i = 0; i < tree->n_fields; i++) {
      if (i > 0) fuzz_text_printf(text, ", ");
      fuzz_json_column(&w, tree->fields[i], length, false);
    }
    fuzz_text_printf(text, "]}");
  }
  fuzz_text_printf(text, "]}\n");
}
