// The round trip's device part: a device batch adopted by Arrow C++'s
// ImportDeviceRecordBatch and a device stream by ImportDeviceRecordBatchReader,
// each with the adapter's device mapper (devices.h: the CPU and the
// simulated device, ARROW_DEVICE_EXT_DEV), exported again by
// ExportDeviceRecordBatch / ExportDeviceRecordBatchReader.
#include "devices.h"
#include "round_trip.h"

using adc_arrow_cpp_round_trip::Held;
using adc_arrow_cpp_round_trip::Hold;
using adc_arrow_cpp_round_trip::Report;

const char* ArrowCpp_RoundTrip_AdoptDeviceBatch(struct ArrowSchema* schema, struct ArrowDeviceArray* batch,
                                                void** held) {
  auto imported_schema = adc_arrow_cpp_round_trip::ImportSchemaOr(schema, [batch] {
    if (batch->array.release != nullptr) batch->array.release(&batch->array);
  });
  if (!imported_schema.ok()) return Report(imported_schema.status());
  // The buffers stay where they are (on the simulated device: host memory
  // Arrow C++ reaches only through the device's copies).  The adapter reads
  // none of them, so it does not wait on the sync_event here; Arrow C++
  // keeps it as the batch's GetSyncEvent (and each buffer's), and the export
  // hands it on (spec, ArrowDeviceArray.sync_event: it "MUST be used ...
  // before attempting to access the memory in the buffers", which is then
  // the consumer's to do).  Arrow C++'s import itself reads some offsets
  // before anyone can wait (CONFORMANCE.md, finding F2).
  auto imported = arrow::ImportDeviceRecordBatch(batch, *imported_schema, adc_arrow_cpp::MapDevice);
  if (!imported.ok()) return Report(imported.status());
  return Hold(Held{*imported_schema, *imported, nullptr}, held);
}

const char* ArrowCpp_RoundTrip_ExportDeviceBatch(void* opaque, struct ArrowDeviceArray* out) {
  auto* held = static_cast<Held*>(opaque);
  if (held->batch == nullptr) return Report(arrow::Status::Invalid("the held object has no batch"));
  // On the device its buffers are on, with the event the adopted batch came
  // with: the producer's, valid while its array is, which the export keeps
  // alive through the batch (spec, sync_event: owned by the producer "until
  // the release callback is called").
  return Report(arrow::ExportDeviceRecordBatch(*held->batch, held->batch->GetSyncEvent(), out));
}

const char* ArrowCpp_RoundTrip_AdoptDeviceStream(struct ArrowDeviceArrayStream* stream, void** held) {
  // Arrow C++'s reader moves the stream at once and reads its schema; its
  // batches are read as the export is (so a failing stream's error reaches
  // the export's get_next and get_last_error).  Each batch keeps its event
  // as its GetSyncEvent, which ExportDeviceRecordBatchReader hands on.
  auto reader = arrow::ImportDeviceRecordBatchReader(stream, adc_arrow_cpp::MapDevice);
  if (!reader.ok()) return Report(reader.status());
  return Hold(Held{(*reader)->schema(), nullptr, *reader}, held);
}

const char* ArrowCpp_RoundTrip_ExportDeviceStream(void* opaque, struct ArrowDeviceArrayStream* out) {
  auto* held = static_cast<Held*>(opaque);
  if (held->stream == nullptr) return Report(arrow::Status::Invalid("the held object has no stream"));
  // A reader is read once: the export takes it (and keeps it past Free).
  return Report(arrow::ExportDeviceRecordBatchReader(std::move(held->stream), out));
}
