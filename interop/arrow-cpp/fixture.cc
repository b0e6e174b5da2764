// The fixture as Arrow C++ objects, its comparison, and the message
// convention (adapter.h).
#include <cinttypes>
#include <cstdio>

#include "adapter.h"
#include "reference_core.h"

namespace adc_arrow_cpp {

namespace {

// The fixture model's file, freed however the loading ends.
struct FixtureFile {
  struct arrow_json_file file = {};
  bool loaded = false;
  ~FixtureFile() {
    if (loaded) arrow_json_file_free(&file);
  }
};

}  // namespace

arrow::Result<Fixture> LoadFixture(const char* json_path) {
  FixtureFile json;
  char error[1024];
  if (ref_load_fixture(json_path, &json.file, error, sizeof(error)) != 0) {
    return arrow::Status::IOError("reading the fixture: ", error);
  }
  json.loaded = true;

  // The reference producer writes the C structures; Arrow C++ takes them over
  // (its import moves them and releases them when its objects go).
  Fixture fixture;
  struct ArrowSchema c_schema;
  if (const char* message = ref_export_schema(&json.file, &c_schema)) {
    return arrow::Status::Invalid("exporting the fixture's schema: ", message);
  }
  ARROW_ASSIGN_OR_RAISE(fixture.schema, arrow::ImportSchema(&c_schema));
  for (int64_t i = 0; i < json.file.n_batches; i++) {
    struct ArrowArray c_array;
    if (const char* message = ref_export_batch(&json.file, i, &c_array)) {
      return arrow::Status::Invalid("exporting batch ", i, " of the fixture: ", message);
    }
    ARROW_ASSIGN_OR_RAISE(auto batch, arrow::ImportRecordBatch(&c_array, fixture.schema));
    fixture.batches.push_back(std::move(batch));
  }
  return fixture;
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> FixtureBatch(const Fixture& fixture, int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(fixture.batches.size())) {
    return arrow::Status::IndexError("the fixture has no batch ", index, " (it has ", fixture.batches.size(),
                                     ")");
  }
  return fixture.batches[static_cast<size_t>(index)];
}

arrow::Status CompareWithFixture(const Fixture& fixture, int64_t index, const arrow::RecordBatch& actual) {
  ARROW_ASSIGN_OR_RAISE(auto expected, FixtureBatch(fixture, index));
  // Equals reads every buffer as the layout says it is; a malformed import
  // must be an error message, not a read out of bounds.
  ARROW_RETURN_NOT_OK(actual.ValidateFull());
  if (!actual.schema()->Equals(*expected->schema(), /*check_metadata=*/true)) {
    return arrow::Status::Invalid("batch ", index, ": schema ", actual.schema()->ToString(true),
                                  " differs from the fixture's ", expected->schema()->ToString(true));
  }
  if (!actual.Equals(*expected, /*check_metadata=*/true)) {
    return arrow::Status::Invalid("batch ", index, " differs from the fixture: got ", actual.ToString(),
                                  "expected ", expected->ToString());
  }
  return arrow::Status::OK();
}

namespace {
thread_local std::string last_message;
}

const char* Report(const std::string& message) {
  last_message = message;
  return last_message.c_str();
}

const char* Report(const arrow::Status& status) {
  if (status.ok()) return nullptr;
  return Report(status.ToString());
}

}  // namespace adc_arrow_cpp
