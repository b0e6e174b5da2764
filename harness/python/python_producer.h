/* What the shim's producer (python_producer.c) gives the rest of the shim:
 * the object a held object of its round trip holds, for the PyCapsule
 * probe (pycapsule_probe.c), which calls the interface's methods on it
 * itself. */
#ifndef ADC_PYTHON_PRODUCER_H
#define ADC_PYTHON_PRODUCER_H

#include "python_api.h"

/* The factory's object `held` holds, moved out (a new reference the caller
 * drops; `held` holds none after, and Free drops nothing), or NULL where it
 * was moved out before.  The GIL must be held. */
py_object* adc_python_take_held_object(void* held);

#endif /* ADC_PYTHON_PRODUCER_H */
