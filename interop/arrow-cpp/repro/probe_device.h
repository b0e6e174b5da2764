// A device of the reproduction's own: host memory that Arrow C++ must treat
// as a device's (is_cpu() false, ARROW_DEVICE_EXT_DEV), reached only
// through its MemoryManager's copies, as a GPU's is.  Each copy to the CPU
// waits on the buffer's device_sync_event() first, where it has one, as
// CudaMemoryManager::CopyNonOwnedTo (cuda_context.cc) does before its
// cuMemcpyDtoH, and is counted.  A program sets what its events do
// (WrapEvent) and reads what was copied (copies_to_cpu); a read of the
// memory that bypasses the copies is one a GPU's memory would not survive.
#ifndef ADC_ARROW_CPP_REPRO_PROBE_DEVICE_H
#define ADC_ARROW_CPP_REPRO_PROBE_DEVICE_H

#include <arrow/buffer.h>
#include <arrow/c/abi.h>
#include <arrow/device.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>

namespace repro {

struct ProbeDeviceLog {
  // Copies of the device's memory to the CPU, and those made before any
  // event of the device was waited on.
  int copies_to_cpu = 0;
  int copies_before_wait = 0;
  bool waited = false;
  // What the program's events are: by default one whose Wait() only notes
  // that it was waited on.
  std::function<std::shared_ptr<arrow::Device::SyncEvent>(void*, arrow::Device::SyncEvent::release_fn_t)>
      wrap_event;
};

inline ProbeDeviceLog& probe_log() {
  static ProbeDeviceLog log;
  return log;
}

class ProbeEvent : public arrow::Device::SyncEvent {
 public:
  ProbeEvent(void* event, release_fn_t release) : SyncEvent(event, std::move(release)) {}
  arrow::Status Wait() override {
    probe_log().waited = true;
    return arrow::Status::OK();
  }
  arrow::Status Record(const arrow::Device::Stream&) override {
    return arrow::Status::OK();
  }
};

class ProbeDevice : public arrow::Device {
 public:
  ProbeDevice() : arrow::Device(/*is_cpu=*/false) {}
  const char* type_name() const override {
    return "probe";
  }
  std::string ToString() const override {
    return "ProbeDevice()";
  }
  bool Equals(const arrow::Device& other) const override {
    return &other == this;
  }
  arrow::DeviceAllocationType device_type() const override {
    return arrow::DeviceAllocationType::kEXT_DEV;
  }
  std::shared_ptr<arrow::MemoryManager> default_memory_manager() override;
};

class ProbeMemory : public arrow::MemoryManager {
 public:
  explicit ProbeMemory(const std::shared_ptr<arrow::Device>& device) : MemoryManager(device) {}
  arrow::Result<std::shared_ptr<arrow::io::RandomAccessFile>> GetBufferReader(
      std::shared_ptr<arrow::Buffer>) override {
    return arrow::Status::NotImplemented("reader");
  }
  arrow::Result<std::shared_ptr<arrow::io::OutputStream>> GetBufferWriter(
      std::shared_ptr<arrow::Buffer>) override {
    return arrow::Status::NotImplemented("writer");
  }
  arrow::Result<std::unique_ptr<arrow::Buffer>> AllocateBuffer(int64_t) override {
    return arrow::Status::NotImplemented("allocate");
  }
  arrow::Result<std::shared_ptr<arrow::Device::SyncEvent>> WrapDeviceSyncEvent(
      void* event, arrow::Device::SyncEvent::release_fn_t release) override {
    if (probe_log().wrap_event) return probe_log().wrap_event(event, std::move(release));
    return std::make_shared<ProbeEvent>(event, std::move(release));
  }

 protected:
  arrow::Result<std::shared_ptr<arrow::Buffer>> CopyBufferTo(
      const std::shared_ptr<arrow::Buffer>& buffer,
      const std::shared_ptr<arrow::MemoryManager>& to) override {
    return CopyNonOwnedTo(*buffer, to);
  }
  // A copy engine's read of device memory: what the memory holds now.
  arrow::Result<std::unique_ptr<arrow::Buffer>> CopyNonOwnedTo(
      const arrow::Buffer& buffer, const std::shared_ptr<arrow::MemoryManager>& to) override {
    if (!to->is_cpu()) return nullptr;
    if (auto event = buffer.device_sync_event()) ARROW_RETURN_NOT_OK(event->Wait());
    probe_log().copies_to_cpu++;
    if (!probe_log().waited) probe_log().copies_before_wait++;
    ARROW_ASSIGN_OR_RAISE(auto copy, to->AllocateBuffer(buffer.size()));
    std::memcpy(copy->mutable_data(), reinterpret_cast<const void*>(buffer.address()), buffer.size());
    return copy;
  }
};

inline std::shared_ptr<arrow::MemoryManager> ProbeDevice::default_memory_manager() {
  static auto memory =
      std::make_shared<ProbeMemory>(std::shared_ptr<arrow::Device>(this, [](arrow::Device*) {}));
  return memory;
}

inline ProbeDevice& probe_device() {
  static ProbeDevice device;
  return device;
}

// The import's mapper of ImportDeviceRecordBatch: every device is the probe.
inline arrow::Result<std::shared_ptr<arrow::MemoryManager>> ProbeMapper(ArrowDeviceType, int64_t) {
  return probe_device().default_memory_manager();
}

// A buffer of `size` bytes at `address` on the probe device.
inline std::shared_ptr<arrow::Buffer> ProbeBuffer(const void* address, int64_t size) {
  return std::make_shared<arrow::Buffer>(reinterpret_cast<uint64_t>(address), size,
                                         probe_device().default_memory_manager());
}

}  // namespace repro

#endif  // ADC_ARROW_CPP_REPRO_PROBE_DEVICE_H
