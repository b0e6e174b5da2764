// ImportAsyncAndCompareToJson on Arrow C++'s CreateAsyncDeviceStreamHandler:
// Arrow C++ fills the handler; the adapter hands it to the producer, reads
// the generator Arrow C++ gives it, compares every batch with the fixture,
// and returns once the producer has released the handler (plugin ABI:
// "block until the producer has released the handler").
#include <arrow/util/future.h>
#include <arrow/util/thread_pool.h>

#include <condition_variable>
#include <mutex>
#include <type_traits>

#include "adapter.h"
#include "devices.h"

using adc_arrow_cpp::Report;

namespace {

struct ReleaseSignal {
  std::mutex mutex;
  std::condition_variable changed;
  bool released = false;
};

// The handler Arrow C++ fills, with its release callback wrapped so that the
// adapter learns when the producer released it.  Standard layout, with the
// handler first: the pointer the producer calls release with is the
// pointer to this whole object.
struct WatchedHandler {
  struct ArrowAsyncDeviceStreamHandler handler;
  void (*arrow_release)(struct ArrowAsyncDeviceStreamHandler*);
  ReleaseSignal* signal;
};
static_assert(std::is_standard_layout_v<WatchedHandler>);

void ReleaseAndSignal(struct ArrowAsyncDeviceStreamHandler* handler) {
  auto* watched = reinterpret_cast<WatchedHandler*>(handler);
  ReleaseSignal* signal = watched->signal;
  watched->arrow_release(handler);
  std::lock_guard<std::mutex> lock(signal->mutex);
  signal->released = true;
  signal->changed.notify_all();
}

// Reads the whole stream and compares it; after a difference or an error it
// goes on reading to the end (the producer is told nothing else, and must
// come to its release).
arrow::Status ReadAndCompare(const adc_arrow_cpp::Fixture& fixture,
                             arrow::Future<arrow::AsyncRecordBatchGenerator> started) {
  ARROW_ASSIGN_OR_RAISE(arrow::AsyncRecordBatchGenerator stream, started.result());
  arrow::Status verdict = arrow::Status::OK();
  if (!stream.schema->Equals(*fixture.schema, /*check_metadata=*/true)) {
    verdict = arrow::Status::Invalid("the stream's schema ", stream.schema->ToString(true),
                                     " differs from the fixture's ", fixture.schema->ToString(true));
  }
  for (int64_t index = 0;; index++) {
    arrow::Result<arrow::RecordBatchWithMetadata> next = stream.generator().result();
    if (!next.ok()) {
      return verdict.ok() ? next.status().WithMessage("reading batch ", index, ": ", next.status().message())
                          : verdict;
    }
    if (arrow::IsIterationEnd(*next)) {
      if (verdict.ok() && index != static_cast<int64_t>(fixture.batches.size())) {
        verdict = arrow::Status::Invalid("the stream ended after ", index, " batches, the fixture has ",
                                         fixture.batches.size());
      }
      return verdict;
    }
    if (!verdict.ok()) continue;
    auto readable = adc_arrow_cpp::ReadableOnCpu(next->batch);
    verdict =
        readable.ok() ? adc_arrow_cpp::CompareWithFixture(fixture, index, **readable) : readable.status();
  }
}

}  // namespace

const char* ArrowCpp_CDeviceIntegration_ImportAsyncAndCompareToJson(const char* json_path,
                                                                    ArrowDeviceType device_type,
                                                                    ADC_AsyncProducerStart start,
                                                                    void* start_context) {
  (void)device_type;  // Arrow C++ learns the device from the producer.
  auto fixture = adc_arrow_cpp::LoadFixture(json_path);
  if (!fixture.ok()) return Report(fixture.status());

  ReleaseSignal signal;
  WatchedHandler watched = {};
  auto started = arrow::CreateAsyncDeviceStreamHandler(&watched.handler, arrow::internal::GetCpuThreadPool(),
                                                       /*queue_size=*/5, adc_arrow_cpp::MapDevice);
  watched.arrow_release = watched.handler.release;
  watched.signal = &signal;
  watched.handler.release = ReleaseAndSignal;

  if (const char* refused = start(start_context, &watched.handler)) {
    // Never handed over: the handler is still the adapter's to release.
    std::string message = std::string("the producer refused the handler: ") + refused;
    ReleaseAndSignal(&watched.handler);
    return Report(message);
  }
  arrow::Status verdict = ReadAndCompare(*fixture, std::move(started));
  std::unique_lock<std::mutex> lock(signal.mutex);
  signal.changed.wait(lock, [&signal] { return signal.released; });
  return Report(verdict);
}
