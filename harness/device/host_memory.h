/* Host memory operations shared by the devices whose buffers are host
 * memory (the CPU, the simulated device; opencl's copies, its fine-grained
 * SVM being host-addressable).  Memory that may be made
 * read-only is mapped in whole pages of its own, so that a stray write
 * faults exactly there; the rest comes from malloc, which is cheaper. */
#ifndef ADC_HOST_MEMORY_H
#define ADC_HOST_MEMORY_H

#include "device/device.h"

/* A device made of this process's memory is always there, and keeps no
 * state. */
int adc_host_open(struct adc_device* device, struct adc_error* error);
/* The host's processor, as /proc/cpuinfo names it. */
void adc_host_describe(const struct adc_device* device, struct adc_device_description* out);
int adc_host_copy(const struct adc_device* device, void* destination, const void* source, size_t size,
                  struct adc_error* error);
void* adc_host_allocate(const struct adc_device* device, size_t size, bool protectable,
                        struct adc_error* error);
void adc_host_free(const struct adc_device* device, void* memory, size_t size, bool protectable);
int adc_host_protect_read_only(const struct adc_device* device, void* memory, size_t size,
                               struct adc_error* error);

#endif /* ADC_HOST_MEMORY_H */
