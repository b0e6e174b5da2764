// F4: Arrow C++'s async producer answers a consumer's cancel() with on_error.
//
// spec (C Device Data Interface, ArrowAsyncProducer.cancel): "Successful
// cancelling MUST NOT result in a producer calling on_error, instead it
// should finish out any remaining tasks (calling on_next_task accordingly)
// and eventually just call release."
//
// AsyncProducer::cancel stores Status::Cancelled("Consumer requested
// cancellation") as the producer's error, which the export then reports with
// on_error.
#include "async_export.h"

int main() {
  repro::RecordingHandler recorder;
  repro::AsyncExport exporter;
  ArrowAsyncProducer* producer = exporter.StartUntilSchema(&recorder);
  if (producer == nullptr) return 2;
  producer->request(producer, 1);
  if (!recorder.WaitFor("on_next_task", 10)) return repro::SetupFailed(arrow::Status::IOError("no task"));
  producer->cancel(producer);
  if (!recorder.WaitFor("release", 10)) return repro::SetupFailed(arrow::Status::IOError("no release"));
  std::printf("spec: \"Successful cancelling MUST NOT result in a producer calling on_error\".\n");
  return recorder.Saw("on_error") ? repro::Reproduced("F4", "after cancel(): " + recorder.Calls())
                                  : repro::NotReproduced("F4", "after cancel(): " + recorder.Calls());
}
