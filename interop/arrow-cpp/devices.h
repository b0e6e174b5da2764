// The devices the adapter serves, as Arrow C++ sees them: the CPU (Arrow
// C++'s own) and the simulated device of include/adc/simulated_device.h
// (simulated_device.cc).  Arrow C++ has no device of type
// ARROW_DEVICE_EXT_DEV; the adapter gives it one through Arrow C++'s public
// Device and MemoryManager interfaces, so that Arrow C++'s own device export
// and import code runs on it.
#ifndef ADC_ARROW_CPP_DEVICES_H
#define ADC_ARROW_CPP_DEVICES_H

#include <arrow/api.h>
#include <arrow/c/bridge.h>
#include <arrow/device.h>

#include <memory>

#include "adc/arrow_c_abi.h"

namespace adc_arrow_cpp {

// The memory manager for a device the plugin ABI names, or an error when the
// adapter does not serve it.
arrow::Result<std::shared_ptr<arrow::MemoryManager>> MemoryManagerFor(ArrowDeviceType device_type,
                                                                      int64_t device_id);

// For Arrow C++'s device imports: its default mapper, plus the simulated
// device.
arrow::Result<std::shared_ptr<arrow::MemoryManager>> MapDevice(ArrowDeviceType device_type,
                                                               int64_t device_id);

// `batch` (on the CPU) copied to the device of `manager`, with a sync event
// the export hands on where the device has an event type; on the CPU, the
// batch itself.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> PlaceOnDevice(
    const std::shared_ptr<arrow::RecordBatch>& batch, const std::shared_ptr<arrow::MemoryManager>& manager);

// An imported batch made readable on the CPU: waits on the sync event Arrow
// C++'s import attached to its buffers (spec, ArrowDeviceArray.sync_event:
// it "MUST be used to call the appropriate sync method for the device ...
// before attempting to access the memory in the buffers"), then copies it
// to the CPU where it lives elsewhere.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> ReadableOnCpu(
    const std::shared_ptr<arrow::RecordBatch>& batch);

}  // namespace adc_arrow_cpp

#endif  // ADC_ARROW_CPP_DEVICES_H
