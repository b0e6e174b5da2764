// The consumer side: each entry point imports what it is handed with Arrow
// C++'s importers and compares the result with the fixture, built the same
// way (adapter.h).  Arrow C++'s import takes ownership of the C structure at
// once and releases it when its objects go, failure or not, which is the
// plugin ABI's "must have released it when it returns": every imported
// object here is gone before the entry point returns.
#include "adapter.h"
#include "devices.h"

using adc_arrow_cpp::CompareWithFixture;
using adc_arrow_cpp::LoadFixture;
using adc_arrow_cpp::Report;

const char* ArrowCpp_CDataIntegration_ImportSchemaAndCompareToJson(const char* json_path,
                                                                   struct ArrowSchema* schema) {
  // Imported first, so that it is released whatever happens next.
  auto imported = arrow::ImportSchema(schema);
  if (!imported.ok()) return Report(imported.status());
  auto fixture = LoadFixture(json_path);
  if (!fixture.ok()) return Report(fixture.status());
  if (!(*imported)->Equals(*fixture->schema, /*check_metadata=*/true)) {
    return Report("schema " + (*imported)->ToString(true) + " differs from the fixture's " +
                  fixture->schema->ToString(true));
  }
  return nullptr;
}

namespace {

// The fixture, or a message; on failure `batch` is released unread (the
// plugin ABI's ownership rule holds on every path).
template <typename Release>
arrow::Result<adc_arrow_cpp::Fixture> FixtureOrRelease(const char* json_path, Release release) {
  auto fixture = LoadFixture(json_path);
  if (!fixture.ok()) release();
  return fixture;
}

}  // namespace

const char* ArrowCpp_CDataIntegration_ImportBatchAndCompareToJson(const char* json_path, int num_batch,
                                                                  struct ArrowArray* batch) {
  auto fixture = FixtureOrRelease(json_path, [batch] {
    if (batch->release != nullptr) batch->release(batch);
  });
  if (!fixture.ok()) return Report(fixture.status());
  auto imported = arrow::ImportRecordBatch(batch, fixture->schema);
  if (!imported.ok()) return Report(imported.status());
  return Report(CompareWithFixture(*fixture, num_batch, **imported));
}

const char* ArrowCpp_CDeviceIntegration_ImportDeviceBatchAndCompareToJson(const char* json_path,
                                                                          int num_batch,
                                                                          struct ArrowDeviceArray* batch) {
  auto fixture = FixtureOrRelease(json_path, [batch] {
    if (batch->array.release != nullptr) batch->array.release(&batch->array);
  });
  if (!fixture.ok()) return Report(fixture.status());
  auto imported = arrow::ImportDeviceRecordBatch(batch, fixture->schema, adc_arrow_cpp::MapDevice);
  if (!imported.ok()) return Report(imported.status());
  auto readable = adc_arrow_cpp::ReadableOnCpu(*imported);
  if (!readable.ok()) return Report(readable.status());
  return Report(CompareWithFixture(*fixture, num_batch, **readable));
}

const char* ArrowCpp_CDeviceIntegration_ImportDeviceStreamAndCompareToJson(
    const char* json_path, struct ArrowDeviceArrayStream* stream) {
  auto reader = arrow::ImportDeviceRecordBatchReader(stream, adc_arrow_cpp::MapDevice);
  if (!reader.ok()) return Report(reader.status());
  auto fixture = LoadFixture(json_path);
  if (!fixture.ok()) return Report(fixture.status());
  if (!(*reader)->schema()->Equals(*fixture->schema, /*check_metadata=*/true)) {
    return Report("the stream's schema " + (*reader)->schema()->ToString(true) +
                  " differs from the fixture's " + fixture->schema->ToString(true));
  }
  // Every batch until the end of the stream, each compared in order; the
  // reader (and with it the stream) is released when it goes out of scope.
  for (int64_t index = 0;; index++) {
    std::shared_ptr<arrow::RecordBatch> next;
    arrow::Status read = (*reader)->ReadNext(&next);
    if (!read.ok()) return Report(read.WithMessage("reading batch ", index, ": ", read.message()));
    if (next == nullptr) {
      if (index != static_cast<int64_t>(fixture->batches.size())) {
        return Report("the stream ended after " + std::to_string(index) + " batches, the fixture has " +
                      std::to_string(fixture->batches.size()));
      }
      return nullptr;
    }
    auto readable = adc_arrow_cpp::ReadableOnCpu(next);
    if (!readable.ok()) return Report(readable.status());
    arrow::Status compared = CompareWithFixture(*fixture, index, **readable);
    if (!compared.ok()) return Report(compared);
  }
}
