// The device entry points of the plugin ABI (include/adc/plugin_abi.h) for
// nanoarrow, written against nanoarrow's public C API alone:
//   - export: the JSON file read by nanoarrow's integration reader
//     (nanoarrow::testing::TestingJSONReader), wrapped as a device array with
//     ArrowDeviceArrayInit on the CPU, or copied to another device with
//     ArrowDeviceArrayViewCopy; a stream is ArrowDeviceBasicArrayStreamInit
//     over the reader's stream (on CUDA, over the reader's batches copied to
//     the device);
//   - import: ArrowDeviceArrayViewSetArray, then ArrowDeviceArrayViewCopy to
//     the CPU (which waits on the array's sync_event through the device's
//     synchronize_event), compared with the file by nanoarrow's integration
//     comparison (nanoarrow::testing::TestingJSONComparison) with the options
//     nanoarrow's own C Data integration library uses.
// The devices are nanoarrow's own (the CPU; CUDA and CUDA_HOST through its
// CUDA device, cuda.c, where libnanoarrow.so was built with it) and the
// simulated device (simulated_device.c).
// nanoarrow has no async interface: the async entry points are absent, and
// the harness reports their rules not_supported.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "adapter.h"
#include "adc/plugin_abi.h"
#include "nanoarrow/nanoarrow.hpp"
#include "nanoarrow/nanoarrow_testing.hpp"

#define ADC_NANOARROW_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// The message an entry point returns: "valid until its next call".
std::string last_message;

const char* Outcome(ArrowErrorCode status, const ArrowError& error) {
  if (status == NANOARROW_OK) return nullptr;
  last_message = error.message[0] != '\0' ? error.message : std::strerror(status);
  return last_message.c_str();
}

// The file's batches (all of them, one, or none: kNumBatchReadAll,
// a batch's index, kNumBatchOnlySchema) as a stream of CPU arrays.
ArrowErrorCode ReadJsonFile(const char* json_path, int num_batch, ArrowArrayStream* out, ArrowError* error) {
  std::ifstream file(json_path, std::ios::binary);
  if (!file) {
    ArrowErrorSet(error, "cannot open '%s'", json_path);
    return EINVAL;
  }
  std::stringstream contents;
  contents << file.rdbuf();
  nanoarrow::testing::TestingJSONReader reader(adc_nanoarrow_counting_allocator());
  return reader.ReadDataFile(contents.str(), out, num_batch, error);
}

// The file read once: its schema and its batches (all of them, or the one
// asked for), as nanoarrow's own integration library materialises a file.
struct Fixture {
  nanoarrow::UniqueSchema schema;
  std::vector<nanoarrow::UniqueArray> batches;
};

ArrowErrorCode ReadFixture(const char* json_path, int num_batch, Fixture* out, ArrowError* error) {
  nanoarrow::UniqueArrayStream stream;
  NANOARROW_RETURN_NOT_OK(ReadJsonFile(json_path, num_batch, stream.get(), error));
  NANOARROW_RETURN_NOT_OK(ArrowArrayStreamGetSchema(stream.get(), out->schema.get(), error));
  for (;;) {
    nanoarrow::UniqueArray batch;
    NANOARROW_RETURN_NOT_OK(ArrowArrayStreamGetNext(stream.get(), batch.get(), error));
    if (batch->release == nullptr) return NANOARROW_OK;
    out->batches.push_back(std::move(batch));
  }
}

// The file's schema and its batch `num_batch`, which must exist.
ArrowErrorCode ReadOneBatch(const char* json_path, int num_batch, Fixture* out, ArrowError* error) {
  if (num_batch < 0) {
    ArrowErrorSet(error, "batch %d does not exist", num_batch);
    return EINVAL;
  }
  NANOARROW_RETURN_NOT_OK(ReadFixture(json_path, num_batch, out, error));
  if (out->batches.size() != 1) {
    ArrowErrorSet(error, "'%s' has no batch %d", json_path, num_batch);
    return EINVAL;
  }
  return NANOARROW_OK;
}

bool IsCuda(ArrowDeviceType device_type) {
  return device_type == ARROW_DEVICE_CUDA || device_type == ARROW_DEVICE_CUDA_HOST;
}

ArrowDevice* DeviceOrError(ArrowDeviceType device_type, int64_t device_id, ArrowError* error) {
  ArrowDevice* device = adc_nanoarrow_device(device_type, device_id);
  if (device != nullptr) return device;
#ifdef ADC_NANOARROW_WITH_CUDA
  if (IsCuda(device_type)) {
    ArrowErrorSet(error, "nanoarrow's CUDA device has no device %lld: %s", static_cast<long long>(device_id),
                  adc_nanoarrow_cuda_unavailable(device_id));
    return nullptr;
  }
#endif
  ArrowErrorSet(error,
                "the nanoarrow adapter serves no device of type %d and id %lld (it serves the CPU, the "
                "simulated device, and CUDA and CUDA_HOST where libnanoarrow.so has nanoarrow's CUDA device)",
                static_cast<int>(device_type), static_cast<long long>(device_id));
  return nullptr;
}

// The stream nanoarrow's copies between `from` and `to` run on: its CUDA
// device copies only on one (its buffer_init and buffer_copy return EINVAL
// for none), and the adapter gives it the legacy default stream (a
// CUstream of 0), as a program with no stream of its own would; the other
// devices take none.
void* StreamFor(const ArrowDevice* from, const ArrowDevice* to) {
  static void* legacy_default_stream = nullptr;
  return IsCuda(from->device_type) || IsCuda(to->device_type) ? &legacy_default_stream : nullptr;
}

// A view of `array` on `device`.  nanoarrow's ArrowDeviceArrayViewSetArray
// finds the device with ArrowDeviceResolve, which knows only nanoarrow's own
// devices; for the simulated device the adapter takes the same three steps
// (ArrowDeviceArrayViewSetArrayMinimal's) with its own ArrowDevice.  Buffer
// sizes nanoarrow must read from the device are read by
// ArrowDeviceArrayViewCopy; elsewhere nanoarrow reads them here, on
// StreamFor's stream (its CUDA device reads none without one).
ArrowErrorCode SetView(ArrowDeviceArrayView* view, ArrowDevice* device, ArrowDeviceArray* array,
                       ArrowError* error) {
  if (device == adc_nanoarrow_simulated_device()) {
    view->device = device;
    NANOARROW_RETURN_NOT_OK(ArrowArrayViewSetArrayMinimal(&view->array_view, &array->array, error));
    view->sync_event = array->sync_event;
    return NANOARROW_OK;
  }
  return ArrowDeviceArrayViewSetArrayAsync(view, array, StreamFor(device, device), error);
}

// `array` (on its device) copied to `destination` by nanoarrow's device API
// (ArrowDeviceArrayViewCopy), as a producer places data on a device and a
// consumer brings it to the CPU.
ArrowErrorCode CopyToDevice(const ArrowSchema* schema, ArrowDeviceArray* array, ArrowDevice* destination,
                            ArrowDeviceArray* out, ArrowError* error) {
  ArrowDevice* device = DeviceOrError(array->device_type, array->device_id, error);
  if (device == nullptr) return EINVAL;
  ArrowDeviceArrayView view;
  ArrowDeviceArrayViewInit(&view);
  ArrowErrorCode status = ArrowArrayViewInitFromSchema(&view.array_view, schema, error);
  if (status == NANOARROW_OK) status = SetView(&view, device, array, error);
  ArrowDeviceArray copy;
  if (status == NANOARROW_OK) {
    status = ArrowDeviceArrayViewCopyAsync(&view, destination, &copy, StreamFor(device, destination));
    if (status != NANOARROW_OK)
      ArrowErrorSet(error, "ArrowDeviceArrayViewCopy failed (%s)", std::strerror(status));
  }
  ArrowDeviceArrayViewReset(&view);
  if (status == NANOARROW_OK) ArrowDeviceArrayMove(&copy, out);
  return status;
}

// The comparison's differences as the error, as nanoarrow's own C Data
// integration library reports them.
ArrowErrorCode Differences(nanoarrow::testing::TestingJSONComparison& comparison, ArrowError* error) {
  if (comparison.num_differences() == 0) return NANOARROW_OK;
  std::stringstream differences;
  comparison.WriteDifferences(differences);
  ArrowErrorSet(error, "Found %d differences:\n%s", static_cast<int>(comparison.num_differences()),
                differences.str().c_str());
  return EINVAL;
}

// The options of nanoarrow's own C Data integration library (its
// SetComparisonOptions), so that the CPU and device paths judge alike.
void SetComparisonOptions(nanoarrow::testing::TestingJSONComparison& comparison) {
  comparison.set_compare_batch_flags(false);
  comparison.set_compare_float_precision(3);
  comparison.set_compare_metadata_order(false);
}

ArrowErrorCode CompareSchema(const ArrowSchema* actual, const ArrowSchema* expected, ArrowError* error) {
  nanoarrow::testing::TestingJSONComparison comparison;
  SetComparisonOptions(comparison);
  NANOARROW_RETURN_NOT_OK(comparison.CompareSchema(actual, expected, error));
  return Differences(comparison, error);
}

// The device array (owned by the caller) read on the CPU and compared with
// the file's batch `expected`.
ArrowErrorCode CompareDeviceBatch(const ArrowSchema* schema, ArrowDeviceArray* array,
                                  const ArrowArray* expected, ArrowError* error) {
  ArrowDeviceArray on_cpu;
  NANOARROW_RETURN_NOT_OK(CopyToDevice(schema, array, ArrowDeviceCpu(), &on_cpu, error));
  nanoarrow::UniqueArray actual(&on_cpu.array);
  nanoarrow::testing::TestingJSONComparison comparison;
  SetComparisonOptions(comparison);
  NANOARROW_RETURN_NOT_OK(comparison.SetSchema(schema, error));
  NANOARROW_RETURN_NOT_OK(comparison.CompareBatch(actual.get(), expected, error));
  return Differences(comparison, error);
}

// Releases a device array it holds, whatever happens (an Import takes
// ownership of its input: plugin ABI).
struct HeldDeviceArray {
  ArrowDeviceArray array;
  explicit HeldDeviceArray(ArrowDeviceArray* from) {
    ArrowDeviceArrayMove(from, &array);
  }
  ~HeldDeviceArray() {
    if (array.array.release != nullptr) ArrowArrayRelease(&array.array);
  }
};

ArrowErrorCode ExportDeviceBatch(const char* json_path, int num_batch, ArrowDeviceType device_type,
                                 int64_t device_id, ArrowDeviceArray* out, ArrowError* error) {
  ArrowDevice* device = DeviceOrError(device_type, device_id, error);
  if (device == nullptr) return ENOTSUP;
  Fixture fixture;
  NANOARROW_RETURN_NOT_OK(ReadOneBatch(json_path, num_batch, &fixture, error));
  ArrowDeviceArray on_cpu;
  NANOARROW_RETURN_NOT_OK(ArrowDeviceArrayInit(ArrowDeviceCpu(), &on_cpu, fixture.batches[0].get(), nullptr));
  if (device == ArrowDeviceCpu()) {
    ArrowDeviceArrayMove(&on_cpu, out);
    return NANOARROW_OK;
  }
  // Elsewhere, nanoarrow copies the CPU batch to the device, as a producer
  // holding its data on the CPU would.
  HeldDeviceArray held(&on_cpu);
  return CopyToDevice(fixture.schema.get(), &held.array, device, out, error);
}

// A stream in place of another, `inner`, which it owns: `Wrapper` (which
// derives from it) gives get_next; get_schema is the inner stream's,
// get_last_error the wrapper's own `failure` or else the inner stream's,
// and release releases both.
template <typename Wrapper>
struct WrappedStream {
  ArrowArrayStream inner;
  std::string failure;

  static Wrapper* Of(ArrowArrayStream* stream) {
    return static_cast<Wrapper*>(stream->private_data);
  }
  static int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
    return Of(stream)->inner.get_schema(&Of(stream)->inner, out);
  }
  static const char* GetLastError(ArrowArrayStream* stream) {
    Wrapper* self = Of(stream);
    return self->failure.empty() ? self->inner.get_last_error(&self->inner) : self->failure.c_str();
  }
  static void Release(ArrowArrayStream* stream) {
    Wrapper* self = Of(stream);
    self->inner.release(&self->inner);
    delete self;
    stream->release = nullptr;
  }
  // Moves `stream` into `wrapper` as its inner stream and puts the wrapper
  // in its place.
  static void Wrap(ArrowArrayStream* stream, Wrapper* wrapper) {
    ArrowArrayStreamMove(stream, &wrapper->inner);
    stream->get_schema = GetSchema;
    stream->get_next = Wrapper::GetNext;
    stream->get_last_error = GetLastError;
    stream->release = Release;
    stream->private_data = wrapper;
  }
};

// The reader's stream, failing with EIO at the get_next call that would
// return batch `fail_at_batch` (ExportFailingDeviceStreamFromJson).
struct FailingStream : WrappedStream<FailingStream> {
  int fail_at_batch = -1;
  int next_batch = 0;

  static int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
    FailingStream* self = Of(stream);
    if (self->next_batch == self->fail_at_batch) {
      self->failure = "batch " + std::to_string(self->fail_at_batch) + " failed, as the harness asked";
      return EIO;
    }
    int status = self->inner.get_next(&self->inner, out);
    if (status == NANOARROW_OK) self->next_batch++;
    return status;
  }
};

// The reader's batches copied to a CUDA device as they are asked for: the
// basic stream labels the arrays it is given as the device's, and CUDA's
// memory is not the reader's host memory.  Each copy (ArrowDeviceArrayViewCopy,
// as ExportDeviceBatch makes) is waited on, then handed on as a plain
// ArrowArray for ArrowDeviceBasicArrayStreamInit to label, with no event;
// its release frees the device buffers and the event.  An error, and the
// end of the stream, are handed on as the reader gives them: the released
// end goes to the CUDA device's array_init, as in any program that streams
// CPU batches through the basic stream (CONFORMANCE.md, N3).
struct CopiedToDevice : WrappedStream<CopiedToDevice> {
  ArrowDevice* device = nullptr;
  nanoarrow::UniqueSchema schema;

  static int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
    CopiedToDevice* self = Of(stream);
    ArrowArray batch;
    int status = self->inner.get_next(&self->inner, &batch);
    if (status != NANOARROW_OK) return status;
    if (batch.release == nullptr) {
      *out = batch;
      return NANOARROW_OK;
    }
    ArrowDeviceArray on_cpu;
    ArrowDeviceArrayInit(ArrowDeviceCpu(), &on_cpu, &batch, nullptr);
    HeldDeviceArray held(&on_cpu);
    ArrowDeviceArray copied;
    ArrowError error{};
    status = CopyToDevice(self->schema.get(), &held.array, self->device, &copied, &error);
    if (status != NANOARROW_OK) {
      self->failure = error.message;
      return status;
    }
    HeldDeviceArray on_device(&copied);
    status = self->device->synchronize_event(self->device, on_device.array.sync_event, nullptr, &error);
    if (status != NANOARROW_OK) {
      self->failure = std::string("waiting on the copy's event: ") + error.message;
      return status;
    }
    ArrowArrayMove(&on_device.array.array, out);
    return NANOARROW_OK;
  }
};

// Replaces `batches` by a stream of its batches copied to `device`.
ArrowErrorCode CopyStreamToDevice(ArrowArrayStream* batches, ArrowDevice* device, ArrowError* error) {
  CopiedToDevice* copied = new CopiedToDevice{};
  copied->device = device;
  CopiedToDevice::Wrap(batches, copied);
  return ArrowArrayStreamGetSchema(&copied->inner, copied->schema.get(), error);
}

ArrowErrorCode ExportDeviceStream(const char* json_path, ArrowDeviceType device_type, int64_t device_id,
                                  int fail_at_batch, ArrowDeviceArrayStream* out, ArrowError* error) {
  ArrowDevice* device = DeviceOrError(device_type, device_id, error);
  if (device == nullptr) return ENOTSUP;
  nanoarrow::UniqueArrayStream batches;
  NANOARROW_RETURN_NOT_OK(
      ReadJsonFile(json_path, nanoarrow::testing::TestingJSONReader::kNumBatchReadAll, batches.get(), error));
  if (fail_at_batch >= 0) {
    FailingStream* failing = new FailingStream{};
    failing->fail_at_batch = fail_at_batch;
    FailingStream::Wrap(batches.get(), failing);
  }
  // The basic stream labels the reader's arrays as the device's: host
  // memory, which the simulated device's memory is; CUDA's is not.
  if (IsCuda(device_type)) NANOARROW_RETURN_NOT_OK(CopyStreamToDevice(batches.get(), device, error));
  NANOARROW_RETURN_NOT_OK(ArrowDeviceBasicArrayStreamInit(out, batches.get(), device));
  return NANOARROW_OK;
}

ArrowErrorCode ImportDeviceStream(const char* json_path, ArrowDeviceArrayStream* stream, ArrowError* error) {
  if (stream->release == nullptr) {
    ArrowErrorSet(error, "the stream handed over is already released");
    return EINVAL;
  }
  ArrowDeviceArrayStream held = *stream;  // spec: "Moving an array" (a stream moves the same way)
  stream->release = nullptr;
  struct Release {
    ArrowDeviceArrayStream* stream;
    ~Release() {
      stream->release(stream);
    }
  } release_at_end{&held};

  nanoarrow::UniqueSchema schema;
  int status = held.get_schema(&held, schema.get());
  if (status != 0) {
    const char* message = held.get_last_error(&held);
    ArrowErrorSet(error, "get_schema failed (%d): %s", status, message ? message : "(no message)");
    return status;
  }
  Fixture fixture;
  NANOARROW_RETURN_NOT_OK(
      ReadFixture(json_path, nanoarrow::testing::TestingJSONReader::kNumBatchReadAll, &fixture, error));
  NANOARROW_RETURN_NOT_OK(CompareSchema(schema.get(), fixture.schema.get(), error));
  const int expected_batches = static_cast<int>(fixture.batches.size());
  for (int index = 0;; index++) {
    ArrowDeviceArray next;
    std::memset(&next, 0, sizeof next);
    status = held.get_next(&held, &next);
    if (status != 0) {
      const char* message = held.get_last_error(&held);
      ArrowErrorSet(error, "get_next failed (%d) at batch %d: %s", status, index,
                    message ? message : "(no message)");
      return status;
    }
    // spec: get_next: "If the embedded ArrowDeviceArray.array is released,
    // then the end of the stream has been reached."
    if (next.array.release == nullptr) {
      if (index != expected_batches) {
        ArrowErrorSet(error, "the stream ended after %d batches, the file has %d", index, expected_batches);
        return EINVAL;
      }
      return NANOARROW_OK;
    }
    HeldDeviceArray batch(&next);
    if (index >= expected_batches) {
      ArrowErrorSet(error, "the stream has more than the file's %d batches", expected_batches);
      return EINVAL;
    }
    NANOARROW_RETURN_NOT_OK(
        CompareDeviceBatch(schema.get(), &batch.array, fixture.batches[index].get(), error));
  }
}

}  // namespace

ADC_NANOARROW_EXPORT const char* nanoarrow_CDeviceIntegration_ExportDeviceBatchFromJson(
    const char* json_path, int num_batch, ArrowDeviceType device_type, int64_t device_id,
    ArrowDeviceArray* out) {
  ArrowError error{};
  return Outcome(ExportDeviceBatch(json_path, num_batch, device_type, device_id, out, &error), error);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_CDeviceIntegration_ImportDeviceBatchAndCompareToJson(
    const char* json_path, int num_batch, ArrowDeviceArray* batch) {
  HeldDeviceArray held(batch);
  ArrowError error{};
  Fixture fixture;
  ArrowErrorCode status = ReadOneBatch(json_path, num_batch, &fixture, &error);
  if (status == NANOARROW_OK)
    status = CompareDeviceBatch(fixture.schema.get(), &held.array, fixture.batches[0].get(), &error);
  return Outcome(status, error);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_CDeviceIntegration_ExportDeviceStreamFromJson(
    const char* json_path, ArrowDeviceType device_type, int64_t device_id, ArrowDeviceArrayStream* out) {
  ArrowError error{};
  return Outcome(ExportDeviceStream(json_path, device_type, device_id, -1, out, &error), error);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_CDeviceIntegration_ExportFailingDeviceStreamFromJson(
    const char* json_path, ArrowDeviceType device_type, int64_t device_id, int fail_at_batch,
    ArrowDeviceArrayStream* out) {
  ArrowError error{};
  return Outcome(ExportDeviceStream(json_path, device_type, device_id, fail_at_batch, out, &error), error);
}

ADC_NANOARROW_EXPORT const char* nanoarrow_CDeviceIntegration_ImportDeviceStreamAndCompareToJson(
    const char* json_path, ArrowDeviceArrayStream* stream) {
  ArrowError error{};
  return Outcome(ImportDeviceStream(json_path, stream, &error), error);
}
