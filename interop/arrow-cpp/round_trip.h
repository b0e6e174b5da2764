// The Arrow C++ adapter on the round-trip ABI (include/adc/plugin_abi.h,
// ADC_ROUND_TRIP_ENTRY_POINTS): libadc_arrow_cpp_round_trip.so, prefix
// "ArrowCpp".  No JSON and no comparison of its own: what the harness
// hands it is imported by Arrow C++'s C bridge (arrow/c/bridge.h) into
// Arrow C++'s own objects, exported again by the same bridge, and the suite
// compares that export with the fixture (CONFORMANCE.md, "The round-trip
// ABI").  round_trip.cc is the CPU part, round_trip_device.cc the device
// arrays and streams, round_trip_async.cc the async streams.
#ifndef ADC_ARROW_CPP_ROUND_TRIP_H
#define ADC_ARROW_CPP_ROUND_TRIP_H

#include <arrow/api.h>
#include <arrow/c/bridge.h>

#include <memory>

#include "adc/plugin_abi.h"

// Every round-trip entry point, declared from the ABI's own list, so that a
// definition whose signature drifts from it does not compile.
#define ADC_ARROW_CPP_ROUND_TRIP_DECLARE(name, result, parameters, arguments) \
  extern "C" __attribute__((visibility("default"))) result ArrowCpp_RoundTrip_##name parameters;
ADC_ROUND_TRIP_ENTRY_POINTS(ADC_ARROW_CPP_ROUND_TRIP_DECLARE)
#undef ADC_ARROW_CPP_ROUND_TRIP_DECLARE
// Not made by the round trip (CONFORMANCE.md: "BytesAllocated is the
// library's own"): without it the leak rules are not_supported.
extern "C" __attribute__((visibility("default"))) int64_t ArrowCpp_BytesAllocated(void);

namespace adc_arrow_cpp_round_trip {

// The held object: Arrow C++'s own representation of what was adopted.  A
// device batch's sync event is the batch's own (RecordBatch::GetSyncEvent,
// set by ImportDeviceRecordBatch); a stream is a RecordBatchReader.
struct Held {
  std::shared_ptr<arrow::Schema> schema;
  std::shared_ptr<arrow::RecordBatch> batch;
  std::shared_ptr<arrow::RecordBatchReader> stream;
};

// The ABI's return convention: NULL for success, else a message kept (per
// thread) until the calling thread's next entry point call.
const char* Report(const arrow::Status& status);

// An Adopt's end: `held` made a held object, or its error reported.
const char* Hold(arrow::Result<Held> held, void** out);

// The schema `schema` (moved), or an error; on error `release` is called,
// so that what was adopted with it is released too (plugin ABI: an Import
// "must have released it when it returns, whether it succeeded or not").
template <typename Release>
arrow::Result<std::shared_ptr<arrow::Schema>> ImportSchemaOr(struct ArrowSchema* schema, Release release) {
  auto imported = arrow::ImportSchema(schema);
  if (!imported.ok()) release();
  return imported;
}

}  // namespace adc_arrow_cpp_round_trip

#endif  // ADC_ARROW_CPP_ROUND_TRIP_H
