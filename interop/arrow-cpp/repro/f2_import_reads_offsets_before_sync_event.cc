// F2: ImportDeviceRecordBatch reads a string column's last offset from
// device memory while it imports, before the caller can wait on the array's
// sync_event, and only then wraps the event.
//
// spec (C Device Data Interface, ArrowDeviceArray.sync_event): "If this is
// non-null then it MUST be used to call the appropriate sync method for the
// device (e.g. cudaStreamWaitEvent or hipStreamWaitEvent) before attempting
// to access the memory in the buffers."
//
// bridge.cc: ArrayImporter::Import(struct ArrowDeviceArray*, ...) imports the
// array (ImportStringValuesBuffer reads the last offset through
// MemoryManager::CopyBufferSliceToCPU) and sets the event that its buffers'
// device_sync_event() return only afterwards.  The device below is this
// program's: host memory that Arrow C++ reaches through the memory
// manager's copies (as a GPU's), whose event is still pending: the producer
// has not written the last offset yet (0xEEEEEEEE stands for what the memory
// held), and writes it when the event completes.  Its copy to the CPU waits
// on the buffer's device_sync_event() when the buffer has one, as
// CudaMemoryManager::CopyNonOwnedTo (cuda_context.cc) does before its
// cuMemcpyDtoH: so the defect shown is the order, and an import that wraps
// the event before reading (or waits itself) reads as NOT REPRODUCED.
#include "probe_device.h"
#include "repro.h"

namespace {

// The producer's event: waited on, its work completes (the last offset is
// written).
class PendingEvent : public arrow::Device::SyncEvent {
 public:
  PendingEvent(void* event, release_fn_t release) : SyncEvent(event, std::move(release)) {}
  arrow::Status Wait() override;
  arrow::Status Record(const arrow::Device::Stream&) override {
    return arrow::Status::OK();
  }
};

// A one-row struct<s: utf8> batch "on the device": its offsets [0, 1] are
// not written yet, so the last one still reads 0xEEEEEEEE.
int32_t offsets[2] = {0, static_cast<int32_t>(0xEEEEEEEE)};
const char values[] = "x";
const void* child_buffers[3] = {nullptr, offsets, values};
const void* parent_buffers[1] = {nullptr};
int pending_event;  // the producer's event: only its address matters here
void ReleaseStatic(ArrowArray* array) {
  array->release = nullptr;
}

arrow::Status PendingEvent::Wait() {
  offsets[1] = 1;  // spec: the data are "available ... before the event is triggered"
  repro::probe_log().waited = true;
  return arrow::Status::OK();
}

}  // namespace

int main() {
  repro::probe_log().wrap_event = [](void* event, arrow::Device::SyncEvent::release_fn_t release) {
    return std::make_shared<PendingEvent>(event, std::move(release));
  };
  ArrowArray child{1, 0, 0, 3, 0, child_buffers, nullptr, nullptr, ReleaseStatic, nullptr};
  ArrowArray* children[1] = {&child};
  ArrowDeviceArray batch{};
  batch.array = ArrowArray{1, 0, 0, 1, 1, parent_buffers, children, nullptr, ReleaseStatic, nullptr};
  batch.device_type = ARROW_DEVICE_EXT_DEV;
  batch.device_id = 0;
  batch.sync_event = &pending_event;
  ArrowSchema schema;
  arrow::Status exported = arrow::ExportSchema(*arrow::schema({arrow::field("s", arrow::utf8())}), &schema);
  if (!exported.ok()) return repro::SetupFailed(exported);

  auto imported = arrow::ImportDeviceRecordBatch(&batch, &schema, repro::ProbeMapper);
  std::string outcome;
  if (imported.ok()) {
    outcome = "the import recorded a values buffer of " +
              std::to_string((*imported)->column(0)->data()->buffers[2]->size()) + " bytes";
  } else {
    outcome = "the import failed: " + imported.status().ToString();
  }
  std::printf(
      "spec: a non-null sync_event \"MUST be used to call the appropriate sync method for the device ...\n"
      "      before attempting to access the memory in the buffers\".\n");
  const int copies_before_wait = repro::probe_log().copies_before_wait;
  return copies_before_wait > 0
             ? repro::Reproduced("F2", "ImportDeviceRecordBatch copied device memory to the CPU " +
                                           std::to_string(copies_before_wait) +
                                           " time(s) before the event was waited on; " + outcome)
             : repro::NotReproduced("F2",
                                    "no device memory was read before the event was waited on; " + outcome);
}
