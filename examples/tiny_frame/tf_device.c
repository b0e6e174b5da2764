/* The allocator: one counter of bytes in use per device, and 64-byte
 * aligned, 64-byte padded allocations (the Arrow columnar format
 * recommends both, and GPU allocators give no less). */
#include "tf_device.h"

#include <stdlib.h>
#include <string.h>

#include "adc/simulated_device.h"
#include "tf_error.h"

#define TF_ALIGNMENT 64

/* Bytes in use: [0] the CPU, [1 + id] simulated device `id`. */
static atomic_llong bytes_in_use[1 + ADC_SIMULATED_DEVICE_COUNT];

int tf_device_check(struct tf_device device) {
  if (device.type == ARROW_DEVICE_CPU) return 0;
  if (device.type == ADC_SIMULATED_DEVICE_TYPE) {
    if (device.id >= 0 && device.id < ADC_SIMULATED_DEVICE_COUNT) return 0;
    return tf_fail("tiny_frame has no simulated device %lld (it has ids 0 to %d)", (long long)device.id,
                   ADC_SIMULATED_DEVICE_COUNT - 1);
  }
  return tf_fail("tiny_frame does not run on device type %d (only the CPU, %d, and the simulated device, %d)",
                 (int)device.type, ARROW_DEVICE_CPU, ADC_SIMULATED_DEVICE_TYPE);
}

static atomic_llong* counter_of(struct tf_device device) {
  return device.type == ARROW_DEVICE_CPU ? &bytes_in_use[0] : &bytes_in_use[1 + device.id];
}

static int64_t padded(int64_t size) {
  int64_t blocks = size / TF_ALIGNMENT + (size % TF_ALIGNMENT != 0);
  return (blocks > 0 ? blocks : 1) * TF_ALIGNMENT;
}

struct tf_buffer* tf_buffer_new(struct tf_device device, int64_t size) {
  if (tf_device_check(device) != 0) return NULL;
  if (size < 0 || size > INT64_MAX / 2) {
    tf_fail("tiny_frame cannot allocate %lld bytes", (long long)size);
    return NULL;
  }
  struct tf_buffer* buffer = malloc(sizeof(*buffer));
  /* aligned_alloc (C11) takes a size that is a multiple of the alignment. */
  uint8_t* data = buffer != NULL ? aligned_alloc(TF_ALIGNMENT, (size_t)padded(size)) : NULL;
  if (data == NULL) {
    free(buffer);
    tf_fail("tiny_frame is out of memory (%lld bytes)", (long long)size);
    return NULL;
  }
  memset(data, 0, (size_t)padded(size));
  atomic_init(&buffer->refs, 1);
  buffer->device = device;
  buffer->size = size;
  buffer->data = data;
  atomic_fetch_add(counter_of(device), padded(size));
  return buffer;
}

struct tf_buffer* tf_buffer_ref(struct tf_buffer* buffer) {
  atomic_fetch_add(&buffer->refs, 1);
  return buffer;
}

void tf_buffer_unref(struct tf_buffer* buffer) {
  if (buffer == NULL || atomic_fetch_sub(&buffer->refs, 1) != 1) return;
  atomic_fetch_sub(counter_of(buffer->device), padded(buffer->size));
  free(buffer->data);
  free(buffer);
}

int64_t tf_device_bytes_in_use(void) {
  int64_t total = 0;
  for (size_t i = 0; i < sizeof(bytes_in_use) / sizeof(bytes_in_use[0]); i++) total += bytes_in_use[i];
  return total;
}
