#include "device/host_memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "support/pages.h"

int adc_host_open(struct adc_device* device, struct adc_error* error) {
  (void)device;
  (void)error;
  return 0;
}

void adc_host_describe(const struct adc_device* device, struct adc_device_description* out) {
  (void)device;
  FILE* cpuinfo = fopen("/proc/cpuinfo", "r");
  if (cpuinfo == NULL) return;
  char line[512];
  while (fgets(line, sizeof(line), cpuinfo) != NULL) {
    /* "model name\t: AMD EPYC 7B13" on x86; other architectures differ, and
     * their model stays unknown. */
    if (strncmp(line, "model name", 10) != 0) continue;
    const char* value = strchr(line, ':');
    if (value == NULL) break;
    value += strspn(value, ": \t");
    snprintf(out->model, sizeof(out->model), "%.*s", (int)strcspn(value, "\n"), value);
    break;
  }
  fclose(cpuinfo);
}

int adc_host_copy(const struct adc_device* device, void* destination, const void* source, size_t size,
                  struct adc_error* error) {
  (void)device;
  (void)error;
  if (size > 0) memcpy(destination, source, size);
  return 0;
}

void* adc_host_allocate(const struct adc_device* device, size_t size, bool protectable,
                        struct adc_error* error) {
  (void)device;
  void* memory = NULL;
  if (!protectable) {
    memory = malloc(size ? size : 1);
  } else {
    memory = mmap(NULL, adc_pages_round_up(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) memory = NULL;
  }
  if (memory == NULL) adc_fail(error, "no memory left for %zu bytes", size);
  return memory;
}

void adc_host_free(const struct adc_device* device, void* memory, size_t size, bool protectable) {
  (void)device;
  if (!protectable) {
    free(memory);
  } else if (memory != NULL) {
    munmap(memory, adc_pages_round_up(size));
  }
}

int adc_host_protect_read_only(const struct adc_device* device, void* memory, size_t size,
                               struct adc_error* error) {
  (void)device;
  struct adc_page_span span = adc_pages_covering(memory, size);
  if (mprotect(span.start, span.size, PROT_READ) != 0) return adc_fail(error, "mprotect failed");
  return 0;
}
