// N4: nanoarrow's integration JSON reader (nanoarrow::testing::
// TestingJSONReader, testing.cc, which nanoarrow_CDataIntegration_
// ExportBatchFromJson and ..._ImportBatchAndCompareToJson use) reads a
// half-float column's DATA as 4-byte floats into the column's 2-byte value
// buffer (SetBufferFloatingPoint<float> for NANOARROW_TYPE_HALF_FLOAT), so
// the exported values are the halves of float32 bit patterns.
//
// spec (C Data Interface, "Format strings"): "e" is float16, two bytes a
// value; Integration.rst: a floatingpoint field of precision HALF holds its
// DATA as numbers.  -0.25 as a float16 is 0xB400.
//
// Exit 0: reproduced; 1: not reproduced (fixed); 2: setup error.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_testing.hpp"

static const char* const kFile = R"({
  "schema": {"fields": [{"name": "h", "nullable": false, "children": [],
                         "type": {"name": "floatingpoint", "precision": "HALF"}}]},
  "batches": [{"count": 2, "columns": [{"name": "h", "count": 2, "VALIDITY": [1, 1], "DATA": [-0.25, 1.5]}]}]
})";

int main() {
  nanoarrow::testing::TestingJSONReader reader;
  nanoarrow::UniqueArrayStream stream;
  nanoarrow::UniqueArray batch;
  ArrowError error{};
  if (reader.ReadDataFile(kFile, stream.get(), 0, &error) != NANOARROW_OK ||
      ArrowArrayStreamGetNext(stream.get(), batch.get(), &error) != NANOARROW_OK ||
      batch->release == nullptr) {
    std::fprintf(stderr, "setup failed: %s\n", error.message);
    return 2;
  }
  const ArrowArray* column = batch->children[0];
  uint16_t values[2];
  std::memcpy(values, column->buffers[1], sizeof values);
  std::printf("spec: a float16 (\"e\") column holds two bytes a value: -0.25 is 0xB400, 1.5 is 0x3E00.\n");
  if (values[0] != 0xB400 || values[1] != 0x3E00) {
    std::printf("REPRODUCED N4: TestingJSONReader stored 0x%04X and 0x%04X\n", values[0], values[1]);
    return 0;
  }
  std::printf("NOT REPRODUCED N4: TestingJSONReader stored 0x%04X and 0x%04X\n", values[0], values[1]);
  return 1;
}
