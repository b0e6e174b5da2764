#include "rule_api/library.h"

#include "adc/pycapsule_probe.h"
#include "rule_api/round_trip.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define SUFFIX_TEXT(name, suffix, result, parameters, arguments) #suffix,
static const char* const suffixes[ADC_EP_COUNT] = {ADC_PLUGIN_ENTRY_POINTS(SUFFIX_TEXT)};
#undef SUFFIX_TEXT

#define NAME_TEXT(name, suffix, result, parameters, arguments) #name,
static const char* const names[ADC_EP_COUNT] = {ADC_PLUGIN_ENTRY_POINTS(NAME_TEXT)};
#undef NAME_TEXT

const char* adc_entry_point_name(enum adc_entry_point entry_point) {
  return names[entry_point];
}

/* dlsym returns an object pointer; ISO C only lets its bytes be copied into
 * a function pointer. */
_Static_assert(sizeof(void*) == sizeof(ADC_BytesAllocated), "function and object pointers have one size");

static void* look_up(struct adc_library* library, enum adc_entry_point entry_point) {
  char symbol[256];
  snprintf(symbol, sizeof(symbol), "%s_%s", library->prefix, suffixes[entry_point]);
  void* address = dlsym(library->handle, symbol);
  library->present[entry_point] = address != NULL;
  return address;
}

/* <prefix>_<suffix> of the fork protocol, or NULL. */
static adc_fork_step_function look_up_step(const struct adc_library* library, const char* suffix) {
  char symbol[256];
  snprintf(symbol, sizeof(symbol), "%s_%s", library->prefix, suffix);
  void* address = dlsym(library->handle, symbol);
  adc_fork_step_function step;
  memcpy(&step, &address, sizeof(address));
  return step;
}

int adc_library_open(struct adc_library* library, const char* path, const char* prefix,
                     struct adc_error* error) {
  memset(library, 0, sizeof(*library));
  library->path = path;
  library->prefix = prefix;
  library->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library->handle == NULL) {
    const char* reason = dlerror();
    return adc_fail(error, "%s", reason ? reason : "dlopen failed");
  }
#define LOOK_UP(name, suffix, result, parameters, arguments)     \
  {                                                              \
    void* address = look_up(library, ADC_EP_##name);             \
    memcpy(&library->functions.name, &address, sizeof(address)); \
  }
  ADC_PLUGIN_ENTRY_POINTS(LOOK_UP)
#undef LOOK_UP
  char probe[256];
  snprintf(probe, sizeof(probe), "%s_%s", prefix, ADC_PYCAPSULE_PROBE_SUFFIX);
  library->keeps_own_model = dlsym(library->handle, probe) != NULL;
  library->fork_protocol.before_fork = look_up_step(library, ADC_BEFORE_FORK_SUFFIX);
  library->fork_protocol.after_fork_in_parent = look_up_step(library, ADC_AFTER_FORK_IN_PARENT_SUFFIX);
  library->fork_protocol.after_fork_in_child = look_up_step(library, ADC_AFTER_FORK_IN_CHILD_SUFFIX);
  return adc_round_trip_complete(library->handle, prefix, library->keeps_own_model, &library->round_trip,
                                 &library->functions, library->present, &library->made_by_round_trip, error);
}

bool adc_library_can_be_forked(const struct adc_library* library) {
  const struct adc_fork_protocol* steps = &library->fork_protocol;
  return steps->before_fork != NULL && steps->after_fork_in_parent != NULL &&
         steps->after_fork_in_child != NULL;
}

int adc_library_count_entry_points(const struct adc_library* library) {
  int found = 0;
  for (int i = 0; i < ADC_EP_COUNT; i++) found += library->present[i];
  return found;
}

int adc_library_describe_missing(const struct adc_library* library, adc_entry_point_set needed, char* text,
                                 size_t size) {
  int missing = 0;
  size_t used = 0;
  text[0] = '\0';
  for (int i = 0; i < ADC_EP_COUNT; i++) {
    if ((needed & ADC_ENTRY_POINT_BIT(i)) == 0 || library->present[i]) continue;
    int n = missing++ == 0 ? snprintf(text, size, "%s does not export %s_%s", library->path, library->prefix,
                                      suffixes[i])
                           : snprintf(text + used, size - used, ", %s_%s", library->prefix, suffixes[i]);
    if (n > 0) used = used + (size_t)n < size ? used + (size_t)n : size - 1;
    /* A library of the round trip is told what would make it. */
    const char* making = adc_round_trip_making((enum adc_entry_point)i);
    if (library->round_trip.Free != NULL && making != NULL && used < size) {
      n = snprintf(text + used, size - used, " (nor the round trip's %s to make it of)", making);
      if (n > 0) used = used + (size_t)n < size ? used + (size_t)n : size - 1;
    }
  }
  return missing;
}
