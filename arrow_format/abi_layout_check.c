/* Compile-time checks that the structures of include/adc/arrow_c_abi.h have
 * the layout of the shipping ABI on LP64 targets.  A mistake in the header
 * fails the build rather than a run. */
#include <stddef.h>

#include "adc/arrow_c_abi.h"

#if defined(__LP64__)
#define OFFSET_IS(type, member, value) \
  _Static_assert(offsetof(struct type, member) == (value), #type "." #member " is at offset " #value)

_Static_assert(sizeof(ArrowDeviceType) == 4, "ArrowDeviceType is an int32_t");

_Static_assert(sizeof(struct ArrowSchema) == 72, "ArrowSchema is 72 bytes");
OFFSET_IS(ArrowSchema, format, 0);
OFFSET_IS(ArrowSchema, name, 8);
OFFSET_IS(ArrowSchema, metadata, 16);
OFFSET_IS(ArrowSchema, flags, 24);
OFFSET_IS(ArrowSchema, n_children, 32);
OFFSET_IS(ArrowSchema, children, 40);
OFFSET_IS(ArrowSchema, dictionary, 48);
OFFSET_IS(ArrowSchema, release, 56);
OFFSET_IS(ArrowSchema, private_data, 64);

_Static_assert(sizeof(struct ArrowArray) == 80, "ArrowArray is 80 bytes");
OFFSET_IS(ArrowArray, length, 0);
OFFSET_IS(ArrowArray, null_count, 8);
OFFSET_IS(ArrowArray, offset, 16);
OFFSET_IS(ArrowArray, n_buffers, 24);
OFFSET_IS(ArrowArray, n_children, 32);
OFFSET_IS(ArrowArray, buffers, 40);
OFFSET_IS(ArrowArray, children, 48);
OFFSET_IS(ArrowArray, dictionary, 56);
OFFSET_IS(ArrowArray, release, 64);
OFFSET_IS(ArrowArray, private_data, 72);

_Static_assert(sizeof(struct ArrowDeviceArray) == 128, "ArrowDeviceArray is 128 bytes");
OFFSET_IS(ArrowDeviceArray, array, 0);
OFFSET_IS(ArrowDeviceArray, device_id, 80);
OFFSET_IS(ArrowDeviceArray, device_type, 88);
OFFSET_IS(ArrowDeviceArray, sync_event, 96);
OFFSET_IS(ArrowDeviceArray, reserved, 104);

_Static_assert(sizeof(struct ArrowArrayStream) == 40, "ArrowArrayStream is 40 bytes");
OFFSET_IS(ArrowArrayStream, get_schema, 0);
OFFSET_IS(ArrowArrayStream, get_next, 8);
OFFSET_IS(ArrowArrayStream, get_last_error, 16);
OFFSET_IS(ArrowArrayStream, release, 24);
OFFSET_IS(ArrowArrayStream, private_data, 32);

_Static_assert(sizeof(struct ArrowDeviceArrayStream) == 48, "ArrowDeviceArrayStream is 48 bytes");
OFFSET_IS(ArrowDeviceArrayStream, device_type, 0);
OFFSET_IS(ArrowDeviceArrayStream, get_schema, 8);
OFFSET_IS(ArrowDeviceArrayStream, get_next, 16);
OFFSET_IS(ArrowDeviceArrayStream, get_last_error, 24);
OFFSET_IS(ArrowDeviceArrayStream, release, 32);
OFFSET_IS(ArrowDeviceArrayStream, private_data, 40);

_Static_assert(sizeof(struct ArrowAsyncTask) == 16, "ArrowAsyncTask is 16 bytes");
OFFSET_IS(ArrowAsyncTask, extract_data, 0);
OFFSET_IS(ArrowAsyncTask, private_data, 8);

/* Erratum E1: 40 bytes as in abi.h; the spec's code block, with its extra
 * `release` member, would make it 48. */
_Static_assert(sizeof(struct ArrowAsyncProducer) == 40, "ArrowAsyncProducer is 40 bytes");
OFFSET_IS(ArrowAsyncProducer, device_type, 0);
OFFSET_IS(ArrowAsyncProducer, request, 8);
OFFSET_IS(ArrowAsyncProducer, cancel, 16);
OFFSET_IS(ArrowAsyncProducer, additional_metadata, 24);
OFFSET_IS(ArrowAsyncProducer, private_data, 32);

_Static_assert(sizeof(struct ArrowAsyncDeviceStreamHandler) == 48,
               "ArrowAsyncDeviceStreamHandler is 48 bytes");
OFFSET_IS(ArrowAsyncDeviceStreamHandler, on_schema, 0);
OFFSET_IS(ArrowAsyncDeviceStreamHandler, on_next_task, 8);
OFFSET_IS(ArrowAsyncDeviceStreamHandler, on_error, 16);
OFFSET_IS(ArrowAsyncDeviceStreamHandler, release, 24);
OFFSET_IS(ArrowAsyncDeviceStreamHandler, producer, 32);
OFFSET_IS(ArrowAsyncDeviceStreamHandler, private_data, 40);
#endif

/* The canonical guards must be the spec's, exactly. */
#if !defined(ARROW_C_DATA_INTERFACE) || !defined(ARROW_C_DEVICE_DATA_INTERFACE) ||     \
    !defined(ARROW_C_STREAM_INTERFACE) || !defined(ARROW_C_DEVICE_STREAM_INTERFACE) || \
    !defined(ARROW_C_ASYNC_STREAM_INTERFACE)
#error "a canonical include guard is missing from arrow_c_abi.h"
#endif

int adc_abi_layout_checked(void) {
  return 1;
}
