/* The nanoarrow adapter's CUDA path, run through nanoarrow's own CUDA
 * device (cuda.c) over the host-memory stand-in for the driver
 * (libcuda_stand_in.c), where no GPU is: the nanoarrow_cuda_stand_in test.
 *
 * It checks what a machine without a GPU can check of that path, and no
 * more: each fixture's first batch exported on cuda and on cuda_host
 * (ArrowDeviceArrayViewCopyAsync to nanoarrow's CUDA device, on the stream
 * the adapter gives it) comes back labelled with the device and an event,
 * and the adapter's consumer finds it equal to the fixture (reading it
 * through nanoarrow's CUDA device); a device stream on cuda hands out the
 * fixture's batches, and then, as Finding N3 says (CONFORMANCE.md), an
 * end that is not released: the basic stream gives its released end to
 * the CUDA device's array_init.  The end is not released here (its
 * release would call the NULL release it wraps).  Whether the data are
 * right on a GPU, and whether the events order anything, only a GPU shows.
 *
 * Usage: nanoarrow_cuda_path_check ADAPTER FIXTURE_FOLDER
 * Exit 0: as above; 1: otherwise (named on standard error). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "adc/arrow_c_abi.h"

typedef const char* (*export_batch_fn)(const char*, int, ArrowDeviceType, int64_t, struct ArrowDeviceArray*);
typedef const char* (*import_batch_fn)(const char*, int, struct ArrowDeviceArray*);
typedef const char* (*export_stream_fn)(const char*, ArrowDeviceType, int64_t,
                                        struct ArrowDeviceArrayStream*);

static export_batch_fn export_batch;
static import_batch_fn import_batch;
static export_stream_fn export_stream;

/* dlsym's object pointer into a function pointer (ISO C converts none). */
static int resolve(void* adapter, const char* symbol, void* function, size_t size) {
  void* address = dlsym(adapter, symbol);
  if (address == NULL) {
    fprintf(stderr, "the adapter lacks %s\n", symbol);
    return -1;
  }
  memcpy(function, &address, size);
  return 0;
}

/* Batch 0 of `path` round-trips on `device_type`; 0, or -1 saying why. */
static int round_trips(const char* path, ArrowDeviceType device_type) {
  struct ArrowDeviceArray array;
  memset(&array, 0, sizeof(array));
  const char* error = export_batch(path, 0, device_type, 0, &array);
  if (error != NULL) {
    fprintf(stderr, "%s on device type %d: export: %s\n", path, (int)device_type, error);
    return -1;
  }
  if (array.device_type != device_type || array.sync_event == NULL) {
    fprintf(stderr, "%s: exported on device type %d with event %p\n", path, (int)array.device_type,
            array.sync_event);
    array.array.release(&array.array);
    return -1;
  }
  error = import_batch(path, 0, &array);
  if (error != NULL) {
    fprintf(stderr, "%s on device type %d: import: %s\n", path, (int)device_type, error);
    return -1;
  }
  return 0;
}

/* A cuda stream of `path` (of `batches` batches) hands them out, then an
 * end that is not released (N3); 0, or -1 saying why. */
static int stream_shows_n3(const char* path, int batches) {
  struct ArrowDeviceArrayStream stream;
  const char* error = export_stream(path, ARROW_DEVICE_CUDA, 0, &stream);
  if (error != NULL) {
    fprintf(stderr, "%s: stream export: %s\n", path, error);
    return -1;
  }
  int status = 0;
  for (int i = 0; i <= batches && status == 0; i++) {
    struct ArrowDeviceArray next;
    memset(&next, 0, sizeof(next));
    if (stream.get_next(&stream, &next) != 0) {
      fprintf(stderr, "%s: get_next %d failed: %s\n", path, i, stream.get_last_error(&stream));
      status = -1;
    } else if (next.array.release == NULL) {
      fprintf(
          stderr, "%s: get_next %d gave a released array: %s\n", path, i,
          i < batches ? "the stream ended early" : "the end is released (N3 no longer shows through cuda.c)");
      status = -1;
    } else if (i < batches) {
      next.array.release(&next.array);
    } else {
      printf("%s: after its %d batches the cuda stream's end is not released (N3)\n", path, batches);
    }
  }
  stream.release(&stream);
  return status;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s ADAPTER FIXTURE_FOLDER\n", argv[0]);
    return 1;
  }
  void* adapter = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (adapter == NULL) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  if (resolve(adapter, "nanoarrow_CDeviceIntegration_ExportDeviceBatchFromJson", &export_batch,
              sizeof(export_batch)) != 0 ||
      resolve(adapter, "nanoarrow_CDeviceIntegration_ImportDeviceBatchAndCompareToJson", &import_batch,
              sizeof(import_batch)) != 0 ||
      resolve(adapter, "nanoarrow_CDeviceIntegration_ExportDeviceStreamFromJson", &export_stream,
              sizeof(export_stream)) != 0) {
    return 1;
  }
  static const char* const fixtures[] = {"int32_nulls", "dictionary", "nested_struct", "union_and_metadata",
                                         "multi_batch"};
  int failures = 0;
  char path[4096];
  for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
    snprintf(path, sizeof(path), "%s/%s.json", argv[2], fixtures[f]);
    failures += round_trips(path, ARROW_DEVICE_CUDA) != 0;
    failures += round_trips(path, ARROW_DEVICE_CUDA_HOST) != 0;
  }
  snprintf(path, sizeof(path), "%s/multi_batch.json", argv[2]);
  failures += stream_shows_n3(path, 3) != 0;
  if (failures == 0) printf("the adapter's cuda and cuda_host paths ran through nanoarrow's cuda.c\n");
  return failures == 0 ? 0 : 1;
}
