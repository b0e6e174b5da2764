/* tiny_frame's devices and its allocator.
 *
 * A GPU dataframe library allocates its own memory on each device it
 * runs on and knows, for every buffer, where it lives.  tiny_frame runs on
 * the CPU (ARROW_DEVICE_CPU, device id -1) and on the suite's simulated
 * device (ARROW_DEVICE_EXT_DEV, ids 0 and 1, adc/simulated_device.h),
 * whose memory is the host's: a "kernel" there is a loop on the host, but
 * the library still allocates, counts and frees that memory per device,
 * as it would a GPU's.
 *
 * Buffers are reference counted: a column holds one reference to each of
 * its buffers, and every exported ArrowArray holds one more, so that an
 * export outlives the table it came from (spec: "Release callback
 * semantics -- for producers": the data live until the consumer releases
 * them).  The counts are atomic: a consumer may release from any thread. */
#ifndef TF_DEVICE_H
#define TF_DEVICE_H

#include <stdatomic.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"

/* Where data live: the two fields of an ArrowDeviceArray that say so. */
struct tf_device {
  ArrowDeviceType type;
  int64_t id;
};

/* One allocation on one device.  `data` is a device pointer: on the
 * devices tiny_frame knows, one the host may read and write. */
struct tf_buffer {
  atomic_int refs;
  struct tf_device device;
  int64_t size; /* the bytes asked for; the allocation is padded to 64 */
  uint8_t* data;
};

/* 0 where tiny_frame runs on `device`; otherwise -1, with a message
 * (tf_error.h). */
int tf_device_check(struct tf_device device);

/* A new buffer of `size` zeroed bytes on `device`, with one reference;
 * NULL, with a message, when out of memory.  A size of 0 still gets an
 * allocation, so that every exported buffer but a validity bitmap is a
 * valid pointer. */
struct tf_buffer* tf_buffer_new(struct tf_device device, int64_t size);

/* One more reference to `buffer`; returns it. */
struct tf_buffer* tf_buffer_ref(struct tf_buffer* buffer);

/* One reference fewer; the last frees the memory.  NULL is ignored. */
void tf_buffer_unref(struct tf_buffer* buffer);

/* The bytes tiny_frame holds on every device together (allocations, with
 * their padding): 0 once every table and every export is gone. */
int64_t tf_device_bytes_in_use(void);

#endif /* TF_DEVICE_H */
