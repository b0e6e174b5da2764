/* N8: ArrowDeviceArrayViewCopy (nanoarrow's device extension, device.c)
 * copies none of a list view's sizes buffer: ArrowArrayViewSetArray sizes
 * the first two buffers of a list view alone (the third, its sizes, stays
 * of unknown size, -1), and the copy copies each fixed buffer at the size
 * its view says.
 *
 * spec (columnar format, "ListView Layout"): a list view is "A validity
 * bitmap", "An offsets buffer" and "A sizes buffer", each of the array's
 * length; the size of the list in slot i is sizes[i].  A copy without its
 * sizes is not the array.
 *
 * nanoarrow 0.9.0: ArrowArrayViewSetArray (array.c, through
 * ArrowArrayViewValidateMinimal: "the size of the third buffer is always
 * data dependent", not so for a list view's sizes, length * 4 bytes) leaves
 * buffer_views[2].size_bytes at -1, ArrowDeviceArrayViewEnsureBufferSizesAsync
 * does not set it either, and ArrowDeviceArrayViewCopyInternal copies
 * buffer 2 at that size.  Here from the CPU to the CPU (the suite's round
 * trip met it copying to its simulated device: "sizes buffer (buffers[2])
 * is NULL").
 *
 * Exit 0: reproduced; 1: not reproduced (fixed); 2: setup error. */
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"
#include "repro_check.h"

int main(void) {
  /* list_view<int32>: [[1, 2], [3]]. */
  struct ArrowSchema schema;
  CHECK_OK(ArrowSchemaInitFromType(&schema, NANOARROW_TYPE_LIST_VIEW));
  CHECK_OK(ArrowSchemaSetType(schema.children[0], NANOARROW_TYPE_INT32));
  struct ArrowDeviceArray original;
  memset(&original, 0, sizeof original);
  CHECK_OK(ArrowArrayInitFromSchema(&original.array, &schema, NULL));
  CHECK_OK(ArrowArrayStartAppending(&original.array));
  const int lists[2][2] = {{1, 2}, {3, 0}};
  const int lengths[2] = {2, 1};
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < lengths[i]; j++)
      CHECK_OK(ArrowArrayAppendInt(original.array.children[0], lists[i][j]));
    CHECK_OK(ArrowArrayFinishElement(&original.array));
  }
  CHECK_OK(ArrowArrayFinishBuildingDefault(&original.array, NULL));
  original.device_type = ARROW_DEVICE_CPU;
  original.device_id = -1;

  struct ArrowDeviceArrayView view;
  ArrowDeviceArrayViewInit(&view);
  CHECK_OK(ArrowArrayViewInitFromSchema(&view.array_view, &schema, NULL));
  CHECK_OK(ArrowDeviceArrayViewSetArray(&view, &original, NULL));
  const int64_t sizes_known = view.array_view.buffer_views[2].size_bytes;
  struct ArrowDeviceArray copy;
  int copied = ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &copy);
  const int32_t* sizes = copied == NANOARROW_OK ? (const int32_t*)copy.array.buffers[2] : NULL;
  const int kept = sizes != NULL && sizes[0] == 2 && sizes[1] == 1;
  if (copied == NANOARROW_OK) ArrowArrayRelease(&copy.array);
  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&original.array);
  ArrowSchemaRelease(&schema);

  printf("spec: a list view is a validity bitmap, \"An offsets buffer\" and \"A sizes buffer\".\n");
  if (!kept) {
    printf(
        "REPRODUCED N8: ArrowDeviceArrayViewCopy of list_view [[1, 2], [3]] %s (its view's sizes buffer "
        "of %lld bytes)\n",
        copied != NANOARROW_OK ? "failed"
        : sizes == NULL        ? "gave a copy whose sizes buffer is NULL"
                               : "gave a copy with other sizes",
        (long long)sizes_known);
    return 0;
  }
  printf("NOT REPRODUCED N8: the copy's sizes are [2, 1]\n");
  return 1;
}
