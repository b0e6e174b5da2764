#include "guard.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wire.h"

#define MAX_REGIONS 64

struct region {
  const char* start;
  size_t size;
  enum adc_status status;
  const char* message;
};

static struct region regions[MAX_REGIONS];
static volatile sig_atomic_t region_count;
static int verdict_fd = -1;

/* Writes "<message> (fault N bytes into the region)" with no libc calls
 * that are unsafe in a signal handler. */
static void report_fault(const struct region* region, const char* address) {
  char text[sizeof(((struct adc_wire_verdict*)0)->message)];
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
  adc_wire_send(verdict_fd, region->status, text);
}

static void on_fault(int signal_number, siginfo_t* info, void* context) {
  (void)context;
  const char* address = info->si_addr;
  for (sig_atomic_t i = 0; i < region_count; i++) {
    if (address >= regions[i].start && address < regions[i].start + regions[i].size) {
      report_fault(&regions[i], address);
      _exit(0);
    }
  }
  /* Not ours: let the fault kill the process, which the parent reports as
   * a crash with the signal's name. */
  signal(signal_number, SIG_DFL);
}

void adc_guard_install(int fd) {
  verdict_fd = fd;
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, NULL);
  sigaction(SIGBUS, &action, NULL);
}

void adc_guard_add(const void* start, size_t size, enum adc_status status, const char* message) {
  if (region_count == MAX_REGIONS) return;
  regions[region_count] = (struct region){start, size, status, message};
  region_count = region_count + 1;
}

void adc_guard_remove_all(void) { region_count = 0; }

static size_t rounded_to_pages(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (size + page - 1) / page * page;
}

void* adc_guard_pages_new(size_t size) {
  void* pages = mmap(NULL, rounded_to_pages(size), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return pages == MAP_FAILED ? NULL : pages;
}

void adc_guard_pages_seal(void* pages, size_t size, enum adc_status status, const char* message) {
  mprotect(pages, rounded_to_pages(size), PROT_NONE);
  adc_guard_add(pages, rounded_to_pages(size), status, message);
}

void adc_guard_pages_free(void* pages, size_t size) {
  if (pages != NULL) munmap(pages, rounded_to_pages(size));
}
