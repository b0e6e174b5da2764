/* N3: nanoarrow's basic device stream (ArrowDeviceBasicArrayStreamInit,
 * device.c) hands the released array that marks the end of its CPU stream
 * to the device's array_init, and nanoarrow's CUDA device
 * (ArrowDeviceCudaArrayInitInternal, cuda.c) installs its own release
 * callback on whatever it is given: over the CUDA device, the end of the
 * stream comes back as an array that is not released, and the stream never
 * ends.
 *
 * spec (C Device Data Interface, ArrowDeviceArrayStream.get_next): "If the
 * embedded ArrowDeviceArray.array is released, then the end of the stream
 * has been reached."
 *
 * This program runs without a GPU: its device is a probe whose array_init
 * records what nanoarrow hands it, and then does what nanoarrow's CUDA
 * device does with it (wraps the array's release), so that the stream's end
 * is seen as a CUDA consumer sees it.
 *
 * Exit 0: reproduced; 1: not reproduced (fixed); 2: setup error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"

static int released_arrays_given;

struct wrapped {
  struct ArrowArray parent;
};

static void release_wrapped(struct ArrowArray* array) {
  struct wrapped* holder = (struct wrapped*)array->private_data;
  if (holder->parent.release != NULL) holder->parent.release(&holder->parent);
  free(holder);
  array->release = NULL;
}

/* As ArrowDeviceCudaArrayInitInternal: copy the struct, keep the original
 * as the parent, install its own release. */
static ArrowErrorCode probe_array_init(struct ArrowDevice* device, struct ArrowDeviceArray* device_array,
                                       struct ArrowArray* array, void* sync_event, void* stream) {
  (void)sync_event;
  (void)stream;
  if (array->release == NULL) released_arrays_given++;
  struct wrapped* holder = (struct wrapped*)malloc(sizeof *holder);
  if (holder == NULL) return ENOMEM;
  memset(device_array, 0, sizeof *device_array);
  device_array->array = *array;
  device_array->array.private_data = holder;
  device_array->array.release = release_wrapped;
  ArrowArrayMove(array, &holder->parent);
  device_array->device_type = device->device_type;
  device_array->device_id = device->device_id;
  return NANOARROW_OK;
}

static void probe_release(struct ArrowDevice* device) {
  (void)device;
}

int main(void) {
  struct ArrowDevice probe = {ARROW_DEVICE_CUDA, 0,   probe_array_init, NULL, NULL, NULL, NULL, NULL,
                              probe_release,     NULL};

  /* A CPU stream of one int32 batch. */
  struct ArrowSchema schema;
  struct ArrowArray batch;
  struct ArrowArrayStream cpu_stream;
  if (ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_INT32) != NANOARROW_OK ||
      ArrowArrayInitFromType(&batch, NANOARROW_TYPE_INT32) != NANOARROW_OK ||
      ArrowArrayStartAppending(&batch) != NANOARROW_OK || ArrowArrayAppendInt(&batch, 7) != NANOARROW_OK ||
      ArrowArrayFinishBuildingDefault(&batch, NULL) != NANOARROW_OK ||
      ArrowBasicArrayStreamInit(&cpu_stream, &schema, 1) != NANOARROW_OK) {
    fprintf(stderr, "setup failed\n");
    return 2;
  }
  ArrowBasicArrayStreamSetArray(&cpu_stream, 0, &batch);

  struct ArrowDeviceArrayStream stream;
  if (ArrowDeviceBasicArrayStreamInit(&stream, &cpu_stream, &probe) != NANOARROW_OK) {
    fprintf(stderr, "setup failed: ArrowDeviceBasicArrayStreamInit\n");
    return 2;
  }
  int batches = 0, ended = 0;
  for (int call = 0; call < 3 && !ended; call++) {
    struct ArrowDeviceArray next;
    if (stream.get_next(&stream, &next) != 0) break;
    if (next.array.release == NULL) {
      ended = 1;
    } else {
      batches++;
      next.array.release(&next.array);
    }
  }
  stream.release(&stream);

  printf(
      "spec: get_next: \"If the embedded ArrowDeviceArray.array is released, then the end of the stream\n"
      "      has been reached.\"  A one-batch stream must end at the second call.\n");
  if (released_arrays_given > 0 && !ended) {
    printf(
        "REPRODUCED N3: ArrowDeviceBasicArrayStream handed its end of stream (a released array) to the\n"
        "              device's array_init; wrapped as nanoarrow's CUDA device wraps it, the stream gave %d\n"
        "              batches in 3 calls and never ended\n",
        batches);
    return 0;
  }
  printf("NOT REPRODUCED N3: array_init got %d released array(s); the stream %s\n", released_arrays_given,
         ended ? "ended" : "did not end");
  return 1;
}
