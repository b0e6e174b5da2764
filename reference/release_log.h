/* Internal to the reference: the records behind struct ref_release_log. */
#ifndef ADC_REFERENCE_RELEASE_LOG_H
#define ADC_REFERENCE_RELEASE_LOG_H

#include <stdbool.h>

#include "reference_core.h"

/* One exported structure.  The record, unlike the structure's payload,
 * lives until the log is freed, so a second release call finds it intact. */
struct ref_release_record {
  void* payload;      /* the producer's private data; NULL once released */
  int release_calls;
  bool is_base;
  const void* home;   /* children: the slot the producer placed them in */
  struct ref_release_record* parent;
  bool releasing;     /* inside this structure's release callback */
  bool released_in_place;
};

struct ref_release_record* ref_release_log_add(struct ref_release_log* log, void* payload,
                                               const void* home,
                                               struct ref_release_record* parent);
void ref_release_log_add_region(struct ref_release_log* log, const void* start, size_t size);

/* Called at the top of a tracked release callback.  Returns the payload to
 * free, or NULL when the structure was already released (a second call,
 * which is counted and otherwise ignored). */
void* ref_release_record_enter(struct ref_release_record* record, const void* structure);
void ref_release_record_leave(struct ref_release_record* record);

#endif /* ADC_REFERENCE_RELEASE_LOG_H */
