// The round trip's async part: AdoptAsync on Arrow C++'s
// CreateAsyncDeviceStreamHandler (the batches it yields, held as a reader
// over them), ExportAsync on ExportAsyncRecordBatchReader (over the held
// reader, read as the consumer requests).
#include <arrow/util/async_generator.h>
#include <arrow/util/future.h>
#include <arrow/util/thread_pool.h>

#include <condition_variable>
#include <mutex>
#include <type_traits>

#include "devices.h"
#include "round_trip.h"

using adc_arrow_cpp_round_trip::Held;
using adc_arrow_cpp_round_trip::Hold;
using adc_arrow_cpp_round_trip::Report;

namespace {

// The handler Arrow C++ fills, its release wrapped so that AdoptAsync
// learns when the producer released it (ABI: "return once the producer has
// released the handler").  Standard layout, the handler first: the pointer
// release is called with is this whole object's.
struct WatchedHandler {
  struct ArrowAsyncDeviceStreamHandler handler;
  void (*arrow_release)(struct ArrowAsyncDeviceStreamHandler*);
  std::mutex mutex;
  std::condition_variable changed;
  bool released = false;
};
static_assert(std::is_standard_layout_v<WatchedHandler>);

void ReleaseAndSignal(struct ArrowAsyncDeviceStreamHandler* handler) {
  auto* watched = reinterpret_cast<WatchedHandler*>(handler);
  watched->arrow_release(handler);
  std::lock_guard<std::mutex> lock(watched->mutex);
  watched->released = true;
  watched->changed.notify_all();
}

// Every batch until the end (on_next_task(NULL)); on_error is the
// generator's error.  Each batch keeps the sync event it came with.
arrow::Result<Held> ReadAll(arrow::Future<arrow::AsyncRecordBatchGenerator> started) {
  ARROW_ASSIGN_OR_RAISE(arrow::AsyncRecordBatchGenerator stream, started.result());
  arrow::RecordBatchVector batches;
  for (;;) {
    // A copy: result() refers into the future, which is a temporary here.
    arrow::Result<arrow::RecordBatchWithMetadata> result = stream.generator().result();
    ARROW_ASSIGN_OR_RAISE(arrow::RecordBatchWithMetadata next, std::move(result));
    if (arrow::IsIterationEnd(next)) break;
    batches.push_back(std::move(next.batch));
  }
  ARROW_ASSIGN_OR_RAISE(
      auto reader, arrow::RecordBatchReader::Make(std::move(batches), stream.schema, stream.device_type));
  return Held{stream.schema, nullptr, std::move(reader)};
}

}  // namespace

const char* ArrowCpp_RoundTrip_AdoptAsync(ArrowDeviceType device_type, ADC_AsyncProducerStart start,
                                          void* start_context, void** held) {
  (void)device_type;  // Arrow C++ learns the device from the producer's arrays.
  WatchedHandler watched;
  watched.handler = {};
  auto started = arrow::CreateAsyncDeviceStreamHandler(&watched.handler, arrow::internal::GetCpuThreadPool(),
                                                       /*queue_size=*/5, adc_arrow_cpp::MapDevice);
  watched.arrow_release = watched.handler.release;
  watched.handler.release = ReleaseAndSignal;
  if (const char* refused = start(start_context, &watched.handler)) {
    // Never handed over: the handler is still ours to release.
    arrow::Status status = arrow::Status::Invalid("the producer refused the handler: ", refused);
    ReleaseAndSignal(&watched.handler);
    return Report(status);
  }
  arrow::Result<Held> read = ReadAll(std::move(started));
  std::unique_lock<std::mutex> lock(watched.mutex);
  watched.changed.wait(lock, [&watched] { return watched.released; });
  return Hold(std::move(read), held);
}

const char* ArrowCpp_RoundTrip_ExportAsync(void* opaque, struct ArrowAsyncDeviceStreamHandler* handler) {
  auto* held = static_cast<Held*>(opaque);
  if (held->stream == nullptr) return Report(arrow::Status::Invalid("the held object has no stream"));
  // The producer owns the reader from here on (Free may follow at once);
  // a batch is read as the consumer requests it, and an error of the
  // adopted stream is the generator's, which Arrow C++ hands on as on_error.
  std::shared_ptr<arrow::RecordBatchReader> reader = std::move(held->stream);
  arrow::AsyncGenerator<std::shared_ptr<arrow::RecordBatch>> generator =
      [reader]() -> arrow::Future<std::shared_ptr<arrow::RecordBatch>> {
    std::shared_ptr<arrow::RecordBatch> next;
    ARROW_RETURN_NOT_OK(reader->ReadNext(&next));
    if (next == nullptr) return arrow::IterationEnd<std::shared_ptr<arrow::RecordBatch>>();
    return next;
  };
  // As the JSON adapter's producer (async_producer.cc): Arrow C++'s export
  // walks a generator of completed futures on the calling thread, waiting
  // there for requests, so it runs on Arrow C++'s CPU pool, not the caller's.
  auto submitted = arrow::internal::GetCpuThreadPool()->Submit(
      [schema = reader->schema(), generator = std::move(generator), device = reader->device_type(),
       handler]() mutable {
        return arrow::ExportAsyncRecordBatchReader(std::move(schema), std::move(generator), device, handler);
      });
  return Report(submitted.status());
}
