// F10: the async producer of ExportAsyncRecordBatchReader returns 0 from a
// task's extract_data when it could not export the task's batch, leaving
// the consumer's ArrowDeviceArray unwritten.
//
// spec (C Device Data Interface, ArrowAsyncTask.extract_data): "A callback
// to populate the provided ArrowDeviceArray with the available data. ... If
// a non-zero value is returned from this, it should be followed only by
// the producer calling the on_error callback of the
// ArrowAsyncDeviceStreamHandler."  A zero says the array was populated.
//
// bridge.cc (read at 515410b2a1): AsyncProducer::extract_data keeps `int
// ret = 0`; where ExportDeviceRecordBatch fails it stores the status in the
// producer's error_ for later and returns ret: 0, `out` untouched.  A
// consumer that trusts the 0 reads (and later releases) whatever its
// structure held: the suite's consumer called its fill as a release until
// it checked (async.task.matches_fixture, twin
// producer_async_extract_writes_nothing).  The batch below is one
// ExportDeviceRecordBatch refuses: a column on this program's device
// (probe_device.h) beside one on the CPU.
#include <arrow/util/async_generator.h>

#include <thread>

#include "probe_device.h"
#include "repro.h"

int main() {
  static const int32_t on_device[2] = {1, 2};
  auto a = arrow::ArrayData::Make(arrow::int32(), 2, {nullptr, repro::ProbeBuffer(on_device, 8)}, 0);
  auto b = repro::Int32Batch({3, 4});
  if (!b.ok()) return repro::SetupFailed(b.status());
  auto schema = arrow::schema({arrow::field("a", arrow::int32()), arrow::field("b", arrow::int32())});
  auto batch = arrow::RecordBatch::Make(
      schema, 2, std::vector<std::shared_ptr<arrow::ArrayData>>{a, (*b)->column(0)->data()});
  repro::RecordingHandler recorder;
  recorder.extract_into_filled = true;
  std::thread producer([&]() {
    arrow::ExportAsyncRecordBatchReader(schema, arrow::MakeVectorGenerator(arrow::RecordBatchVector{batch}),
                                        arrow::DeviceAllocationType::kCPU, &recorder.handler)
        .Wait();
  });
  bool schema_came = recorder.WaitFor("on_schema", 10);
  if (schema_came) recorder.handler.producer->request(recorder.handler.producer, 1);
  bool task_came = schema_came && recorder.WaitFor("on_next_task(", 10);
  if (schema_came) recorder.handler.producer->cancel(recorder.handler.producer);
  recorder.WaitFor("release", 10);
  producer.join();
  if (!task_came)
    return repro::SetupFailed(arrow::Status::IOError("no task within 10 s: " + recorder.Calls()));
  std::printf(
      "spec: extract_data is \"A callback to populate the provided ArrowDeviceArray with the available "
      "data\";\n"
      "      a non-zero value is returned where it could not.\n");
  return recorder.Saw("on_next_task(extract_data returned 0, the array unwritten)")
             ? repro::Reproduced("F10",
                                 "extract_data of a batch ExportDeviceRecordBatch refuses returned 0 and "
                                 "left the ArrowDeviceArray unwritten; calls: " +
                                     recorder.Calls())
             : repro::NotReproduced("F10", "calls: " + recorder.Calls());
}
