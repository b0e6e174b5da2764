// Shared by the standalone reproductions of the Arrow C++ findings: the
// verdict lines (the convention of every peer's reproductions, which
// ci/check-reproductions.sh reads), a small int32 batch, and a recording
// ArrowAsyncDeviceStreamHandler for the producer-side findings (F3-F5).
//
// Exit 0 and "REPRODUCED Fn: ..." when the misbehaviour shows; exit 1 and
// "NOT REPRODUCED Fn: ..." when Arrow C++ behaves as the spec asks (it was
// fixed); exit 2 on a setup error.
#ifndef ADC_ARROW_CPP_REPRO_REPRO_H
#define ADC_ARROW_CPP_REPRO_REPRO_H

#include <arrow/api.h>
#include <arrow/c/abi.h>
#include <arrow/c/bridge.h>
#include <arrow/c/helpers.h>
#include <arrow/util/future.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

namespace repro {

inline int Reproduced(const char* finding, const std::string& what) {
  std::printf("REPRODUCED %s: %s\n", finding, what.c_str());
  std::fflush(stdout);
  return 0;
}

inline int NotReproduced(const char* finding, const std::string& what) {
  std::printf("NOT REPRODUCED %s: %s\n", finding, what.c_str());
  std::fflush(stdout);
  return 1;
}

// A step this program needs (not the behaviour under test) failed.
inline int SetupFailed(const arrow::Status& status) {
  std::printf("setup error: %s\n", status.ToString().c_str());
  std::fflush(stdout);
  return 2;
}

// A batch of one int32 column "a" holding `values`.
inline arrow::Result<std::shared_ptr<arrow::RecordBatch>> Int32Batch(std::initializer_list<int32_t> values) {
  arrow::Int32Builder builder;
  ARROW_RETURN_NOT_OK(builder.AppendValues(std::vector<int32_t>(values)));
  ARROW_ASSIGN_OR_RAISE(auto column, builder.Finish());
  return arrow::RecordBatch::Make(arrow::schema({arrow::field("a", arrow::int32())}), column->length(),
                                  {column});
}

// A consumer's ArrowAsyncDeviceStreamHandler that records every call a
// producer makes on it, in order, and extracts each task it is given
// (extract_data with NULL: spec, ArrowAsyncTask.extract_data, the consumer
// "must still call extract_data so that the producer can perform any
// required cleanup").
class RecordingHandler {
 public:
  RecordingHandler() {
    handler.on_schema = OnSchema;
    handler.on_next_task = OnNextTask;
    handler.on_error = OnError;
    handler.release = Release;
    handler.private_data = this;
  }

  // What on_schema returns (non-zero: the consumer rejects the stream).
  int on_schema_result = 0;
  // Each task's data extracted into a structure filled with 0xA5 (else with
  // NULL: the data not wanted).
  bool extract_into_filled = false;
  ArrowAsyncDeviceStreamHandler handler{};

  // Whether a call whose text starts with `name` came, waiting for it up to
  // `seconds`.
  bool WaitFor(const char* name, double seconds) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return SawLocked(name); });
  }

  bool Saw(const char* name) {
    std::lock_guard<std::mutex> lock(mutex_);
    return SawLocked(name);
  }

  // The calls so far, in order: "on_schema, on_next_task, ...".
  std::string Calls() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string all;
    for (const std::string& call : calls_) all += (all.empty() ? "" : ", ") + call;
    return all.empty() ? "none" : all;
  }

 private:
  static RecordingHandler* Self(ArrowAsyncDeviceStreamHandler* handler) {
    return static_cast<RecordingHandler*>(handler->private_data);
  }

  void Record(std::string call) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      calls_.push_back(std::move(call));
    }
    changed_.notify_all();
  }

  bool SawLocked(const char* name) const {
    for (const std::string& call : calls_) {
      if (call.rfind(name, 0) == 0) return true;
    }
    return false;
  }

  static int OnSchema(ArrowAsyncDeviceStreamHandler* self, ArrowSchema* schema) {
    ArrowSchemaRelease(schema);  // the handler owns the schema it is given
    Self(self)->Record("on_schema");
    return Self(self)->on_schema_result;
  }

  static int OnNextTask(ArrowAsyncDeviceStreamHandler* self, ArrowAsyncTask* task, const char*) {
    if (task == nullptr) {
      Self(self)->Record("on_next_task(NULL: end)");
      return 0;
    }
    if (!Self(self)->extract_into_filled) {
      task->extract_data(task, nullptr);
      Self(self)->Record("on_next_task");
      return 0;
    }
    // Into a structure filled with 0xA5, as the harness fills its outputs:
    // what extract_data leaves unwritten still holds the fill.
    ArrowDeviceArray out;
    std::memset(&out, 0xA5, sizeof(out));
    int code = task->extract_data(task, &out);
    ArrowDeviceArray fill;
    std::memset(&fill, 0xA5, sizeof(fill));
    bool written = std::memcmp(&out, &fill, sizeof(out)) != 0;
    if (code == 0 && written && out.array.release != nullptr) ArrowArrayRelease(&out.array);
    Self(self)->Record("on_next_task(extract_data returned " + std::to_string(code) + ", " +
                       (written ? "the array written" : "the array unwritten") + ")");
    return 0;
  }

  static void OnError(ArrowAsyncDeviceStreamHandler* self, int code, const char* message, const char*) {
    Self(self)->Record("on_error(" + std::to_string(code) + ", \"" + (message ? message : "(null)") + "\")");
  }

  static void Release(ArrowAsyncDeviceStreamHandler* self) {
    Self(self)->Record("release");
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> calls_;
};

// Pulls the generator of a consumer CreateAsyncDeviceStreamHandler filled
// to its end (10 pulls at most) and says what it yielded: "a batch, end",
// or the error it ended with (F6, F11).
inline std::string YieldedToTheEnd(const arrow::AsyncRecordBatchGenerator& stream) {
  std::string yielded;
  for (int pulls = 0; pulls < 10; pulls++) {
    auto next = stream.generator().result();
    if (!next.ok()) return yielded + "error (" + next.status().ToString() + ")";
    if (next->batch == nullptr) return yielded + "end";
    yielded += "a batch, ";
  }
  return yielded + "no end after 10 pulls";
}

}  // namespace repro

#endif  // ADC_ARROW_CPP_REPRO_REPRO_H
