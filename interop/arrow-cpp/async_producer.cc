// ExportAsyncFromJson on Arrow C++'s ExportAsyncRecordBatchReader: the
// fixture's batches, placed on the device, behind Arrow C++'s own vector
// generator, with the caller's handler.  Arrow C++ drives the handler from
// there on (producer, on_schema, tasks on demand, the end, release).
#include <arrow/util/async_generator.h>
#include <arrow/util/future.h>
#include <arrow/util/thread_pool.h>

#include "adapter.h"
#include "devices.h"

using adc_arrow_cpp::Report;

const char* ArrowCpp_CDeviceIntegration_ExportAsyncFromJson(const char* json_path,
                                                            ArrowDeviceType device_type, int64_t device_id,
                                                            struct ArrowAsyncDeviceStreamHandler* handler) {
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
  // as its futures are already complete (a vector's are), waiting there for
  // the consumer's requests: run on the calling thread, it would hold the
  // caller until the stream ends, and a consumer that requests from that
  // thread after the export returns would wait forever.  So it runs on
  // Arrow C++'s CPU pool, as pyarrow's own async round trip runs it; the
  // handler's callbacks then come from that pool.
  auto submitted = arrow::internal::GetCpuThreadPool()->Submit(
      [schema = fixture->schema, batches = std::move(placed), device = (*manager)->device()->device_type(),
       handler]() mutable {
        return arrow::ExportAsyncRecordBatchReader(
            std::move(schema), arrow::MakeVectorGenerator(std::move(batches)), device, handler);
      });
  if (!submitted.ok()) return Report(submitted.status());
  return nullptr;
}
