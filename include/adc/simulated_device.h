/* The simulated device: a host-only asynchronous device, so that the
 * synchronisation rules of the C Device Data Interface run for real on
 * machines without a GPU.
 *
 * spec: ARROW_DEVICE_EXT_DEV "is an escape-hatch for devices to extend
 * which aren't currently represented otherwise.  Producers would need to
 * provide additional information/context specific to the device", and
 * (Synchronization event types, note 2) "the producer should document the
 * type".  This header is that documentation, shared by the harness, the
 * reference pair and any library that wants to be tested on the device:
 *
 *   - device_type: ARROW_DEVICE_EXT_DEV (ADC_SIMULATED_DEVICE_TYPE), with
 *     device_id 0 (the only simulated device).
 *   - Buffers are ordinary host memory, but like a GPU's they may still be
 *     written by the producer's own worker after the export returns; a
 *     consumer reads them only after the sync_event completed.
 *   - sync_event is NULL (the data are readable at once) or a
 *     `struct adc_simulated_event*`, owned by the producer and valid until
 *     the array is released.  The producer signals it once every buffer of
 *     the array holds its final bytes; a consumer calls
 *     adc_simulated_event_wait (or polls adc_simulated_event_query) before
 *     reading.
 *   - The event counts the synchronisation calls made on it (waits and
 *     queries, counted as they begin), so that a producer can tell when a
 *     consumer starts to synchronise.  The harness's consumer feed uses it
 *     to write its data exactly then: a consumer that reads before it
 *     synchronises finds the bytes not yet written, whatever the machine's
 *     load, and one that waits gets them at once, never held by a timer.
 *     A producer under test need not use it.
 *
 * The event is a mutex, a condition variable and counters, so that waiting
 * gives the happens-before ordering ThreadSanitizer checks.  The functions
 * below are the event's whole interface; they are inline so that no library
 * needs to link anything of this suite.  The layout is versioned by the
 * magic number: a library built against another version of this header
 * hands out events the harness rejects by their magic number (0x41444345,
 * "ADCE", was the layout without `sync_calls`). */
#ifndef ADC_SIMULATED_DEVICE_H
#define ADC_SIMULATED_DEVICE_H

#include <pthread.h>
#include <stdint.h>

#include "adc/arrow_c_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ADC_SIMULATED_DEVICE_TYPE ARROW_DEVICE_EXT_DEV
#define ADC_SIMULATED_DEVICE_ID 0
/* The simulated runtime has this many devices, ids 0 to COUNT - 1, so
 * that device ids other than the first are judged without a second GPU
 * (spec: "ArrowDeviceArray.device_id"); they share the host's memory, as
 * the harness reaches each only through copies. */
#define ADC_SIMULATED_DEVICE_COUNT 2

/* Held in `magic` while the event is alive: "ADC2", the second layout. */
#define ADC_SIMULATED_EVENT_MAGIC 0x41444332u

struct adc_simulated_event {
  uint32_t magic;      /* ADC_SIMULATED_EVENT_MAGIC from init to destroy */
  int signalled;       /* under `mutex` */
  uint32_t waits;      /* under `mutex`: waits that have returned (producers may watch it) */
  uint32_t sync_calls; /* under `mutex`: waits and queries begun (producers may watch it) */
  pthread_mutex_t mutex;
  pthread_cond_t changed; /* broadcast when `signalled`, `waits` or `sync_calls` changes */
};

/* Returns 0, or an errno value when the runtime cannot make the event. */
static inline int adc_simulated_event_init(struct adc_simulated_event* event) {
  event->signalled = 0;
  event->waits = 0;
  event->sync_calls = 0;
  int status = pthread_mutex_init(&event->mutex, NULL);
  if (status != 0) return status;
  status = pthread_cond_init(&event->changed, NULL);
  if (status != 0) {
    pthread_mutex_destroy(&event->mutex);
    return status;
  }
  event->magic = ADC_SIMULATED_EVENT_MAGIC;
  return 0;
}

/* The producer's side: every write before this call is visible to whoever
 * returns from adc_simulated_event_wait. */
static inline void adc_simulated_event_signal(struct adc_simulated_event* event) {
  pthread_mutex_lock(&event->mutex);
  event->signalled = 1;
  pthread_cond_broadcast(&event->changed);
  pthread_mutex_unlock(&event->mutex);
}

/* The consumer's side: blocks until the event is signalled. */
static inline void adc_simulated_event_wait(struct adc_simulated_event* event) {
  pthread_mutex_lock(&event->mutex);
  event->sync_calls++;
  pthread_cond_broadcast(&event->changed);
  while (!event->signalled) pthread_cond_wait(&event->changed, &event->mutex);
  event->waits++;
  pthread_cond_broadcast(&event->changed);
  pthread_mutex_unlock(&event->mutex);
}

/* Whether the event was signalled, without blocking (cudaEventQuery's role). */
static inline int adc_simulated_event_query(struct adc_simulated_event* event) {
  pthread_mutex_lock(&event->mutex);
  event->sync_calls++;
  pthread_cond_broadcast(&event->changed);
  int signalled = event->signalled;
  pthread_mutex_unlock(&event->mutex);
  return signalled;
}

/* Only once nobody waits on it any more, i.e. when the array it belongs to
 * is released. */
static inline void adc_simulated_event_destroy(struct adc_simulated_event* event) {
  event->magic = 0;
  pthread_cond_destroy(&event->changed);
  pthread_mutex_destroy(&event->mutex);
}

#ifdef __cplusplus
}
#endif

#endif /* ADC_SIMULATED_DEVICE_H */
