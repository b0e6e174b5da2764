// F3: Arrow C++'s async producer (ExportAsyncRecordBatchReader, AsyncProducer
// in bridge.cc) takes request(0) silently.
//
// spec (C Device Data Interface, ArrowAsyncProducer.request): "It is invalid
// to call this function with a value of n that is <= 0. Producers should
// error (e.g. call on_error) if receiving such a value for n."
//
// AsyncProducer::request adds n to its pending requests, whatever n is.
#include "async_export.h"

int main() {
  repro::RecordingHandler recorder;
  repro::AsyncExport exporter;
  ArrowAsyncProducer* producer = exporter.StartUntilSchema(&recorder);
  if (producer == nullptr) return 2;
  producer->request(producer, 0);
  // The only bound in this program: how long to wait for an error that a
  // conforming producer reports at once.
  bool reported = recorder.WaitFor("on_error", 1.0);
  if (!reported) producer->request(producer, 10);  // let the stream end
  recorder.WaitFor("release", 10);
  std::printf("spec: request(n) with n <= 0 is invalid; \"Producers should error (e.g. call on_error)\".\n");
  return reported
             ? repro::NotReproduced("F3", "request(0) was answered: " + recorder.Calls())
             : repro::Reproduced("F3", "request(0) was taken silently (no on_error within 1 s); calls: " +
                                           recorder.Calls());
}
