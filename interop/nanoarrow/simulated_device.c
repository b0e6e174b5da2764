/* The simulated device (include/adc/simulated_device.h) as an ArrowDevice,
 * nanoarrow's "struct of operations" for a device.  nanoarrow resolves only
 * its own devices (ArrowDeviceResolve: the CPU, CUDA, Metal), so the
 * adapter supplies this one to the functions that take a device.
 *
 * Its memory is host memory, so the copies are memcpy; what makes it a
 * device is its event: every array this device initialises carries a
 * `struct adc_simulated_event`, and synchronize_event waits on it. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "adapter.h"
#include "adc/simulated_device.h"

static _Atomic int64_t bytes_held;

static uint8_t* counting_reallocate(struct ArrowBufferAllocator* allocator, uint8_t* ptr, int64_t old_size,
                                    int64_t new_size) {
  (void)allocator;
  uint8_t* moved = (uint8_t*)realloc(ptr, (size_t)new_size);
  if (moved != NULL || new_size == 0) atomic_fetch_add(&bytes_held, new_size - old_size);
  return moved;
}

static void counting_free(struct ArrowBufferAllocator* allocator, uint8_t* ptr, int64_t size) {
  (void)allocator;
  free(ptr);
  atomic_fetch_sub(&bytes_held, size);
}

struct ArrowBufferAllocator adc_nanoarrow_counting_allocator(void) {
  struct ArrowBufferAllocator allocator = {counting_reallocate, counting_free, NULL};
  return allocator;
}

int64_t adc_nanoarrow_bytes_held(void) {
  return atomic_load(&bytes_held);
}

static int is_host_memory(const struct ArrowDevice* device) {
  return device->device_type == ARROW_DEVICE_CPU || device->device_type == ADC_SIMULATED_DEVICE_TYPE;
}

/* The copies nanoarrow asks of a device: between the CPU and the simulated
 * device, in either direction.  ENOTSUP otherwise, as the ArrowDevice
 * contract asks ("Implementations must check device_src and device_dst"). */
static ArrowErrorCode simulated_buffer_init(struct ArrowDevice* device_src, struct ArrowBufferView src,
                                            struct ArrowDevice* device_dst, struct ArrowBuffer* dst,
                                            void* stream) {
  if (!is_host_memory(device_src) || !is_host_memory(device_dst)) return ENOTSUP;
  if (stream != NULL) return EINVAL; /* the simulated device has no streams */
  ArrowBufferInit(dst);
  dst->allocator = adc_nanoarrow_counting_allocator();
  return ArrowBufferAppend(dst, src.data.data, src.size_bytes);
}

static ArrowErrorCode simulated_buffer_move(struct ArrowDevice* device_src, struct ArrowBuffer* src,
                                            struct ArrowDevice* device_dst, struct ArrowBuffer* dst) {
  if (!is_host_memory(device_src) || !is_host_memory(device_dst)) return ENOTSUP;
  ArrowBufferMove(src, dst);
  return NANOARROW_OK;
}

static ArrowErrorCode simulated_buffer_copy(struct ArrowDevice* device_src, struct ArrowBufferView src,
                                            struct ArrowDevice* device_dst, struct ArrowBufferView dst,
                                            void* stream) {
  if (!is_host_memory(device_src) || !is_host_memory(device_dst)) return ENOTSUP;
  if (stream != NULL) return EINVAL;
  memcpy((void*)dst.data.data, src.data.data, (size_t)dst.size_bytes);
  return NANOARROW_OK;
}

/* spec: ArrowDeviceArray.sync_event: "If this is non-null then it MUST be
 * used to call the appropriate sync method for the device ... before
 * attempting to access the memory in the buffers."  This is that method. */
static ArrowErrorCode simulated_synchronize_event(struct ArrowDevice* device, void* sync_event, void* stream,
                                                  struct ArrowError* error) {
  (void)device;
  if (stream != NULL) {
    ArrowErrorSet(error, "the simulated device has no streams");
    return EINVAL;
  }
  if (sync_event == NULL) return NANOARROW_OK;
  struct adc_simulated_event* event = (struct adc_simulated_event*)sync_event;
  if (event->magic != ADC_SIMULATED_EVENT_MAGIC) {
    ArrowErrorSet(error, "sync_event is not an event of the simulated device (magic 0x%08x)",
                  (unsigned)event->magic);
    return EINVAL;
  }
  adc_simulated_event_wait(event);
  return NANOARROW_OK;
}

/* An array initialised on the device owns its event: the event lives in a
 * block that the array's release frees after the array's own release ran
 * (the event is "valid until the array is released"). */
struct array_with_event {
  struct adc_simulated_event event;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

static void release_array_with_event(struct ArrowArray* array) {
  struct array_with_event* holder = (struct array_with_event*)array->private_data;
  array->release = holder->release;
  array->private_data = holder->private_data;
  array->release(array);
  adc_simulated_event_destroy(&holder->event);
  free(holder);
}

/* nanoarrow calls this for every array it places on the device (a copy, a
 * basic stream's batch).  It passes no event: its copies are complete when
 * it calls, and the simulated device has no streams.  The array gets an
 * event anyway, signalled at once, as every array of an asynchronous device
 * has one here: the consumer's wait is then part of every case. */
static ArrowErrorCode simulated_array_init(struct ArrowDevice* device, struct ArrowDeviceArray* device_array,
                                           struct ArrowArray* array, void* sync_event, void* stream) {
  if (sync_event != NULL || stream != NULL) return EINVAL;
  /* nanoarrow's basic device stream (ArrowDeviceBasicArrayStreamGetNext)
   * hands its end of stream, a released array, to array_init too.  It stays
   * released: spec, get_next: "If the embedded ArrowDeviceArray.array is
   * released, then the end of the stream has been reached."  (nanoarrow's
   * own CUDA device wraps it instead: finding N3, CONFORMANCE.md.) */
  if (array->release == NULL) {
    memset(device_array, 0, sizeof *device_array);
    device_array->device_type = device->device_type;
    device_array->device_id = device->device_id;
    return NANOARROW_OK;
  }
  struct array_with_event* holder = (struct array_with_event*)malloc(sizeof *holder);
  if (holder == NULL) return ENOMEM;
  int status = adc_simulated_event_init(&holder->event);
  if (status != 0) {
    free(holder);
    return status;
  }
  adc_simulated_event_signal(&holder->event);
  holder->release = array->release;
  holder->private_data = array->private_data;
  array->release = release_array_with_event;
  array->private_data = holder;
  /* spec: "The ArrowDeviceArray structure": reserved bytes "MUST be zero'd
   * out after initialization by the producer". */
  memset(device_array, 0, sizeof *device_array);
  device_array->device_type = device->device_type;
  device_array->device_id = device->device_id;
  ArrowArrayMove(array, &device_array->array);
  device_array->sync_event = &holder->event;
  return NANOARROW_OK;
}

static void simulated_release(struct ArrowDevice* device) {
  (void)device;
}

struct ArrowDevice* adc_nanoarrow_simulated_device(void) {
  static struct ArrowDevice device = {
      .device_type = ADC_SIMULATED_DEVICE_TYPE,
      .device_id = ADC_SIMULATED_DEVICE_ID,
      .array_init = simulated_array_init,
      .array_move = NULL,
      .buffer_init = simulated_buffer_init,
      .buffer_move = simulated_buffer_move,
      .buffer_copy = simulated_buffer_copy,
      .synchronize_event = simulated_synchronize_event,
      .release = simulated_release,
      .private_data = NULL,
  };
  return &device;
}

struct ArrowDevice* adc_nanoarrow_device(ArrowDeviceType device_type, int64_t device_id) {
  if (device_type == ADC_SIMULATED_DEVICE_TYPE && device_id == ADC_SIMULATED_DEVICE_ID)
    return adc_nanoarrow_simulated_device();
  return ArrowDeviceResolve(device_type, device_id);
}
