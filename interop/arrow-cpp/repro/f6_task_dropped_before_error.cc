// F6: the handler of Arrow C++'s async consumer (CreateAsyncDeviceStreamHandler)
// drops a task that arrived before on_error: its generator yields the error,
// and the task's extract_data is never called, so the producer's cleanup
// never runs.
//
// spec (C Device Data Interface, ArrowAsyncTask.extract_data): "If the
// consumer does not care about the data that is owned by this task, it must
// still call extract_data so that the producer can perform any required
// cleanup."
//
// Here the producer is this program: it calls on_schema, on_next_task with
// one task, on_error and release, before the consumer's first pull, then
// reads the consumer's generator to its end.
#include <arrow/util/thread_pool.h>

#include <cerrno>

#include "repro.h"

namespace {

int64_t requested = 0;

struct TaskData {
  std::shared_ptr<arrow::RecordBatch> batch;
  int extract_calls = 0;
};

int ExtractData(ArrowAsyncTask* task, ArrowDeviceArray* out) {
  auto* data = static_cast<TaskData*>(task->private_data);
  data->extract_calls++;
  if (out == nullptr) return 0;
  return arrow::ExportDeviceRecordBatch(*data->batch, nullptr, out).ok() ? 0 : EIO;
}

}  // namespace

int main() {
  auto batch = repro::Int32Batch({1, 2});
  if (!batch.ok()) return repro::SetupFailed(batch.status());
  ArrowAsyncProducer producer{};
  producer.device_type = ARROW_DEVICE_CPU;
  producer.request = [](ArrowAsyncProducer*, int64_t n) { requested += n; };
  producer.cancel = [](ArrowAsyncProducer*) {};

  ArrowAsyncDeviceStreamHandler handler{};
  auto started = arrow::CreateAsyncDeviceStreamHandler(&handler, arrow::internal::GetCpuThreadPool());
  handler.producer = &producer;
  ArrowSchema schema;
  arrow::Status exported = arrow::ExportSchema(*(*batch)->schema(), &schema);
  if (!exported.ok()) return repro::SetupFailed(exported);
  if (handler.on_schema(&handler, &schema) != 0)
    return repro::SetupFailed(arrow::Status::IOError("on_schema"));
  if (requested < 1) return repro::SetupFailed(arrow::Status::IOError("the consumer requested nothing"));

  TaskData data{*batch};
  ArrowAsyncTask task{};
  task.extract_data = ExtractData;
  task.private_data = &data;
  if (handler.on_next_task(&handler, &task, nullptr) != 0)
    return repro::SetupFailed(arrow::Status::IOError("on_next_task refused"));
  handler.on_error(&handler, EIO, "the producer failed after its first batch", nullptr);
  handler.release(&handler);

  auto stream = started.result();
  if (!stream.ok()) return repro::SetupFailed(stream.status());
  std::string yielded = repro::YieldedToTheEnd(*stream);
  std::printf(
      "spec: a consumer \"must still call extract_data so that the producer can perform any required\n"
      "      cleanup\"; the generator gave: %s.\n",
      yielded.c_str());
  return data.extract_calls == 0
             ? repro::Reproduced("F6", "the task that came before on_error was never extracted")
             : repro::NotReproduced(
                   "F6", "extract_data was called " + std::to_string(data.extract_calls) + " time(s)");
}
