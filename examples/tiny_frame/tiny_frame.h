/* tiny_frame's public interface: the round-trip entry points of the
 * conformance suite's plugin ABI (adc/plugin_abi.h,
 * ADC_ROUND_TRIP_ENTRY_POINTS), prefix "tiny_frame", and BytesAllocated.
 * They are the only symbols libtiny_frame.so exports.
 *
 * A held object is a tiny_frame table (tf_table.h): the Adopt entry
 * points make one, the Export entry points build C structures from it,
 * and tiny_frame_RoundTrip_Free ends it. */
#ifndef TINY_FRAME_H
#define TINY_FRAME_H

#include "adc/plugin_abi.h"

#define TINY_FRAME_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

TINY_FRAME_EXPORT const char* tiny_frame_RoundTrip_AdoptSchema(struct ArrowSchema* schema, void** held);
TINY_FRAME_EXPORT const char* tiny_frame_RoundTrip_AdoptBatch(struct ArrowSchema* schema,
                                                              struct ArrowArray* batch, void** held);
TINY_FRAME_EXPORT const char* tiny_frame_RoundTrip_AdoptDeviceBatch(struct ArrowSchema* schema,
                                                                    struct ArrowDeviceArray* batch,
                                                                    void** held);
TINY_FRAME_EXPORT const char* tiny_frame_RoundTrip_AdoptDeviceStream(struct ArrowDeviceArrayStream* stream,
                                                                     void** held);
TINY_FRAME_EXPORT const char* tiny_frame_RoundTrip_ExportSchema(void* held, struct ArrowSchema* out);
TINY_FRAME_EXPORT const char* tiny_frame_RoundTrip_ExportBatch(void* held, struct ArrowArray* out);
TINY_FRAME_EXPORT const char* tiny_frame_RoundTrip_ExportDeviceBatch(void* held,
                                                                     struct ArrowDeviceArray* out);
TINY_FRAME_EXPORT const char* tiny_frame_RoundTrip_ExportDeviceStream(void* held,
                                                                      struct ArrowDeviceArrayStream* out);
TINY_FRAME_EXPORT void tiny_frame_RoundTrip_Free(void* held);

/* The one entry point of the JSON ABI tiny_frame has: the bytes it holds
 * on every device (tables and what exports still hold), 0 once every
 * table is freed and every export released.  The suite's *.no_leak rules
 * read it. */
TINY_FRAME_EXPORT int64_t tiny_frame_BytesAllocated(void);

#ifdef __cplusplus
}
#endif

#endif /* TINY_FRAME_H */
