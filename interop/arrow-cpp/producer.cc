// The producer side: each entry point builds the fixture as Arrow C++
// objects (adapter.h) and hands them to Arrow C++'s exporters, whose output
// is what the harness judges.
#include "adapter.h"
#include "devices.h"

using adc_arrow_cpp::FixtureBatch;
using adc_arrow_cpp::LoadFixture;
using adc_arrow_cpp::Report;

const char* ArrowCpp_CDataIntegration_ExportSchemaFromJson(const char* json_path, struct ArrowSchema* out) {
  auto fixture = LoadFixture(json_path);
  if (!fixture.ok()) return Report(fixture.status());
  return Report(arrow::ExportSchema(*fixture->schema, out));
}

const char* ArrowCpp_CDataIntegration_ExportBatchFromJson(const char* json_path, int num_batch,
                                                          struct ArrowArray* out) {
  auto fixture = LoadFixture(json_path);
  if (!fixture.ok()) return Report(fixture.status());
  auto batch = FixtureBatch(*fixture, num_batch);
  if (!batch.ok()) return Report(batch.status());
  return Report(arrow::ExportRecordBatch(**batch, out));
}

int64_t ArrowCpp_BytesAllocated(void) {
  // Arrow C++ allocates the private data of every exported structure from
  // its default pool (bridge.cc, PoolAllocationMixin), as it does the
  // simulated device's buffers here.
  return arrow::default_memory_pool()->bytes_allocated();
}

namespace {

// The fixture's batches on the device, or an error when the adapter does not
// serve it (the export then leaves its output untouched: plugin ABI).
arrow::Result<arrow::RecordBatchVector> BatchesOnDevice(
    const adc_arrow_cpp::Fixture& fixture, const std::shared_ptr<arrow::MemoryManager>& manager) {
  arrow::RecordBatchVector placed;
  for (const auto& batch : fixture.batches) {
    ARROW_ASSIGN_OR_RAISE(auto on_device, adc_arrow_cpp::PlaceOnDevice(batch, manager));
    placed.push_back(std::move(on_device));
  }
  return placed;
}

}  // namespace

const char* ArrowCpp_CDeviceIntegration_ExportDeviceBatchFromJson(const char* json_path, int num_batch,
                                                                  ArrowDeviceType device_type,
                                                                  int64_t device_id,
                                                                  struct ArrowDeviceArray* out) {
  auto manager = adc_arrow_cpp::MemoryManagerFor(device_type, device_id);
  if (!manager.ok()) return Report(manager.status());
  auto fixture = LoadFixture(json_path);
  if (!fixture.ok()) return Report(fixture.status());
  auto batch = FixtureBatch(*fixture, num_batch);
  if (!batch.ok()) return Report(batch.status());
  auto placed = adc_arrow_cpp::PlaceOnDevice(*batch, *manager);
  if (!placed.ok()) return Report(placed.status());
  return Report(arrow::ExportDeviceRecordBatch(**placed, (*placed)->GetSyncEvent(), out));
}

namespace {

// A reader over the fixture's batches whose ReadNext fails where it would
// return batch `fail_at` (ExportFailingDeviceStreamFromJson): the failure is
// injected here, and Arrow C++'s stream exporter turns it into an error code
// and get_last_error's text.
class FailingReader : public arrow::RecordBatchReader {
 public:
  FailingReader(std::shared_ptr<arrow::Schema> schema, arrow::RecordBatchVector batches, int64_t fail_at,
                arrow::DeviceAllocationType device_type)
      : schema_(std::move(schema)),
        batches_(std::move(batches)),
        fail_at_(fail_at),
        device_type_(device_type) {}

  std::shared_ptr<arrow::Schema> schema() const override {
    return schema_;
  }
  arrow::DeviceAllocationType device_type() const override {
    return device_type_;
  }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    if (next_ == fail_at_) return arrow::Status::IOError("injected failure at batch ", next_);
    if (next_ >= static_cast<int64_t>(batches_.size())) {
      batch->reset();
      return arrow::Status::OK();
    }
    *batch = batches_[static_cast<size_t>(next_++)];
    return arrow::Status::OK();
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  arrow::RecordBatchVector batches_;
  int64_t fail_at_;
  arrow::DeviceAllocationType device_type_;
  int64_t next_ = 0;
};

const char* ExportStream(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                         int64_t fail_at, struct ArrowDeviceArrayStream* out) {
  auto manager = adc_arrow_cpp::MemoryManagerFor(device_type, device_id);
  if (!manager.ok()) return Report(manager.status());
  auto fixture = LoadFixture(json_path);
  if (!fixture.ok()) return Report(fixture.status());
  auto batches = BatchesOnDevice(*fixture, *manager);
  if (!batches.ok()) return Report(batches.status());
  auto device = (*manager)->device()->device_type();
  // Without a failure to inject, Arrow C++'s own reader over a vector.
  std::shared_ptr<arrow::RecordBatchReader> reader;
  if (fail_at < 0) {
    auto made = arrow::RecordBatchReader::Make(std::move(*batches), fixture->schema, device);
    if (!made.ok()) return Report(made.status());
    reader = std::move(*made);
  } else {
    reader = std::make_shared<FailingReader>(fixture->schema, std::move(*batches), fail_at, device);
  }
  return Report(arrow::ExportDeviceRecordBatchReader(std::move(reader), out));
}

}  // namespace

const char* ArrowCpp_CDeviceIntegration_ExportDeviceStreamFromJson(const char* json_path,
                                                                   ArrowDeviceType device_type,
                                                                   int64_t device_id,
                                                                   struct ArrowDeviceArrayStream* out) {
  return ExportStream(json_path, device_type, device_id, /*fail_at=*/-1, out);
}

const char* ArrowCpp_CDeviceIntegration_ExportFailingDeviceStreamFromJson(
    const char* json_path, ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,
    struct ArrowDeviceArrayStream* out) {
  return ExportStream(json_path, device_type, device_id, fail_at_batch, out);
}
