/* The structures of the Arrow C Data, C Stream, C Device and Async Device
 * Stream interfaces, as laid out by the ABI that shipping implementations
 * use (apache/arrow cpp/src/arrow/c/abi.h).
 *
 * Each block sits behind the canonical include guard named in the spec, so
 * that this header can be included next to any other project's copy of the
 * same definitions without a clash (spec: "The canonical guard ... kept
 * exactly as-is").  Where the spec text and the shipping ABI differ we follow
 * the shipping ABI; CONFORMANCE.md lists each difference under "Errata". */
#ifndef ADC_ARROW_C_ABI_H
#define ADC_ARROW_C_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_DEVICE_DATA_INTERFACE
#define ARROW_C_DEVICE_DATA_INTERFACE

/* An int32_t and macros rather than an enum, so that the storage size does
 * not depend on the compiler (spec: "ArrowDeviceType"). */
typedef int32_t ArrowDeviceType;

#define ARROW_DEVICE_CPU 1
#define ARROW_DEVICE_CUDA 2
#define ARROW_DEVICE_CUDA_HOST 3
#define ARROW_DEVICE_OPENCL 4
#define ARROW_DEVICE_VULKAN 7
#define ARROW_DEVICE_METAL 8
#define ARROW_DEVICE_VPI 9
#define ARROW_DEVICE_ROCM 10
#define ARROW_DEVICE_ROCM_HOST 11
#define ARROW_DEVICE_EXT_DEV 12
#define ARROW_DEVICE_CUDA_MANAGED 13
#define ARROW_DEVICE_ONEAPI 14
#define ARROW_DEVICE_WEBGPU 15
#define ARROW_DEVICE_HEXAGON 16

struct ArrowDeviceArray {
  struct ArrowArray array;
  int64_t device_id;
  ArrowDeviceType device_type;
  void* sync_event;
  int64_t reserved[3];
};

#endif /* ARROW_C_DEVICE_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

#ifndef ARROW_C_DEVICE_STREAM_INTERFACE
#define ARROW_C_DEVICE_STREAM_INTERFACE

struct ArrowDeviceArrayStream {
  ArrowDeviceType device_type;
  int (*get_schema)(struct ArrowDeviceArrayStream* self, struct ArrowSchema* out);
  int (*get_next)(struct ArrowDeviceArrayStream* self, struct ArrowDeviceArray* out);
  const char* (*get_last_error)(struct ArrowDeviceArrayStream* self);
  void (*release)(struct ArrowDeviceArrayStream* self);
  void* private_data;
};

#endif /* ARROW_C_DEVICE_STREAM_INTERFACE */

#ifndef ARROW_C_ASYNC_STREAM_INTERFACE
#define ARROW_C_ASYNC_STREAM_INTERFACE

/* Erratum E2: the spec's code block names the parameter type
 * "struct ArrowArrayTask*", a type that exists nowhere; abi.h uses the
 * struct being defined. */
struct ArrowAsyncTask {
  int (*extract_data)(struct ArrowAsyncTask* self, struct ArrowDeviceArray* out);
  void* private_data;
};

/* Erratum E1: the spec's code block has a `release` member between `cancel`
 * and `additional_metadata`; abi.h has none, so the layouts differ.
 * Erratum E3: the member text gives `request` a uint64_t count; the code,
 * here as in abi.h, takes int64_t (so that n <= 0 can be detected). */
struct ArrowAsyncProducer {
  ArrowDeviceType device_type;
  void (*request)(struct ArrowAsyncProducer* self, int64_t n);
  void (*cancel)(struct ArrowAsyncProducer* self);
  const char* additional_metadata;
  void* private_data;
};

struct ArrowAsyncDeviceStreamHandler {
  int (*on_schema)(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowSchema* stream_schema);
  int (*on_next_task)(struct ArrowAsyncDeviceStreamHandler* self, struct ArrowAsyncTask* task,
                      const char* metadata);
  void (*on_error)(struct ArrowAsyncDeviceStreamHandler* self, int code, const char* message,
                   const char* metadata);
  void (*release)(struct ArrowAsyncDeviceStreamHandler* self);
  struct ArrowAsyncProducer* producer;
  void* private_data;
};

#endif /* ARROW_C_ASYNC_STREAM_INTERFACE */

#ifdef __cplusplus
}
#endif

#endif /* ADC_ARROW_C_ABI_H */
