// The round trip's CPU part: a schema and a batch, adopted by Arrow C++'s
// ImportSchema / ImportRecordBatch and exported by ExportSchema /
// ExportRecordBatch; the held object, its end, and BytesAllocated.
#include <string>

#include "round_trip.h"

using adc_arrow_cpp_round_trip::Held;
using adc_arrow_cpp_round_trip::Hold;
using adc_arrow_cpp_round_trip::Report;

namespace adc_arrow_cpp_round_trip {

namespace {
thread_local std::string last_message;
}

const char* Report(const arrow::Status& status) {
  if (status.ok()) return nullptr;
  last_message = status.ToString();
  return last_message.c_str();
}

const char* Hold(arrow::Result<Held> held, void** out) {
  if (!held.ok()) return Report(held.status());
  *out = new Held(std::move(*held));
  return nullptr;
}

}  // namespace adc_arrow_cpp_round_trip

// Arrow C++'s imports move the C structure into an object of their own at
// once (spec: "Moving an array": a bitwise copy, the source marked
// released) and call its release callback when the last Arrow C++ object
// using it goes, failure included: so every Adopt owns what it was handed
// from its first call on, and Free releases it, unless an export still
// carries it (spec: "Releasing the ... array": the producer's data stay
// alive "until the release callback is called").
const char* ArrowCpp_RoundTrip_AdoptSchema(struct ArrowSchema* schema, void** held) {
  auto imported = arrow::ImportSchema(schema);
  if (!imported.ok()) return Report(imported.status());
  return Hold(Held{*imported, nullptr, nullptr}, held);
}

const char* ArrowCpp_RoundTrip_AdoptBatch(struct ArrowSchema* schema, struct ArrowArray* batch, void** held) {
  auto imported_schema = adc_arrow_cpp_round_trip::ImportSchemaOr(schema, [batch] {
    if (batch->release != nullptr) batch->release(batch);
  });
  if (!imported_schema.ok()) return Report(imported_schema.status());
  // A struct array of the schema's fields, imported as a RecordBatch (which
  // rejects a top-level offset or null: the JSON adapter imports the same way).
  auto imported = arrow::ImportRecordBatch(batch, *imported_schema);
  if (!imported.ok()) return Report(imported.status());
  return Hold(Held{*imported_schema, *imported, nullptr}, held);
}

const char* ArrowCpp_RoundTrip_ExportSchema(void* opaque, struct ArrowSchema* out) {
  auto* held = static_cast<Held*>(opaque);
  if (held->schema == nullptr) return Report(arrow::Status::Invalid("the held object has no schema"));
  return Report(arrow::ExportSchema(*held->schema, out));
}

const char* ArrowCpp_RoundTrip_ExportBatch(void* opaque, struct ArrowArray* out) {
  auto* held = static_cast<Held*>(opaque);
  if (held->batch == nullptr) return Report(arrow::Status::Invalid("the held object has no batch"));
  // The export holds its own reference to the batch (and through it to what
  // was adopted), so it outlives Free as the ABI asks.
  return Report(arrow::ExportRecordBatch(*held->batch, out));
}

void ArrowCpp_RoundTrip_Free(void* held) {
  delete static_cast<Held*>(held);
}

int64_t ArrowCpp_BytesAllocated(void) {
  // As the JSON adapter counts (producer.cc): Arrow C++ allocates the private
  // data of every exported structure from its default pool (bridge.cc,
  // PoolAllocationMixin), as it does the simulated device's buffers.
  return arrow::default_memory_pool()->bytes_allocated();
}
