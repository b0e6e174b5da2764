// N1: nanoarrow's integration comparison (nanoarrow::testing::
// TestingJSONComparison, which nanoarrow_CDataIntegration_
// ImportBatchAndCompareToJson uses) reads validity bits from the start of
// the buffer, not from the array's offset, so two equal batches are
// reported different.
//
// spec (C Data Interface, "The ArrowArray structure", offset): "The logical
// offset inside the array (i.e. the number of items from the physical start
// of the buffers)."  The values of a column with offset 3 start at item 3
// of its buffers, validity bits included.
//
// Exit 0: reproduced; 1: not reproduced (fixed); 2: setup error.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_testing.hpp"
#include "repro_check.h"

// A batch struct<x: int32> holding `values` (0 stands for null).
static int MakeBatch(const ArrowSchema* schema, std::initializer_list<int> values, ArrowArray* out) {
  CHECK_OK(ArrowArrayInitFromSchema(out, schema, nullptr));
  CHECK_OK(ArrowArrayStartAppending(out));
  for (int value : values) {
    CHECK_OK(value == 0 ? ArrowArrayAppendNull(out->children[0], 1)
                        : ArrowArrayAppendInt(out->children[0], value));
    CHECK_OK(ArrowArrayFinishElement(out));
  }
  CHECK_OK(ArrowArrayFinishBuildingDefault(out, nullptr));
  return 0;
}

int main() {
  nanoarrow::UniqueSchema schema;
  ArrowSchemaInit(schema.get());
  CHECK_OK(ArrowSchemaSetTypeStruct(schema.get(), 1));
  CHECK_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_INT32));
  CHECK_OK(ArrowSchemaSetName(schema->children[0], "x"));

  // Expected: x = [1, null, 3].
  nanoarrow::UniqueArray expected;
  if (MakeBatch(schema.get(), {1, 0, 3}, expected.get()) != 0) return 2;

  // Actual: the same three values, as items 3..5 of a column whose first
  // three items are null: x's offset is 3 and its length 3.
  nanoarrow::UniqueArray actual;
  if (MakeBatch(schema.get(), {0, 0, 0, 1, 0, 3}, actual.get()) != 0) return 2;
  actual->length = 3;
  actual->children[0]->offset = 3;
  actual->children[0]->length = 3;
  actual->children[0]->null_count = 1;

  nanoarrow::testing::TestingJSONComparison comparison;
  CHECK_OK(comparison.SetSchema(schema.get()));
  CHECK_OK(comparison.CompareBatch(actual.get(), expected.get()));
  std::ostringstream differences;
  comparison.WriteDifferences(differences);

  std::printf("spec: ArrowArray.offset is \"the number of items from the physical start of the buffers\":\n");
  std::printf("      x = [1, null, 3] at offset 3 equals x = [1, null, 3] at offset 0.\n");
  if (comparison.num_differences() > 0) {
    std::printf("REPRODUCED N1: TestingJSONComparison reports %d difference(s) between equal batches:\n%s",
                static_cast<int>(comparison.num_differences()), differences.str().c_str());
    return 0;
  }
  std::printf("NOT REPRODUCED N1: TestingJSONComparison finds the batches equal\n");
  return 1;
}
