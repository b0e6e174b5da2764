#include "support/symbolise.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/program_output.h"

#define MAX_OFFSETS 16
/* Two lines per offset: a function's name and a place. */
#define OUTPUT_SIZE (MAX_OFFSETS * 1024)

/* "??" and "??:0" are addr2line's unknowns. */
static bool known(const char* text) {
  return text[0] != '\0' && strncmp(text, "??", 2) != 0;
}

/* A place: "FILE:LINE", "FILE:LINE (discriminator N)", "FILE:?", "??:0". */
static void take_place(const char* place, struct adc_symbol* symbol) {
  const char* colon = strrchr(place, ':');
  if (colon == NULL || !known(place)) return;
  snprintf(symbol->file, sizeof(symbol->file), "%.*s", (int)(colon - place), place);
  symbol->line = atoi(colon + 1);
}

/* What addr2line said of each (object, offset) asked before: a library
 * that crashes in every case (or as every process ends) crashes at the
 * same few places, and one addr2line per case cost tenths of a second
 * each (a library dying at exit, run a process per case: 12 s of 12.1). */
#define REMEMBERED 256
struct remembered_symbol {
  char object[512];
  uintptr_t offset;
  struct adc_symbol symbol;
};
static struct remembered_symbol remembered[REMEMBERED]; /* the parent's */
static size_t n_remembered;

static const struct adc_symbol* recall(const char* object, uintptr_t offset) {
  size_t n = n_remembered < REMEMBERED ? n_remembered : REMEMBERED;
  for (size_t i = 0; i < n; i++) {
    if (remembered[i].offset == offset && strcmp(remembered[i].object, object) == 0)
      return &remembered[i].symbol;
  }
  return NULL;
}

/* Keeps the newest REMEMBERED answers, the oldest giving way. */
static void remember(const char* object, uintptr_t offset, const struct adc_symbol* symbol) {
  if (strlen(object) >= sizeof(remembered[0].object)) return;
  struct remembered_symbol* slot = &remembered[n_remembered++ % REMEMBERED];
  snprintf(slot->object, sizeof(slot->object), "%s", object);
  slot->offset = offset;
  slot->symbol = *symbol;
}

/* Asks addr2line for `n` offsets, at most MAX_OFFSETS. */
static size_t ask_addr2line(const char* object, const uintptr_t* offsets, size_t n,
                            struct adc_symbol* symbols) {
  char numbers[MAX_OFFSETS][24];
  char* argv[6 + MAX_OFFSETS] = {"addr2line", "-f", "-C", "-e", (char*)object};
  for (size_t i = 0; i < n; i++) {
    snprintf(numbers[i], sizeof(numbers[i]), "0x%jx", (uintmax_t)offsets[i]);
    argv[5 + i] = numbers[i];
  }
  argv[5 + n] = NULL;
  static char text[OUTPUT_SIZE]; /* the parent's, one call at a time */
  struct adc_program_run run;
  /* What it said before the bound is kept. */
  adc_program_output(argv, ADC_SYMBOLISE_SECONDS, text, sizeof(text), &run);
  size_t answered = 0;
  char* rest = text;
  while (answered < n) {
    char* function = strsep(&rest, "\n");
    char* place = rest != NULL ? strsep(&rest, "\n") : NULL;
    if (place == NULL) break;
    struct adc_symbol* symbol = &symbols[answered++];
    if (known(function)) snprintf(symbol->function, sizeof(symbol->function), "%s", function);
    take_place(place, symbol);
  }
  return answered;
}

size_t adc_symbolise(const char* object, const uintptr_t* offsets, size_t n, struct adc_symbol* symbols) {
  memset(symbols, 0, n * sizeof(*symbols));
  if (n > MAX_OFFSETS) n = MAX_OFFSETS;
  uintptr_t unknown[MAX_OFFSETS];
  size_t which[MAX_OFFSETS];
  size_t n_unknown = 0;
  size_t answered = 0;
  for (size_t i = 0; i < n; i++) {
    const struct adc_symbol* known_before = recall(object, offsets[i]);
    if (known_before != NULL) {
      symbols[i] = *known_before;
      answered++;
    } else {
      unknown[n_unknown] = offsets[i];
      which[n_unknown++] = i;
    }
  }
  if (n_unknown == 0) return answered;
  struct adc_symbol asked[MAX_OFFSETS];
  memset(asked, 0, sizeof(asked));
  size_t said = ask_addr2line(object, unknown, n_unknown, asked);
  for (size_t k = 0; k < n_unknown; k++) {
    symbols[which[k]] = asked[k];
    /* Only what addr2line answered: one that ran past its bound may be
     * asked again. */
    if (k < said) remember(object, unknown[k], &asked[k]);
  }
  return answered + said;
}
