// N9: nanoarrow's integration comparison (nanoarrow::testing::
// TestingJSONComparison, which nanoarrow_CDataIntegration_
// ImportBatchAndCompareToJson uses) compares a struct's child on its own,
// its validity and values under the struct's null rows included, so two
// batches that hold the same values are reported different.
//
// spec (Columnar format, "Struct Layout"): "to know whether a particular
// child entry is valid, one must take the logical AND of the corresponding
// bits in the two validity bitmaps (the struct array's and the child
// array's)".  Below a null struct row a child entry is null whatever its
// own bit says: a library may leave a value there (as the fixture does) or
// null it (DuckDB and polars do).
//
// Exit 0: reproduced; 1: not reproduced (fixed); 2: setup error.
#include <cstdio>
#include <sstream>

#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_testing.hpp"
#include "repro_check.h"

// A batch struct<s: struct<a: int32>> of three rows, s null in row 1; a's
// value under it is `hidden`, or a null where `hidden` is 0.
static int MakeBatch(const ArrowSchema* schema, int hidden, ArrowArray* out) {
  CHECK_OK(ArrowArrayInitFromSchema(out, schema, nullptr));
  CHECK_OK(ArrowArrayStartAppending(out));
  ArrowArray* s = out->children[0];
  ArrowArray* a = s->children[0];
  const int values[] = {10, hidden, 30};
  for (int row = 0; row < 3; row++) {
    CHECK_OK(values[row] == 0 ? ArrowArrayAppendNull(a, 1) : ArrowArrayAppendInt(a, values[row]));
    // The struct's own validity: row 1 is null (appended by hand, as
    // ArrowArrayAppendNull would append a null child as well).
    CHECK_OK(ArrowBitmapAppend(ArrowArrayValidityBitmap(s), row != 1, 1));
    s->length++;
    CHECK_OK(ArrowArrayFinishElement(out));
  }
  s->null_count = 1;
  CHECK_OK(ArrowArrayFinishBuildingDefault(out, nullptr));
  return 0;
}

int main() {
  nanoarrow::UniqueSchema schema;
  ArrowSchemaInit(schema.get());
  CHECK_OK(ArrowSchemaSetTypeStruct(schema.get(), 1));
  CHECK_OK(ArrowSchemaSetTypeStruct(schema->children[0], 1));
  CHECK_OK(ArrowSchemaSetName(schema->children[0], "s"));
  CHECK_OK(ArrowSchemaSetType(schema->children[0]->children[0], NANOARROW_TYPE_INT32));
  CHECK_OK(ArrowSchemaSetName(schema->children[0]->children[0], "a"));

  // Expected: s = [{a: 10}, null, {a: 30}], a holding 20 under the null row.
  nanoarrow::UniqueArray expected;
  if (MakeBatch(schema.get(), 20, expected.get()) != 0) return 2;
  // Actual: the same rows, a null under the null row.
  nanoarrow::UniqueArray actual;
  if (MakeBatch(schema.get(), 0, actual.get()) != 0) return 2;

  nanoarrow::testing::TestingJSONComparison comparison;
  CHECK_OK(comparison.SetSchema(schema.get()));
  CHECK_OK(comparison.CompareBatch(actual.get(), expected.get()));
  std::ostringstream differences;
  comparison.WriteDifferences(differences);

  std::printf("spec: a struct child's entry is valid only where both bitmaps say so (their AND):\n");
  std::printf("      s = [{a: 10}, null, {a: 30}] whatever a holds under the null row.\n");
  if (comparison.num_differences() > 0) {
    std::printf("REPRODUCED N9: TestingJSONComparison reports %d difference(s) between equal batches:\n%s",
                static_cast<int>(comparison.num_differences()), differences.str().c_str());
    return 0;
  }
  std::printf("NOT REPRODUCED N9: TestingJSONComparison finds the batches equal\n");
  return 1;
}
