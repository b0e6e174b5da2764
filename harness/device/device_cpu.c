/* The CPU as a device: host memory, no ids, no event type.  Memory for the
 * harness's feeds that may be made read-only is mapped in whole pages of its
 * own, so that a stray write faults exactly there; the rest comes from
 * malloc, which is cheaper. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "device/device_kinds.h"
#include "support/pages.h"

static int cpu_probe(const struct adc_device* device, struct adc_error* error) {
  (void)device;
  (void)error;
  return 0;
}

static int cpu_wait_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  (void)device;
  if (sync_event == NULL) return 0;
  /* spec: "If no event type is supported ("N/A"), then the sync_event member
   * should always be null": there is nothing a CPU consumer could wait on. */
  return adc_fail(error, "sync_event is %p on the CPU, which has no event type", sync_event);
}

static int cpu_copy(const struct adc_device* device, void* destination, const void* source, size_t size,
                    struct adc_error* error) {
  (void)device;
  (void)error;
  if (size > 0) memcpy(destination, source, size);
  return 0;
}

static void* cpu_allocate(const struct adc_device* device, size_t size, bool protectable,
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

static void cpu_free(const struct adc_device* device, void* memory, size_t size, bool protectable) {
  (void)device;
  if (!protectable) {
    free(memory);
  } else if (memory != NULL) {
    munmap(memory, adc_pages_round_up(size));
  }
}

static int cpu_protect_read_only(const struct adc_device* device, void* memory, size_t size,
                                 struct adc_error* error) {
  (void)device;
  struct adc_page_span span = adc_pages_covering(memory, size);
  if (mprotect(span.start, span.size, PROT_READ) != 0) return adc_fail(error, "mprotect failed");
  return 0;
}

const struct adc_device adc_device_cpu = {
    .name = "cpu",
    .arrow_type = ARROW_DEVICE_CPU,
    .device_id = -1,
    .event_type = NULL,
    .host_accessible = true,
    .probe = cpu_probe,
    .wait_event = cpu_wait_event,
    .copy_to_host = cpu_copy,
    .copy_from_host = cpu_copy,
    .allocate = cpu_allocate,
    .free = cpu_free,
    .protect_read_only = cpu_protect_read_only,
};
