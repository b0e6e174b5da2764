// F9: a device batch ImportDeviceRecordBatch imported cannot be exported
// again on its device by ExportDeviceRecordBatch: the import gives a NULL
// buffer of size 0 a zero-size buffer of the CPU, whatever the device, so
// the batch it makes has buffers on two devices.
//
// spec (C Device Data Interface, ArrowDeviceArray.device_type): "The device
// type that the data is located on"; a buffer of size 0 may be NULL
// (C Data Interface, "Buffers": "The pointer to the null bitmap buffer, if
// the data type specifies one, MAY be NULL only if the array has a null
// count of 0"; and of any buffer of size 0, Arrow's columnar format allows
// it to be absent).  The batch below is on one device; the import's model
// of it says two.
//
// bridge.cc: ArrayImporter::ImportBuffer, for a NULL buffer of size 0,
// `*out = zero_size_buffer_` (a static buffer of the CPU); the device
// export then checks that every buffer is on one device (ValidateDeviceInfo:
// "Exporting device array with buffers on more than one device.").  A
// library that imports a device batch and hands it on (a query engine's
// scan, the suite's round trip) cannot; where every buffer of the batch is
// such (an empty batch), the export says the batch is on the CPU, with the
// event of the device it came from.  The device is this program's
// (probe_device.h).
#include "probe_device.h"
#include "repro.h"

namespace {

void ReleaseStatic(ArrowArray* array) {
  array->release = nullptr;
}

}  // namespace

int main() {
  // Two rows on the device: a = [1, 2], s = ["", ""] (its values buffer of
  // 0 bytes, NULL).
  static const int32_t a_values[2] = {1, 2};
  static const int32_t s_offsets[3] = {0, 0, 0};
  const void* a_buffers[2] = {nullptr, a_values};
  const void* s_buffers[3] = {nullptr, s_offsets, nullptr};
  const void* parent_buffers[1] = {nullptr};
  ArrowArray a{2, 0, 0, 2, 0, a_buffers, nullptr, nullptr, ReleaseStatic, nullptr};
  ArrowArray s{2, 0, 0, 3, 0, s_buffers, nullptr, nullptr, ReleaseStatic, nullptr};
  ArrowArray* children[2] = {&a, &s};
  ArrowDeviceArray batch{};
  batch.array = ArrowArray{2, 0, 0, 1, 2, parent_buffers, children, nullptr, ReleaseStatic, nullptr};
  batch.device_type = ARROW_DEVICE_EXT_DEV;
  batch.device_id = 0;
  ArrowSchema schema;
  auto fields = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("s", arrow::utf8())});
  arrow::Status exported = arrow::ExportSchema(*fields, &schema);
  if (!exported.ok()) return repro::SetupFailed(exported);
  auto imported = arrow::ImportDeviceRecordBatch(&batch, &schema, repro::ProbeMapper);
  if (!imported.ok()) return repro::SetupFailed(imported.status());
  const auto& values = (*imported)->column(1)->data()->buffers[2];
  const bool values_on_cpu = values != nullptr && values->is_cpu();
  ArrowDeviceArray again;
  arrow::Status export_again = arrow::ExportDeviceRecordBatch(**imported, nullptr, &again, nullptr);
  if (export_again.ok()) ArrowArrayRelease(&again.array);
  std::printf("spec: ArrowDeviceArray.device_type is \"The device type that the data is located on\".\n");
  return !export_again.ok() && values_on_cpu
             ? repro::Reproduced("F9",
                                 "the imported column s's empty values buffer is on the CPU while its "
                                 "offsets are on the device, and ExportDeviceRecordBatch refuses the "
                                 "imported batch: " +
                                     export_again.ToString())
             : repro::NotReproduced("F9", std::string("the imported values buffer is ") +
                                              (values_on_cpu ? "on the CPU" : "on the device") +
                                              ", and the export again " +
                                              (export_again.ok() ? "succeeded" : export_again.ToString()));
}
