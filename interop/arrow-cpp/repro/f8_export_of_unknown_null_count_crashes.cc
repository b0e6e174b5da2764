// F8: ExportDeviceRecordBatch of a batch on a device other than the CPU
// whose null count is unknown (-1) crashes: it computes the count by reading
// the validity bitmap on the host, through a pointer a device's buffer does
// not give.
//
// spec (C Device Data Interface, ArrowDeviceArray.array): "The values in the
// void** buffers (along with the buffers of any children) are what is
// allocated on the device. The buffer values should be device pointers. The
// rest of the structure should be accessible to the CPU."  And
// ArrowArray.null_count (C Data Interface): "MAY be -1 if not yet computed":
// the exporter may hand -1 on.
//
// bridge.cc: ArrayExporter::Export sets `export_.null_count_ =
// data->GetNullCount()` ("Force computing null count"); ArrayData's
// GetNullCount counts the set bits at buffers[0]->data(), which a buffer
// not on the CPU gives as NULL (Buffer::data()), so CountSetBits reads
// address 0.  A batch imported from a device array whose null_count is -1
// (ImportDeviceRecordBatch keeps it unknown) cannot be exported again
// (the harness's round trip met it on its simulated device:
// consumer.null_count.unknown_handled crashed in CountSetBits).  The batch
// below is on this program's device (probe_device.h), exported in a child
// process, whose death by SIGSEGV is the finding.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include "probe_device.h"
#include "repro.h"

namespace {

// The export, in the child: exits 0 where it returned, 3 where it failed.
[[noreturn]] void ExportInChild() {
  // Eight rows of an int32 column on the device, rows 1 and 6 null.
  static const uint8_t validity[1] = {0xBD};
  static const int32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  auto column = arrow::ArrayData::Make(arrow::int32(), 8,
                                       {repro::ProbeBuffer(validity, 1), repro::ProbeBuffer(values, 32)},
                                       arrow::kUnknownNullCount);
  auto batch = arrow::RecordBatch::Make(arrow::schema({arrow::field("a", arrow::int32())}), 8,
                                        std::vector<std::shared_ptr<arrow::ArrayData>>{column});
  ArrowDeviceArray out;
  arrow::Status exported = arrow::ExportDeviceRecordBatch(*batch, nullptr, &out, nullptr);
  if (exported.ok()) ArrowArrayRelease(&out.array);
  _exit(exported.ok() ? 0 : 3);
}

}  // namespace

int main() {
  std::fflush(stdout);
  pid_t child = fork();
  if (child < 0) return repro::SetupFailed(arrow::Status::IOError("fork failed"));
  if (child == 0) ExportInChild();
  int status = 0;
  if (waitpid(child, &status, 0) != child)
    return repro::SetupFailed(arrow::Status::IOError("waitpid failed"));
  std::printf(
      "spec: \"The buffer values should be device pointers. The rest of the structure should be accessible\n"
      "      to the CPU.\"; null_count \"MAY be -1 if not yet computed\".\n");
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) {
    return repro::Reproduced(
        "F8",
        "ExportDeviceRecordBatch of an int32 column on a non-CPU device with null_count -1 "
        "died of SIGSEGV (GetNullCount reading the validity bitmap on the host)");
  }
  return repro::NotReproduced("F8", WIFEXITED(status) && WEXITSTATUS(status) == 0
                                        ? "the export returned"
                                        : "the export failed without a crash (exit " +
                                              std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                              ")");
}
