/* A host copy of an exported array whose buffers live on a device the
 * harness cannot read in place.  The structures are copied as they are
 * (they live in CPU memory, spec: "Memory management"); each buffer the
 * fixture's type says the array has is brought over with the device's
 * copy_to_host, sized from the array's own offset and length.  Members that
 * do not match the type (a wrong buffer or child count, a NULL pointer) are
 * copied as they are and their buffers left out, so that the comparison
 * reports them rather than the copy guessing a size. */
#ifndef ADC_HOST_MIRROR_H
#define ADC_HOST_MIRROR_H

#include <stddef.h>

#include "device/device.h"
#include "fixture_model/arrow_json.h"

/* Owns every block of one or more mirrors; start it zeroed. */
struct adc_host_mirror {
  void** blocks;
  size_t n_blocks;
  size_t capacity;
};

/* Each fills `host` with a copy of `source`, laid out as the fixture says:
 * a record batch of the file's fields, one column of `field`, or a
 * dictionary's values of `type`.  Returns 0, or -1 with the device's reason.
 * `host` is valid until adc_host_mirror_free; its release member only tells
 * whether the source was released and must never be called. */
int adc_host_mirror_batch(struct adc_host_mirror* mirror, const struct adc_device* device,
                          const struct arrow_json_file* file, const struct ArrowArray* source,
                          struct ArrowArray* host, struct adc_error* error);
int adc_host_mirror_column(struct adc_host_mirror* mirror, const struct adc_device* device,
                           const struct arrow_json_field* field, const struct ArrowArray* source,
                           struct ArrowArray* host, struct adc_error* error);
int adc_host_mirror_values(struct adc_host_mirror* mirror, const struct adc_device* device,
                           const struct arrow_json_type* type, const struct ArrowArray* source,
                           struct ArrowArray* host, struct adc_error* error);
void adc_host_mirror_free(struct adc_host_mirror* mirror);

#endif /* ADC_HOST_MIRROR_H */
