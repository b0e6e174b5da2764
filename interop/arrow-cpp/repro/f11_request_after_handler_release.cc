// F11: Arrow C++'s async consumer (CreateAsyncDeviceStreamHandler) calls
// request on the producer once the producer has released the handler: each
// pull of its generator takes a queued task and calls
// producer_->request(producer_, 1) (AsyncRecordBatchIterator::State::next,
// bridge.cc), also after the stream's end and the handler's release, when
// the producer may have freed its ArrowAsyncProducer.  An interop matrix
// found it: the reference's producer frees it there, and the case crashes.
//
// spec (C Device Data Interface, "ArrowAsyncProducer Lifetime"): the
// producer "MUST remain valid at least until just before calling release on
// the stream handler object".
//
// Here the producer is this program: it calls on_schema, on_next_task with
// one task, on_next_task(NULL) and release before the consumer's first pull
// (as a producer that has its batches at hand may), marks its producer gone
// instead of freeing it, then reads the consumer's generator to its end.
#include <arrow/util/thread_pool.h>

#include <cerrno>

#include "repro.h"

namespace {

bool handler_released = false;
int requests_after_release = 0;

struct TaskData {
  std::shared_ptr<arrow::RecordBatch> batch;
};

int ExtractData(ArrowAsyncTask* task, ArrowDeviceArray* out) {
  auto* data = static_cast<TaskData*>(task->private_data);
  if (out == nullptr) return 0;
  return arrow::ExportDeviceRecordBatch(*data->batch, nullptr, out).ok() ? 0 : EIO;
}

}  // namespace

int main() {
  auto batch = repro::Int32Batch({1, 2});
  if (!batch.ok()) return repro::SetupFailed(batch.status());
  ArrowAsyncProducer producer{};
  producer.device_type = ARROW_DEVICE_CPU;
  // A producer that freed itself at release would crash here; this one
  // counts the call instead.
  producer.request = [](ArrowAsyncProducer*, int64_t) { requests_after_release += handler_released; };
  producer.cancel = [](ArrowAsyncProducer*) {};

  ArrowAsyncDeviceStreamHandler handler{};
  auto started = arrow::CreateAsyncDeviceStreamHandler(&handler, arrow::internal::GetCpuThreadPool());
  handler.producer = &producer;
  ArrowSchema schema;
  arrow::Status exported = arrow::ExportSchema(*(*batch)->schema(), &schema);
  if (!exported.ok()) return repro::SetupFailed(exported);
  if (handler.on_schema(&handler, &schema) != 0)
    return repro::SetupFailed(arrow::Status::IOError("on_schema"));

  TaskData data{*batch};
  ArrowAsyncTask task{};
  task.extract_data = ExtractData;
  task.private_data = &data;
  if (handler.on_next_task(&handler, &task, nullptr) != 0)
    return repro::SetupFailed(arrow::Status::IOError("on_next_task refused"));
  if (handler.on_next_task(&handler, nullptr, nullptr) != 0)
    return repro::SetupFailed(arrow::Status::IOError("the end of the stream refused"));
  handler.release(&handler);
  handler_released = true;

  auto stream = started.result();
  if (!stream.ok()) return repro::SetupFailed(stream.status());
  std::string yielded = repro::YieldedToTheEnd(*stream);
  std::printf(
      "spec: the ArrowAsyncProducer \"MUST remain valid at least until just before calling release on\n"
      "      the stream handler object\"; the generator gave: %s.\n",
      yielded.c_str());
  return requests_after_release > 0
             ? repro::Reproduced("F11", "the consumer called request " +
                                            std::to_string(requests_after_release) +
                                            " time(s) after the producer had released the handler")
             : repro::NotReproduced("F11", "no request came after the handler's release");
}
