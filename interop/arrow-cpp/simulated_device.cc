// The simulated device (include/adc/simulated_device.h) as an Arrow C++
// device, and the device glue of devices.h.
//
// Its memory is host memory, but it is presented to Arrow C++ as a device's
// (is_cpu false, no views): Arrow C++ then reaches it only through the
// device's copies, as it would a GPU's, and its device code paths are the
// ones that run.  A copy reads the bytes as they are at that moment, like a
// GPU copy engine not ordered after the producer's stream, so reading before
// waiting on the sync_event is visible.
#include <algorithm>
#include <cstring>

#include "adc/simulated_device.h"
#include "devices.h"

namespace adc_arrow_cpp {

namespace {

// ARROW_DEVICE_EXT_DEV, device_id 0 (simulated_device.h).
class SimulatedDevice : public arrow::Device {
 public:
  SimulatedDevice() : arrow::Device(/*is_cpu=*/false) {}
  const char* type_name() const override {
    return "adc_simulated";
  }
  std::string ToString() const override {
    return "SimulatedDevice()";
  }
  bool Equals(const arrow::Device& other) const override {
    return dynamic_cast<const SimulatedDevice*>(&other) != nullptr;
  }
  int64_t device_id() const override {
    return ADC_SIMULATED_DEVICE_ID;
  }
  arrow::DeviceAllocationType device_type() const override {
    return static_cast<arrow::DeviceAllocationType>(ADC_SIMULATED_DEVICE_TYPE);
  }
  std::shared_ptr<arrow::MemoryManager> default_memory_manager() override;
};

// An adc_simulated_event: wrapped (the producer owns it) or made here (owned
// through the release function).
class SimulatedSyncEvent : public arrow::Device::SyncEvent {
 public:
  SimulatedSyncEvent(void* event, release_fn_t release) : SyncEvent(event, std::move(release)) {}
  arrow::Status Wait() override {
    adc_simulated_event_wait(static_cast<struct adc_simulated_event*>(get_raw()));
    return arrow::Status::OK();
  }
  arrow::Status Record(const arrow::Device::Stream&) override {
    return arrow::Status::NotImplemented("the simulated device has no streams");
  }
};

class SimulatedMemoryManager : public arrow::MemoryManager {
 public:
  explicit SimulatedMemoryManager(const std::shared_ptr<arrow::Device>& device) : MemoryManager(device) {}

  arrow::Result<std::shared_ptr<arrow::io::RandomAccessFile>> GetBufferReader(
      std::shared_ptr<arrow::Buffer>) override {
    return arrow::Status::NotImplemented("no readers on the simulated device");
  }
  arrow::Result<std::shared_ptr<arrow::io::OutputStream>> GetBufferWriter(
      std::shared_ptr<arrow::Buffer>) override {
    return arrow::Status::NotImplemented("no writers on the simulated device");
  }

  // Host memory from Arrow C++'s default pool, presented as the device's.
  arrow::Result<std::unique_ptr<arrow::Buffer>> AllocateBuffer(int64_t size) override {
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> host, arrow::AllocateBuffer(size));
    const uint8_t* data = host->data();
    return std::make_unique<arrow::Buffer>(data, size, shared_from_this(), std::move(host));
  }

  arrow::Result<std::shared_ptr<arrow::Device::SyncEvent>> MakeDeviceSyncEvent() override {
    auto* event = new struct adc_simulated_event;
    if (adc_simulated_event_init(event) != 0) {
      delete event;
      return arrow::Status::IOError("cannot make a simulated event");
    }
    return std::make_shared<SimulatedSyncEvent>(event, [](void* raw) {
      auto* owned = static_cast<struct adc_simulated_event*>(raw);
      adc_simulated_event_destroy(owned);
      delete owned;
    });
  }
  arrow::Result<std::shared_ptr<arrow::Device::SyncEvent>> WrapDeviceSyncEvent(
      void* sync_event, arrow::Device::SyncEvent::release_fn_t release) override {
    return std::make_shared<SimulatedSyncEvent>(sync_event, std::move(release));
  }

 protected:
  arrow::Result<std::shared_ptr<arrow::Buffer>> CopyBufferFrom(
      const std::shared_ptr<arrow::Buffer>& buf, const std::shared_ptr<arrow::MemoryManager>& from) override {
    return CopyNonOwnedFrom(*buf, from);
  }
  arrow::Result<std::shared_ptr<arrow::Buffer>> CopyBufferTo(
      const std::shared_ptr<arrow::Buffer>& buf, const std::shared_ptr<arrow::MemoryManager>& to) override {
    return CopyNonOwnedTo(*buf, to);
  }
  arrow::Result<std::unique_ptr<arrow::Buffer>> CopyNonOwnedFrom(
      const arrow::Buffer& buf, const std::shared_ptr<arrow::MemoryManager>& from) override {
    if (!from->is_cpu() && from.get() != this) return nullptr;
    ARROW_ASSIGN_OR_RAISE(auto copy, AllocateBuffer(buf.size()));
    if (buf.size() > 0)
      std::memcpy(reinterpret_cast<void*>(copy->address()), reinterpret_cast<const void*>(buf.address()),
                  buf.size());
    return copy;
  }
  arrow::Result<std::unique_ptr<arrow::Buffer>> CopyNonOwnedTo(
      const arrow::Buffer& buf, const std::shared_ptr<arrow::MemoryManager>& to) override {
    if (!to->is_cpu()) return nullptr;
    ARROW_ASSIGN_OR_RAISE(auto copy, to->AllocateBuffer(buf.size()));
    if (buf.size() > 0)
      std::memcpy(copy->mutable_data(), reinterpret_cast<const void*>(buf.address()), buf.size());
    return copy;
  }
};

std::shared_ptr<SimulatedDevice> SimulatedInstance() {
  static auto device = std::make_shared<SimulatedDevice>();
  return device;
}

std::shared_ptr<arrow::MemoryManager> SimulatedMemory() {
  static auto manager = std::make_shared<SimulatedMemoryManager>(SimulatedInstance());
  return manager;
}

// Every sync event reachable from `data`'s buffers, children and dictionary.
void CollectSyncEvents(const arrow::ArrayData& data,
                       std::vector<std::shared_ptr<arrow::Device::SyncEvent>>* out) {
  for (const auto& buffer : data.buffers) {
    if (buffer == nullptr) continue;
    auto event = buffer->device_sync_event();
    if (event != nullptr && std::find(out->begin(), out->end(), event) == out->end()) out->push_back(event);
  }
  for (const auto& child : data.child_data) CollectSyncEvents(*child, out);
  if (data.dictionary != nullptr) CollectSyncEvents(*data.dictionary, out);
}

}  // namespace

std::shared_ptr<arrow::MemoryManager> SimulatedDevice::default_memory_manager() {
  return SimulatedMemory();
}

arrow::Result<std::shared_ptr<arrow::MemoryManager>> MemoryManagerFor(ArrowDeviceType device_type,
                                                                      int64_t device_id) {
  if (device_type == ARROW_DEVICE_CPU) return arrow::default_cpu_memory_manager();
  if (device_type == ADC_SIMULATED_DEVICE_TYPE && device_id == ADC_SIMULATED_DEVICE_ID)
    return SimulatedMemory();
  return arrow::Status::NotImplemented("the Arrow C++ adapter does not serve device type ", device_type,
                                       " (device_id ", device_id, ")");
}

arrow::Result<std::shared_ptr<arrow::MemoryManager>> MapDevice(ArrowDeviceType device_type,
                                                               int64_t device_id) {
  if (device_type == ADC_SIMULATED_DEVICE_TYPE && device_id == ADC_SIMULATED_DEVICE_ID)
    return SimulatedMemory();
  return arrow::DefaultDeviceMemoryMapper(device_type, device_id);
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> PlaceOnDevice(
    const std::shared_ptr<arrow::RecordBatch>& batch, const std::shared_ptr<arrow::MemoryManager>& manager) {
  if (manager->is_cpu()) return batch;
  ARROW_ASSIGN_OR_RAISE(auto copied, batch->CopyTo(manager));
  // The copies above are synchronous, so every buffer holds its final bytes
  // now: the event is signalled at once (simulated_device.h: "The producer
  // signals it once every buffer of the array holds its final bytes").
  ARROW_ASSIGN_OR_RAISE(auto event, manager->MakeDeviceSyncEvent());
  adc_simulated_event_signal(static_cast<struct adc_simulated_event*>(event->get_raw()));
  return arrow::RecordBatch::Make(copied->schema(), copied->num_rows(), copied->columns(), std::move(event));
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> ReadableOnCpu(
    const std::shared_ptr<arrow::RecordBatch>& batch) {
  std::vector<std::shared_ptr<arrow::Device::SyncEvent>> events;
  if (batch->GetSyncEvent() != nullptr) events.push_back(batch->GetSyncEvent());
  for (const auto& column : batch->columns()) CollectSyncEvents(*column->data(), &events);
  for (const auto& event : events) ARROW_RETURN_NOT_OK(event->Wait());
  if (batch->device_type() == arrow::DeviceAllocationType::kCPU) return batch;
  return batch->CopyTo(arrow::default_cpu_memory_manager());
}

}  // namespace adc_arrow_cpp
