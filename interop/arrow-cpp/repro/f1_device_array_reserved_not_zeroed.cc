// F1: ExportDeviceRecordBatch never writes ArrowDeviceArray.reserved.
//
// spec (C Device Data Interface, "The ArrowDeviceArray structure",
// reserved): "These bytes MUST be zero'd out after initialization by the
// producer in order to ensure safe evolution of the ABI in the future."
//
// bridge.cc's ExportDeviceRecordBatch writes device_type, device_id, array
// (ArrayExporter::Finish) and sync_event, and leaves reserved as the
// caller's memory held it.
#include <cstring>

#include "repro.h"

int main() {
  auto batch = repro::Int32Batch({1, 2, 3});
  if (!batch.ok()) return repro::SetupFailed(batch.status());
  ArrowDeviceArray out;
  std::memset(&out, 0xA5, sizeof out);  // what a caller's stack may hold
  arrow::Status exported = arrow::ExportDeviceRecordBatch(**batch, nullptr, &out);
  if (!exported.ok()) return repro::SetupFailed(exported);
  bool zeroed = true;
  for (int64_t word : out.reserved) zeroed = zeroed && word == 0;
  char seen[96];
  std::snprintf(seen, sizeof seen, "reserved = {0x%llx, 0x%llx, 0x%llx}",
                static_cast<unsigned long long>(out.reserved[0]),
                static_cast<unsigned long long>(out.reserved[1]),
                static_cast<unsigned long long>(out.reserved[2]));
  out.array.release(&out.array);
  std::printf(
      "spec: ArrowDeviceArray.reserved \"MUST be zero'd out after initialization by the producer\".\n");
  return zeroed ? repro::NotReproduced("F1", std::string("ExportDeviceRecordBatch zeroed it: ") + seen)
                : repro::Reproduced("F1",
                                    std::string("ExportDeviceRecordBatch left the caller's bytes: ") + seen);
}
