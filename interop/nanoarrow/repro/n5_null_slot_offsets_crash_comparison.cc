// N5: nanoarrow's integration comparison (nanoarrow::testing::
// TestingJSONComparison, which nanoarrow_CDataIntegration_
// ImportBatchAndCompareToJson uses) writes every slot of a string column
// as JSON, null ones included (testing.cc, WriteString), taking the
// difference of a slot's two offsets as its length: a null slot whose
// offsets decrease gives a negative length, cast to size_t, and
// std::string throws length_error (in a consumer built on it, the process
// aborts).
//
// spec (Columnar format, "Variable-size Binary Layout"): "Offsets must be
// monotonically increasing, that is offsets[j+1] >= offsets[j] for
// 0 <= j < length, even for null slots."  Such a batch is invalid, and a
// consumer may trust its producer; the suite's SHOULD rule
// consumer.structure.offsets_refused asks that it be refused with a
// message, not a crash.
//
// Exit 0: reproduced; 1: not reproduced (fixed); 2: setup error.
#include <cstdio>
#include <stdexcept>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_testing.hpp"
#include "repro_check.h"

// A batch struct<s: utf8> = ["ab", null, null].
static int MakeBatch(const ArrowSchema* schema, ArrowArray* out) {
  CHECK_OK(ArrowArrayInitFromSchema(out, schema, nullptr));
  CHECK_OK(ArrowArrayStartAppending(out));
  CHECK_OK(ArrowArrayAppendString(out->children[0], ArrowCharView("ab")));
  CHECK_OK(ArrowArrayFinishElement(out));
  for (int i = 0; i < 2; i++) {
    CHECK_OK(ArrowArrayAppendNull(out->children[0], 1));
    CHECK_OK(ArrowArrayFinishElement(out));
  }
  CHECK_OK(ArrowArrayFinishBuildingDefault(out, nullptr));
  return 0;
}

int main() {
  nanoarrow::UniqueSchema schema;
  ArrowSchemaInit(schema.get());
  CHECK_OK(ArrowSchemaSetTypeStruct(schema.get(), 1));
  CHECK_OK(ArrowSchemaSetType(schema->children[0], NANOARROW_TYPE_STRING));
  CHECK_OK(ArrowSchemaSetName(schema->children[0], "s"));

  nanoarrow::UniqueArray expected;
  if (MakeBatch(schema.get(), expected.get()) != 0) return 2;
  // The same values; the offsets [0, 2, 2, 2] become [0, 2, 1, 2]: null
  // slot 1 ends before it starts, null slot 2 spans a byte.  Every valid
  // slot reads as before.
  nanoarrow::UniqueArray actual;
  if (MakeBatch(schema.get(), actual.get()) != 0) return 2;
  auto* offsets = static_cast<int32_t*>(const_cast<void*>(actual->children[0]->buffers[1]));
  offsets[2] = 1;

  std::printf("spec: \"Offsets must be monotonically increasing ... even for null slots\"; a consumer\n");
  std::printf("      handed s = [\"ab\", null, null] with offsets [0, 2, 1, 2] should refuse it.\n");
  nanoarrow::testing::TestingJSONComparison comparison;
  CHECK_OK(comparison.SetSchema(schema.get()));
  try {
    ArrowErrorCode code = comparison.CompareBatch(actual.get(), expected.get());
    std::printf("NOT REPRODUCED N5: CompareBatch returned %d with %d difference(s), without throwing\n",
                static_cast<int>(code), static_cast<int>(comparison.num_differences()));
    return 1;
  } catch (const std::length_error& error) {
    std::printf("REPRODUCED N5: CompareBatch threw std::length_error (%s): uncaught, the process aborts\n",
                error.what());
    return 0;
  }
}
