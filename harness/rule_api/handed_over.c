#include "rule_api/handed_over.h"

#include <stdint.h>
#include <string.h>

#include "adc/arrow_c_abi.h"
#include "adc/device_kinds.h"
#include "rule_api/output_slot.h"
#include "support/pages.h"
#include "support/safe_read.h"

/* Bounds of the walk: a structure deeper or wider than these is a
 * library's own mistake, not worth reading further in a dying process. */
#define MAX_PENDING 256
#define MAX_NODES 4096
#define MAX_POINTERS 64

enum node_kind { NODE_SCHEMA, NODE_ARRAY, NODE_HOST_ARRAY };

struct node {
  const void* at;
  enum node_kind kind; /* NODE_ARRAY: its buffers are on a device the host does not read */
};

/* The walk's state: static, off the alternate stack; one walk at a time
 * (the crash handler lets one thread in). */
static struct {
  uintptr_t fault_page;
  uintptr_t page_size;
  struct node pending[MAX_PENDING];
  size_t n_pending;
  size_t visited;
} walk;

static bool on_fault_page(const void* pointer) {
  return pointer != NULL && (uintptr_t)pointer / walk.page_size * walk.page_size == walk.fault_page;
}

static void push(const void* at, enum node_kind kind) {
  if (at != NULL && walk.n_pending < MAX_PENDING) walk.pending[walk.n_pending++] = (struct node){at, kind};
}

/* Whether one of the `count` pointers at `array` (read safely, at most
 * MAX_POINTERS) is on the fault's page; each is pushed as `kind` where
 * `follow`. */
static bool pointers_reach_fault(const void* const* array, int64_t count, bool follow, enum node_kind kind) {
  if (on_fault_page(array)) return true;
  if (array == NULL || count <= 0) return false;
  const void* pointers[MAX_POINTERS];
  size_t n = count < MAX_POINTERS ? (size_t)count : MAX_POINTERS;
  size_t read = adc_copy_readable(pointers, array, n * sizeof(pointers[0])) / sizeof(pointers[0]);
  for (size_t i = 0; i < read; i++) {
    if (on_fault_page(pointers[i])) return true;
    if (follow) push(pointers[i], kind);
  }
  return false;
}

static bool schema_reaches_fault(const struct ArrowSchema* at) {
  struct ArrowSchema schema;
  if (adc_copy_readable(&schema, at, sizeof(schema)) != sizeof(schema)) return false;
  if (on_fault_page(schema.format) || on_fault_page(schema.name) || on_fault_page(schema.metadata) ||
      on_fault_page(schema.dictionary)) {
    return true;
  }
  push(schema.dictionary, NODE_SCHEMA);
  return pointers_reach_fault((const void* const*)schema.children, schema.n_children, true, NODE_SCHEMA);
}

static bool array_reaches_fault(const struct ArrowArray* at, enum node_kind kind) {
  struct ArrowArray array;
  if (adc_copy_readable(&array, at, sizeof(array)) != sizeof(array)) return false;
  if (on_fault_page(array.dictionary)) return true;
  push(array.dictionary, kind);
  if (kind == NODE_HOST_ARRAY && pointers_reach_fault(array.buffers, array.n_buffers, false, kind))
    return true;
  return pointers_reach_fault((const void* const*)array.children, array.n_children, true, kind);
}

/* The root in a slot named `name`, pushed where it is one the walk reads. */
static void push_root(const void* structure, const char* name) {
  if (strcmp(name, "ArrowSchema") == 0) {
    push(structure, NODE_SCHEMA);
  } else if (strcmp(name, "ArrowArray") == 0) {
    push(structure, NODE_HOST_ARRAY);
  } else if (strcmp(name, "ArrowDeviceArray") == 0) {
    struct ArrowDeviceArray device_array;
    if (adc_copy_readable(&device_array, structure, sizeof(device_array)) != sizeof(device_array)) return;
    const struct adc_device_kind* kind = adc_device_kind_of_type(device_array.device_type);
    push(structure, kind != NULL && kind->host_readable ? NODE_HOST_ARRAY : NODE_ARRAY);
  }
}

bool adc_handed_over_page(const void* address) {
  walk.page_size = adc_page_size();
  walk.fault_page = (uintptr_t)address / walk.page_size * walk.page_size;
  walk.n_pending = 0;
  walk.visited = 0;
  const void* structure;
  const char* name;
  for (size_t slot = 0; adc_output_slot_at(slot, &structure, &name); slot++) {
    push_root(structure, name);
    while (walk.n_pending > 0 && walk.visited < MAX_NODES) {
      struct node node = walk.pending[--walk.n_pending];
      walk.visited++;
      bool reached =
          node.kind == NODE_SCHEMA ? schema_reaches_fault(node.at) : array_reaches_fault(node.at, node.kind);
      if (reached) return true;
    }
  }
  return false;
}
