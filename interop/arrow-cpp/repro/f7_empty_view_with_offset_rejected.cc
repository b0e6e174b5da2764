// F7: an empty binary view array with a non-zero offset is imported with a
// views buffer of 0 bytes, which Arrow C++'s own validation then rejects.
//
// spec (C Data Interface, "The ArrowArray structure"): "Consumers MAY decide
// not to support non-0-offset arrays, but they should document this
// limitation."  The array below is valid (its views buffer holds
// length + offset = 3 views); Arrow C++ does not document refusing it.
//
// bridge.cc's ArrayImporter::ImportFixedSizeBuffer sizes a fixed-size buffer
// as byte_width * (length + offset) only when length > 0, and as 0 otherwise.
#include <arrow/array.h>

#include <cstring>

#include "repro.h"

namespace {

// Three inline views ("a", "b", "c": length 1, data in the view itself).
uint8_t views[3 * 16];
const int64_t no_variadic_buffers[1] = {0};
const void* buffers[3] = {nullptr, views, no_variadic_buffers};

void ReleaseStatic(ArrowArray* array) {
  array->release = nullptr;
}

}  // namespace

int main() {
  for (int i = 0; i < 3; i++) {
    int32_t length = 1;
    std::memcpy(views + 16 * i, &length, sizeof length);
    views[16 * i + 4] = static_cast<uint8_t>('a' + i);
  }
  // spec: a binary view array has its validity, its views and a buffer of
  // the variadic buffers' sizes (here none), so n_buffers is 3.
  ArrowArray array{};
  array.length = 0;
  array.offset = 3;
  array.null_count = 0;
  array.n_buffers = 3;
  array.buffers = buffers;
  array.release = ReleaseStatic;

  auto imported = arrow::ImportArray(&array, arrow::utf8_view());
  if (!imported.ok()) return repro::SetupFailed(imported.status());
  arrow::Status valid = (*imported)->ValidateFull();
  std::printf(
      "spec: consumers \"MAY decide not to support non-0-offset arrays, but they should document this\n"
      "      limitation\"; this empty utf8_view array, offset 3, holds its 3 views.\n");
  return valid.ok() ? repro::NotReproduced("F7", "the imported array validates")
                    : repro::Reproduced(
                          "F7", "ImportArray gave an array that fails ValidateFull: " + valid.ToString());
}
