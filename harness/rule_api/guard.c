#include "rule_api/guard.h"

#include <string.h>
#include <unistd.h>

#include "support/pages.h"

/* Every structure handed to a library takes two regions. */
#define MAX_REGIONS 4096

struct region {
  const char* start;
  size_t size;
  enum adc_status status;
  const char* message;
};

static struct region regions[MAX_REGIONS];
static volatile sig_atomic_t region_count;
static adc_guard_report_fn report;

/* Reports "<message> (fault N bytes into the region)" with no libc call
 * that is unsafe in a signal handler. */
static void report_fault(const struct region* region, const char* address) {
  char text[1024];
  size_t n = 0;
  for (const char* p = region->message; *p && n < sizeof(text) - 48; p++) text[n++] = *p;
  const char* middle = " (fault ";
  for (const char* p = middle; *p; p++) text[n++] = *p;
  char digits[24];
  size_t d = 0;
  size_t offset = (size_t)(address - region->start);
  do {
    digits[d++] = (char)('0' + offset % 10);
    offset /= 10;
  } while (offset > 0);
  while (d > 0) text[n++] = digits[--d];
  const char* tail = " bytes into the region)";
  for (const char* p = tail; *p; p++) text[n++] = *p;
  text[n] = '\0';
  report(region->status, text);
}

void adc_guard_claim_fault(const siginfo_t* info) {
  /* A signal sent (raise, kill: si_code <= 0) is not a fault of this
   * process's memory. */
  if (info->si_code <= 0 || report == NULL) return;
  const char* address = info->si_addr;
  for (sig_atomic_t i = 0; i < region_count; i++) {
    if (address >= regions[i].start && address < regions[i].start + regions[i].size) {
      report_fault(&regions[i], address);
      _exit(0);
    }
  }
}

void adc_guard_report_to(adc_guard_report_fn report_verdict) {
  report = report_verdict;
}

int adc_guard_add(const void* start, size_t size, enum adc_status status, const char* message) {
  /* Protection is by page, so a fault anywhere on the pages is the region's. */
  struct adc_page_span span = adc_pages_covering(start, size);
  struct region region = {span.start, span.size, status, message};
  for (sig_atomic_t i = 0; i < region_count; i++) {
    if (regions[i].size == 0) {
      regions[i] = region;
      return (int)i;
    }
  }
  if (region_count == MAX_REGIONS) return -1;
  regions[region_count] = region;
  region_count = region_count + 1;
  return (int)(region_count - 1);
}

void adc_guard_remove(int handle) {
  if (handle >= 0 && handle < region_count) regions[handle].size = 0;
}

void adc_guard_forget_all(void) {
  region_count = 0;
}
