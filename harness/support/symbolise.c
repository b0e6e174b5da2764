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

size_t adc_symbolise(const char* object, const uintptr_t* offsets, size_t n, struct adc_symbol* symbols) {
  memset(symbols, 0, n * sizeof(*symbols));
  if (n > MAX_OFFSETS) n = MAX_OFFSETS;
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
