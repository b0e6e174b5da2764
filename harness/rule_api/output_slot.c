#include "rule_api/output_slot.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rule_api/guard.h"
#include "support/pages.h"

/* What the bytes before a structure hold until the library is called. */
#define BEFORE_PATTERN 0xC7

struct slot_record {
  unsigned char* page; /* the writable page; the ones before and after are not */
  size_t size;
  const char* structure; /* "ArrowArray" */
  char wrote_past[192];
  char wrote_before[192];
};

/* Slots live until the process ends, or the next case of a prepared
 * process; a case makes a few dozen. */
#define MAX_SLOTS 1024
static struct slot_record slots[MAX_SLOTS];
/* Read by a signal handler: a slot is whole before it is counted. */
static volatile size_t n_slots;

static struct slot_record* record_of(const void* slot) {
  uintptr_t page = (uintptr_t)slot / adc_page_size() * adc_page_size();
  for (size_t i = 0; i < n_slots; i++) {
    if ((uintptr_t)slots[i].page == page) return &slots[i];
  }
  return NULL;
}

void* adc_output_slot_new(struct adc_case_context* ctx, size_t size, const char* structure,
                          const char* entry_point) {
  size_t page = adc_page_size();
  unsigned char* pages = n_slots < MAX_SLOTS && size <= page
                             ? mmap(NULL, 3 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                             : MAP_FAILED;
  if (pages == MAP_FAILED || mprotect(pages + page, page, PROT_READ | PROT_WRITE) != 0) {
    adc_unresolved(ctx, "the harness has no memory left for the %s handed to %s", structure, entry_point);
    return NULL;
  }
  struct slot_record* record = &slots[n_slots];
  record->page = pages + page;
  record->size = size;
  record->structure = structure;
  snprintf(record->wrote_past, sizeof(record->wrote_past),
           "the library wrote past the end of the %zu-byte %s it was given by %s", size, structure,
           entry_point);
  snprintf(record->wrote_before, sizeof(record->wrote_before),
           "the library wrote before the start of the %s it was given by %s", structure, entry_point);
  adc_guard_add(pages, page, ADC_CRASH, record->wrote_before);
  adc_guard_add(pages + 2 * page, page, ADC_CRASH, record->wrote_past);
  memset(record->page, BEFORE_PATTERN, page - size);
  n_slots = n_slots + 1;
  return record->page + page - size;
}

bool adc_output_slot_at(size_t index, const void** structure, const char** name) {
  if (index >= n_slots) return false;
  *structure = slots[index].page + adc_page_size() - slots[index].size;
  *name = slots[index].structure;
  return true;
}

bool adc_output_slot_intact(struct adc_case_context* ctx, const void* slot) {
  const struct slot_record* record = record_of(slot);
  size_t before = adc_page_size() - record->size;
  for (size_t i = 0; i < before; i++) {
    if (record->page[i] != BEFORE_PATTERN) {
      adc_crash(ctx, "%s (%zu bytes before it)", record->wrote_before, before - i);
      return false;
    }
  }
  return true;
}

size_t adc_output_slot_size(const void* slot) {
  return record_of(slot)->size;
}

void adc_output_slot_seal(const void* slot, enum adc_status status, const char* message) {
  const struct slot_record* record = record_of(slot);
  mprotect(record->page, adc_page_size(), PROT_NONE);
  adc_guard_add(record->page, adc_page_size(), status, message);
}

void adc_output_slots_release(void) {
  adc_guard_forget_all(); /* before the pages go: nothing may be mapped there meanwhile */
  size_t page = adc_page_size();
  for (size_t i = 0; i < n_slots; i++) munmap(slots[i].page - page, 3 * page);
  n_slots = 0;
}
