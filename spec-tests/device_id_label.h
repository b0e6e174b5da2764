/* What the rules on ArrowDeviceArray.device_id share, for single device
 * batches, device streams and async streams alike
 * (spec-tests/device_id_label.c): the sentence they quote, the devices
 * they run on, and the one check they make. */
#ifndef ADC_DEVICE_ID_LABEL_H
#define ADC_DEVICE_ID_LABEL_H

#include "rule_api/case_context.h"

/* Neither ArrowDeviceArrayStream nor ArrowAsyncProducer has a device id:
 * every interface states it on its arrays alone, in this member. */
#define ADC_DEVICE_ID_CLAUSE "The ArrowDeviceArray structure"
#define ADC_DEVICE_ID_SENTENCE                                                                          \
  "Mandatory. The device id to identify a specific device if multiple devices of this type are on the " \
  "system."

/* Devices whose type has ids (the simulated device, the GPUs).  The CPU
 * has none: there the spec only recommends -1, which
 * device_array.device_id.cpu_minus_one judges as the SHOULD it is. */
extern const struct adc_device_filter adc_devices_with_ids;

/* Judges the device_id of `array`, asked for on the case's device: a
 * violation unless it is that device's id.  `which` names the array in
 * the message ("batch 2").  An id names a device of a type, so an array
 * of another type than the device's is not judged: the case ends
 * unresolved, pointing at `type_rule`, the rule that judges its type. */
void adc_judge_device_id(struct adc_case_context* ctx, const struct ArrowDeviceArray* array,
                         const char* which, const char* type_rule);

#endif /* ADC_DEVICE_ID_LABEL_H */
