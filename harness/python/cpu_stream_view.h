/* An ArrowArrayStream over an ArrowDeviceArrayStream whose arrays are on
 * the CPU: each ArrowDeviceArray's `array` moved out (on the CPU its
 * sync_event is NULL: nothing to wait for).  The plain stream the
 * interface's __arrow_c_stream__ gives, made of a device stream: the
 * fixture's source makes one of the reference's stream, a consumer's
 * handover one of the harness's. */
#ifndef ADC_CPU_STREAM_VIEW_H
#define ADC_CPU_STREAM_VIEW_H

#include <stdbool.h>

#include "adc/plugin_abi.h"

struct adc_cpu_stream_view {
  struct ArrowDeviceArrayStream device; /* owned: the view's release releases it */
  bool released;                        /* the view's release was called */
  bool free_on_release;                 /* the view's release frees the view too */
};

/* Points `stream`'s callbacks at `view`, which becomes its private_data;
 * the view must hold its device stream already.  Who frees the view: its
 * release where `free_on_release`, its maker otherwise (once `released`). */
void adc_cpu_stream_view_start(struct ArrowArrayStream* stream, struct adc_cpu_stream_view* view);

#endif /* ADC_CPU_STREAM_VIEW_H */
