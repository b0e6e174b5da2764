// The Arrow C++ adapter: the plugin ABI (include/adc/plugin_abi.h) on top of
// Arrow C++'s own bridge (arrow/c/bridge.h), so that what the harness judges
// is Arrow C++'s export and import code.  This header holds what every entry
// point shares: the fixture as Arrow C++ objects, the comparison of an
// imported batch with it, and the plugin ABI's message convention.
#ifndef ADC_ARROW_CPP_ADAPTER_H
#define ADC_ARROW_CPP_ADAPTER_H

#include <arrow/api.h>
#include <arrow/c/bridge.h>

#include <memory>
#include <string>

#include "adc/plugin_abi.h"

// Every entry point, declared from the plugin ABI's own list with the prefix
// "ArrowCpp", so that a definition whose signature drifts from the ABI does
// not compile.  Those the adapter leaves out stay declared and undefined.
#define ADC_ARROW_CPP_DECLARE(name, suffix, result, parameters, arguments) \
  extern "C" __attribute__((visibility("default"))) result ArrowCpp_##suffix parameters;
ADC_PLUGIN_ENTRY_POINTS(ADC_ARROW_CPP_DECLARE)
#undef ADC_ARROW_CPP_DECLARE

namespace adc_arrow_cpp {

// A fixture as Arrow C++ holds it: read with the fixture model, exported by
// the reference producer as C structures, and imported with Arrow C++'s
// ImportSchema and ImportRecordBatch.  Both sides of the adapter build it
// this way, so a producer exports and a consumer compares with Arrow C++'s
// own objects.
struct Fixture {
  std::shared_ptr<arrow::Schema> schema;
  arrow::RecordBatchVector batches;
};

arrow::Result<Fixture> LoadFixture(const char* json_path);

// Batch `index` of `fixture`, or an error naming the index when the fixture
// has no such batch.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> FixtureBatch(const Fixture& fixture, int64_t index);

// Validates `actual` fully, then compares it with batch `index` of the
// fixture (RecordBatch::Equals, schema metadata included).
arrow::Status CompareWithFixture(const Fixture& fixture, int64_t index, const arrow::RecordBatch& actual);

// The plugin ABI's return convention: NULL for success, else a message kept
// (per thread) until the calling thread's next entry point call.
const char* Report(const arrow::Status& status);
const char* Report(const std::string& message);

}  // namespace adc_arrow_cpp

#endif  // ADC_ARROW_CPP_ADAPTER_H
