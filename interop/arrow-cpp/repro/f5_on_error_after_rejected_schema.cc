// F5: after a consumer's on_schema returned non-zero, Arrow C++'s async
// producer calls on_error before release; its message carries 1, not the
// code the consumer returned.
//
// spec (C Device Data Interface, ArrowAsyncDeviceStreamHandler.on_schema):
// "A producer that receives a non-zero result here must not subsequently
// call anything other than the release callback on this object."
//
// AsyncProducer's constructor: `if (int status = handler_->on_schema(handler_,
// schema) != 0)` stores an error (status is the comparison, 1), which the
// export reports with on_error.
#include <cerrno>

#include "async_export.h"

int main() {
  repro::RecordingHandler recorder;
  recorder.on_schema_result = EINVAL;
  repro::AsyncExport exporter;
  if (!exporter.Start(&recorder)) return 2;
  if (!recorder.WaitFor("release", 10)) return repro::SetupFailed(arrow::Status::IOError("no release"));
  std::printf(
      "spec: after a non-zero on_schema the producer \"must not subsequently call anything other than\n"
      "      the release callback\"; the consumer returned EINVAL (%d).\n",
      EINVAL);
  return recorder.Saw("on_error") ? repro::Reproduced("F5", "calls: " + recorder.Calls())
                                  : repro::NotReproduced("F5", "calls: " + recorder.Calls());
}
