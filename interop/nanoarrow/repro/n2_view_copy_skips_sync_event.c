/* N2: ArrowDeviceArrayViewCopy (nanoarrow's device extension, device.c)
 * copies a device array's buffers without waiting on its sync_event when
 * the array has no string or binary column.  It synchronises on the event
 * only inside ArrowDeviceArrayViewEnsureBufferSizesAsync, and only when it
 * must read offsets to size a buffer; the copy itself then runs, and the
 * only synchronisation after it is on the stream (with a NULL event).
 *
 * spec (C Device Data Interface, ArrowDeviceArray.sync_event): "If this is
 * non-null then it MUST be used to call the appropriate sync method for the
 * device (e.g. cudaStreamWaitEvent or hipStreamWaitEvent) before attempting
 * to access the memory in the buffers."
 *
 * The device here is a probe of this program's own (host memory, so it
 * runs anywhere): it records whether a buffer was copied before its event
 * was synchronised.  nanoarrow's ArrowDeviceResolve knows only nanoarrow's
 * own devices, so the view is set with the steps of
 * ArrowDeviceArrayViewSetArrayMinimal; ArrowDeviceArrayViewCopy is then
 * called as any consumer calls it.
 *
 * Exit 0: reproduced; 1: not reproduced (fixed); 2: setup error. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_device.h"
#include "repro_check.h"

static int event; /* the probe's sync event: its address is all that counts */
static int event_synchronised;
static int copied_before_synchronised;

static ArrowErrorCode probe_buffer_init(struct ArrowDevice* src_device, struct ArrowBufferView src,
                                        struct ArrowDevice* dst_device, struct ArrowBuffer* dst,
                                        void* stream) {
  (void)src_device;
  (void)dst_device;
  (void)stream;
  if (!event_synchronised && src.size_bytes > 0) copied_before_synchronised = 1;
  ArrowBufferInit(dst);
  return ArrowBufferAppend(dst, src.data.data, src.size_bytes);
}

static ArrowErrorCode probe_synchronize(struct ArrowDevice* device, void* sync_event, void* stream,
                                        struct ArrowError* error) {
  (void)device;
  (void)stream;
  (void)error;
  if (sync_event == &event) event_synchronised = 1;
  return NANOARROW_OK;
}

static void probe_release(struct ArrowDevice* device) {
  (void)device;
}

int main(void) {
  struct ArrowDevice probe = {ARROW_DEVICE_EXT_DEV, 0,    NULL, NULL,
                              probe_buffer_init,    NULL, NULL, probe_synchronize,
                              probe_release,        NULL};

  /* An int32 array [1, 2, 3] "on the device", with a pending sync_event. */
  struct ArrowDeviceArray on_device;
  memset(&on_device, 0, sizeof on_device);
  CHECK_OK(ArrowArrayInitFromType(&on_device.array, NANOARROW_TYPE_INT32));
  CHECK_OK(ArrowArrayStartAppending(&on_device.array));
  for (int value = 1; value <= 3; value++) CHECK_OK(ArrowArrayAppendInt(&on_device.array, value));
  CHECK_OK(ArrowArrayFinishBuildingDefault(&on_device.array, NULL));
  on_device.device_type = probe.device_type;
  on_device.device_id = probe.device_id;
  on_device.sync_event = &event;

  struct ArrowDeviceArrayView view;
  ArrowDeviceArrayViewInit(&view);
  ArrowArrayViewInitFromType(&view.array_view, NANOARROW_TYPE_INT32);
  view.device = &probe;
  CHECK_OK(ArrowArrayViewSetArrayMinimal(&view.array_view, &on_device.array, NULL));
  view.sync_event = on_device.sync_event;

  struct ArrowDeviceArray on_cpu;
  CHECK_OK(ArrowDeviceArrayViewCopy(&view, ArrowDeviceCpu(), &on_cpu));
  ArrowArrayRelease(&on_cpu.array);
  ArrowDeviceArrayViewReset(&view);
  ArrowArrayRelease(&on_device.array);

  printf(
      "spec: ArrowDeviceArray.sync_event, if non-null, \"MUST be used to call the appropriate sync method\n"
      "      for the device ... before attempting to access the memory in the buffers\".\n");
  if (copied_before_synchronised) {
    printf(
        "REPRODUCED N2: ArrowDeviceArrayViewCopy copied the int32 array's buffers %s\n",
        event_synchronised ? "before synchronising its sync_event" : "and never synchronised its sync_event");
    return 0;
  }
  printf("NOT REPRODUCED N2: ArrowDeviceArrayViewCopy synchronised the sync_event before copying\n");
  return 1;
}
