// ExportAsyncFromJson on Arrow C++'s ExportAsyncRecordBatchReader: the
// fixture's batches, placed on the device, behind Arrow C++'s own vector
// generator, with the caller's handler.  Arrow C++ drives the handler from
// here on (producer, on_schema, tasks on demand, the end, release).
#include <arrow/util/async_generator.h>
#include <arrow/util/future.h>

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
  auto generator = arrow::MakeVectorGenerator(std::move(placed));
  // The future ends when the generator is exhausted or the stream failed;
  // Arrow C++ keeps what it needs alive itself, and the handler's release is
  // its last call, so nothing here waits for it.
  arrow::Future<> done = arrow::ExportAsyncRecordBatchReader(fixture->schema, std::move(generator),
                                                             (*manager)->device()->device_type(), handler);
  (void)done;
  return nullptr;
}
