/* Targets made at run time, live devices opened and closed in a case's
 * child, and the operations reached through a live device's driver. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"

struct adc_device_target adc_device_target_of(const struct adc_device_driver* driver) {
  struct adc_device_target target = {driver, driver->kind->has_device_ids ? 0 : -1, ""};
  snprintf(target.name, sizeof(target.name), "%s", driver->name);
  return target;
}

int adc_device_target_parse(const char* text, struct adc_device_target* out, struct adc_error* error) {
  const char* colon = strchr(text, ':');
  size_t name_length = colon != NULL ? (size_t)(colon - text) : strlen(text);
  char name[32];
  if (name_length >= sizeof(name)) return adc_fail(error, "unknown device '%s'", text);
  memcpy(name, text, name_length);
  name[name_length] = '\0';
  const struct adc_device_driver* driver = adc_device_find(name);
  if (driver == NULL)
    return adc_fail(error, "unknown device '%s' (known: %s, or all)", text, adc_device_names());
  *out = adc_device_target_of(driver);
  if (colon == NULL) return 0;
  if (!driver->kind->has_device_ids) {
    return adc_fail(error, "device '%s': %s has no device ids (its arrays carry device_id -1)", text, name);
  }
  char* end = NULL;
  errno = 0;
  long long id = strtoll(colon + 1, &end, 10);
  if (colon[1] < '0' || colon[1] > '9' || *end != '\0' || errno != 0 || id > INT32_MAX) {
    return adc_fail(error, "device '%s': the id after ':' must be a number from 0", text);
  }
  out->device_id = id;
  /* The first device keeps the bare name, as case IDs have always had it. */
  if (id > 0) snprintf(out->name, sizeof(out->name), "%s:%lld", name, id);
  return 0;
}

int adc_device_open(const struct adc_device_target* target, struct adc_device* device,
                    struct adc_error* error) {
  *device = (struct adc_device){target->driver, target->device_id, NULL};
  return target->driver->ops->open(device, error);
}

void adc_device_close(struct adc_device* device) {
  if (device->driver != NULL && device->driver->ops->close != NULL) device->driver->ops->close(device);
  device->state = NULL;
}

void adc_device_describe(const struct adc_device* device, struct adc_device_description* out) {
  if (device->driver->ops->describe != NULL) device->driver->ops->describe(device, out);
}

int adc_device_wait_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  return device->driver->ops->wait_event(device, sync_event, error);
}

int adc_device_copy_to_host(const struct adc_device* device, void* host, const void* source, size_t size,
                            struct adc_error* error) {
  return device->driver->ops->copy_to_host(device, host, source, size, error);
}

int adc_device_copy_from_host(const struct adc_device* device, void* destination, const void* host,
                              size_t size, struct adc_error* error) {
  return device->driver->ops->copy_from_host(device, destination, host, size, error);
}

void* adc_device_allocate(const struct adc_device* device, size_t size, bool protectable,
                          struct adc_error* error) {
  return device->driver->ops->allocate(device, size, protectable, error);
}

void adc_device_free(const struct adc_device* device, void* memory, size_t size, bool protectable) {
  device->driver->ops->free(device, memory, size, protectable);
}

int adc_device_protect_read_only(const struct adc_device* device, void* memory, size_t size,
                                 struct adc_error* error) {
  if (!adc_device_can_protect(device->driver)) {
    return adc_fail(error, "device %s cannot make memory read-only", device->driver->name);
  }
  return device->driver->ops->protect_read_only(device, memory, size, error);
}

int adc_device_check_event(const struct adc_device* device, void* sync_event, struct adc_error* error) {
  if (!adc_device_can_check_events(device->driver)) {
    return adc_fail(error, "device %s cannot check events", device->driver->name);
  }
  return device->driver->ops->check_event(device, sync_event, error);
}

int adc_device_settle(const struct adc_device* device, struct adc_error* error) {
  if (device->driver->ops->settle == NULL) return 0;
  return device->driver->ops->settle(device, error);
}

bool adc_device_start_is_costly(const struct adc_device_driver* driver) {
  return driver->start_is_costly != NULL && driver->start_is_costly();
}

const char* adc_device_physical_name(const struct adc_device_driver* driver) {
  return driver->physical_device != NULL ? driver->physical_device : driver->name;
}

bool adc_device_can_protect(const struct adc_device_driver* driver) {
  if (driver->read_only_declined != NULL && driver->read_only_declined()) return false;
  return driver->ops->protect_read_only != NULL;
}

bool adc_device_reads_in_place(const struct adc_device_driver* driver) {
  return driver->kind->host_readable && !driver->reads_through_copies;
}

bool adc_device_can_check_events(const struct adc_device_driver* driver) {
  return driver->ops->check_event != NULL;
}

bool adc_device_has_queue(const struct adc_device_driver* driver) {
  const struct adc_device_queue_ops* queue = driver->queue;
  return queue != NULL && queue->create != NULL && queue->hold != NULL && queue->copy_from_host != NULL &&
         queue->record_event != NULL && queue->finish != NULL && queue->free != NULL;
}

bool adc_device_has_operations(const struct adc_device_driver* driver) {
  const struct adc_device_ops* ops = driver->ops;
  return driver->kind != NULL && ops != NULL && ops->open != NULL && ops->wait_event != NULL &&
         ops->copy_to_host != NULL && ops->copy_from_host != NULL && ops->allocate != NULL &&
         ops->free != NULL;
}
