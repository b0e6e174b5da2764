// ExportAsyncFromJson on Arrow C++'s ExportAsyncRecordBatchReader: the
// fixture's batches, placed on the device, behind an async generator, with
// the caller's handler.  Arrow C++ drives the handler from there on
// (producer, on_schema, tasks on demand, the end or on_error, release).
#include <arrow/util/async_generator.h>
#include <arrow/util/future.h>
#include <arrow/util/thread_pool.h>

#include "adapter.h"
#include "devices.h"

using adc_arrow_cpp::Report;

namespace {

// The fixture's batches, one per call, then the end; where it would yield
// batch `fail_at` it yields an error instead (ExportFailingAsyncFromJson),
// which Arrow C++'s exporter turns into on_error.  -1: it never fails.
arrow::AsyncGenerator<std::shared_ptr<arrow::RecordBatch>> FixtureGenerator(arrow::RecordBatchVector batches,
                                                                            int64_t fail_at) {
  if (fail_at < 0) return arrow::MakeVectorGenerator(std::move(batches));
  auto next = std::make_shared<int64_t>(0);
  auto shared = std::make_shared<arrow::RecordBatchVector>(std::move(batches));
  return [next, shared, fail_at]() -> arrow::Future<std::shared_ptr<arrow::RecordBatch>> {
    int64_t index = (*next)++;
    if (index == fail_at) return arrow::Status::IOError("injected failure at batch ", index);
    if (index >= static_cast<int64_t>(shared->size())) {
      return arrow::IterationEnd<std::shared_ptr<arrow::RecordBatch>>();
    }
    return (*shared)[static_cast<size_t>(index)];
  };
}

const char* ExportAsync(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                        int64_t fail_at, struct ArrowAsyncDeviceStreamHandler* handler) {
  // Refusals (plugin ABI: "no callback of it was or will be called") come
  // before the handler reaches Arrow C++.
  auto manager = adc_arrow_cpp::MemoryManagerFor(device_type, device_id);
  if (!manager.ok()) return Report(manager.status());
  auto fixture = adc_arrow_cpp::LoadFixture(json_path);
  if (!fixture.ok()) return Report(fixture.status());
  arrow::RecordBatchVector placed;
  for (const auto& batch : fixture->batches) {
    auto on_device = adc_arrow_cpp::PlaceOnDevice(batch, *manager);
    if (!on_device.ok()) return Report(on_device.status());
    placed.push_back(std::move(*on_device));
  }
  // Arrow C++'s export walks the generator in the calling thread for as long
  // as its futures are already complete (these are), waiting there for the
  // consumer's requests: run on the calling thread, it would hold the caller
  // until the stream ends, and a consumer that requests from that thread
  // after the export returns would wait forever.  So it runs on Arrow C++'s
  // CPU pool, as pyarrow's own async round trip runs it; the handler's
  // callbacks then come from that pool.
  auto submitted = arrow::internal::GetCpuThreadPool()->Submit(
      [schema = fixture->schema, generator = FixtureGenerator(std::move(placed), fail_at),
       device = (*manager)->device()->device_type(), handler]() mutable {
        return arrow::ExportAsyncRecordBatchReader(std::move(schema), std::move(generator), device, handler);
      });
  if (!submitted.ok()) return Report(submitted.status());
  return nullptr;
}

}  // namespace

const char* ArrowCpp_CDeviceIntegration_ExportAsyncFromJson(const char* json_path,
                                                            ArrowDeviceType device_type, int64_t device_id,
                                                            struct ArrowAsyncDeviceStreamHandler* handler) {
  return ExportAsync(json_path, device_type, device_id, /*fail_at=*/-1, handler);
}

const char* ArrowCpp_CDeviceIntegration_ExportFailingAsyncFromJson(
    const char* json_path, ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,
    struct ArrowAsyncDeviceStreamHandler* handler) {
  return ExportAsync(json_path, device_type, device_id, fail_at_batch, handler);
}
