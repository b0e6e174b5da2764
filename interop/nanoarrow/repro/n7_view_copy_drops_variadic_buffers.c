/* N7: ArrowDeviceArrayViewCopy (nanoarrow's device extension, device.c)
 * copies the fixed buffers of each array alone: a string view or binary
 * view array's variadic buffers (the long strings' bytes) and their sizes
 * are left behind, so the copy's views name buffers it does not have.
 *
 * spec (columnar format, "Variable-size Binary View Layout"): a view of a
 * long string holds "the index of the data buffer" and an offset into it;
 * (C Data Interface, "Buffers"): for the view types, the buffers after the
 * validity and views are the variadic data buffers, then their sizes.
 * A copy that keeps the views and drops the data buffers is not the array.
 *
 * device.c (nanoarrow 0.9.0): ArrowDeviceArrayViewCopyInternal loops over
 * `i < NANOARROW_MAX_FIXED_BUFFERS` (3) and the children and dictionary;
 * nothing copies `array_view->variadic_buffers`.  Here from the CPU to the
 * CPU, the device every nanoarrow build has (the suite's round trip met it
 * copying to its simulated device: array.structure.views, "view of row 1
 * names variadic buffer 0 of 0").
 *
 * Exit 0: reproduced; 1: not reproduced (fixed); 2: setup error. */
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"
#include "repro_check.h"

int main(void) {
  /* ["short", "a string longer than twelve bytes"]: the second in a
   * variadic data buffer. */
  struct ArrowDeviceArray original;
  memset(&original, 0, sizeof original);
  CHECK_OK(ArrowArrayInitFromType(&original.array, NANOARROW_TYPE_STRING_VIEW));
  CHECK_OK(ArrowArrayStartAppending(&original.array));
  CHECK_OK(ArrowArrayAppendString(&original.array, ArrowCharView("short")));
  CHECK_OK(ArrowArrayAppendString(&original.array, ArrowCharView("a string longer than twelve bytes")));
  CHECK_OK(ArrowArrayFinishBuildingDefault(&original.array, NULL));
  original.device_type = ARROW_DEVICE_CPU;
  original.device_id = -1;
  const int64_t original_buffers = original.array.n_buffers;

  struct ArrowDeviceArrayView view;
  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_STRING_VIEW);
  CHECK_OK(ArrowDeviceArrayViewSetArray(&view, &original, NULL));
  struct ArrowDeviceArray copy;
  CHECK_OK(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &copy));
  const int64_t copied_buffers = copy.array.n_buffers;

  /* The copy read back: does its second view's data buffer exist? */
  struct ArrowArrayView read_back;
  ArrowArrayViewInitFromType(&read_back, NANOARROW_TYPE_STRING_VIEW);
  struct ArrowError error;
  int valid = ArrowArrayViewSetArray(&read_back, &copy.array, &error) == NANOARROW_OK &&
              ArrowArrayViewValidate(&read_back, NANOARROW_VALIDATION_LEVEL_FULL, &error) == NANOARROW_OK;
  ArrowArrayViewReset(&read_back);
  ArrowArrayRelease(&copy.array);
  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&original.array);

  printf(
      "spec: a view of a long string names \"the index of the data buffer\" it is in; the view types'\n"
      "      buffers are validity, views, the variadic data buffers, then their sizes.\n");
  if (copied_buffers < original_buffers) {
    printf(
        "REPRODUCED N7: ArrowDeviceArrayViewCopy of a string view array of %lld buffers gave one of %lld "
        "(the variadic data buffer and its size left behind)%s%s\n",
        (long long)original_buffers, (long long)copied_buffers,
        valid ? "" : "; the copy is invalid: ", valid ? "" : error.message);
    return 0;
  }
  printf("NOT REPRODUCED N7: the copy has %lld buffers, as the original\n", (long long)copied_buffers);
  return 1;
}
