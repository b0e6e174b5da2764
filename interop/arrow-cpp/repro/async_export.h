// The producer side of F3, F4 and F5: Arrow C++'s ExportAsyncRecordBatchReader
// over three int32 batches, driving a RecordingHandler on a thread of its own
// (the export waits for the consumer's requests in the thread that calls it).
#ifndef ADC_ARROW_CPP_REPRO_ASYNC_EXPORT_H
#define ADC_ARROW_CPP_REPRO_ASYNC_EXPORT_H

#include <arrow/util/async_generator.h>

#include <thread>

#include "repro.h"

namespace repro {

class AsyncExport {
 public:
  // Starts the export; false (with the status printed) if the batches
  // cannot be made.
  bool Start(RecordingHandler* recorder) {
    arrow::RecordBatchVector batches;
    for (int32_t i = 0; i < 3; i++) {
      auto batch = Int32Batch({i, i + 1});
      if (!batch.ok()) {
        SetupFailed(batch.status());
        return false;
      }
      batches.push_back(*batch);
    }
    auto schema = batches[0]->schema();
    thread_ = std::thread([schema, batches, recorder]() {
      arrow::ExportAsyncRecordBatchReader(schema, arrow::MakeVectorGenerator(batches),
                                          arrow::DeviceAllocationType::kCPU, &recorder->handler)
          .Wait();
    });
    return true;
  }
  // Starts the export and waits for on_schema: the producer the handler was
  // given, or NULL (with the failure printed).
  ArrowAsyncProducer* StartUntilSchema(RecordingHandler* recorder) {
    if (!Start(recorder)) return nullptr;
    if (!recorder->WaitFor("on_schema", 10)) {
      SetupFailed(arrow::Status::IOError("no on_schema within 10 s"));
      return nullptr;
    }
    return recorder->handler.producer;
  }
  ~AsyncExport() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread thread_;
};

}  // namespace repro

#endif  // ADC_ARROW_CPP_REPRO_ASYNC_EXPORT_H
