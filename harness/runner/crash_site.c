#include "runner/crash_site.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "support/system_libraries.h"
#include "wire/crash_record.h"

static const char* base_name(const char* path) {
  const char* slash = strrchr(path, '/');
  return slash != NULL ? slash + 1 : path;
}

static bool among(const char* object, const char* const* paths) {
  for (size_t i = 0; paths != NULL && paths[i] != NULL; i++) {
    if (strcmp(object, paths[i]) == 0) return true;
  }
  return false;
}

/* Symbolises the frames, one addr2line per object. */
static void symbolise_frames(struct adc_crash_site* site) {
  bool done[ADC_FAULT_FRAMES] = {false};
  for (size_t i = 0; i < site->n_frames; i++) {
    if (done[i] || site->frames[i].object[0] == '\0') continue;
    uintptr_t offsets[ADC_FAULT_FRAMES];
    size_t which[ADC_FAULT_FRAMES];
    size_t n = 0;
    for (size_t j = i; j < site->n_frames; j++) {
      if (done[j] || strcmp(site->frames[j].object, site->frames[i].object) != 0) continue;
      done[j] = true;
      /* A return address is the instruction after the call: the call is
       * the line the frame was at. */
      offsets[n] = site->frames[j].offset - (site->frames[j].depth > 0 && site->frames[j].offset > 0);
      which[n++] = j;
    }
    struct adc_symbol symbols[ADC_FAULT_FRAMES];
    adc_symbolise(site->frames[i].object, offsets, n, symbols);
    for (size_t k = 0; k < n; k++) site->frames[which[k]].symbol = symbols[k];
  }
}

/* Whether `frame` is the C library's exit(), as a system library's
 * symbols name it. */
static bool called_exit(const struct adc_crash_frame* frame) {
  static const char* const names[] = {"exit", "__GI_exit", "__run_exit_handlers", "_dl_fini"};
  if (!frame->system) return false;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    if (strcmp(frame->symbol.function, names[i]) == 0) return true;
  }
  return false;
}

bool adc_crash_site_read(const char* message, const char* const* suite_objects, struct adc_crash_site* out) {
  static struct adc_crash_record record; /* large: off the stack */
  memset(out, 0, sizeof(*out));
  if (!adc_crash_record_read(message, &record)) return false;
  out->signal_number = record.signal_number;
  out->sent = record.code <= 0;
  out->address = record.address;
  out->handed_over = record.handed_over;
  out->n_frames = record.n_frames;
  out->deciding = -1;
  for (size_t i = 0; i < record.n_frames; i++) {
    struct adc_crash_frame* frame = &out->frames[i];
    memcpy(frame->object, record.frames[i].object, sizeof(frame->object));
    frame->offset = record.frames[i].offset;
    frame->depth = record.frames[i].depth;
    frame->system = frame->object[0] != '\0' && adc_is_system_library(frame->object);
    if (out->deciding < 0 && !frame->system) out->deciding = (int)i;
  }
  bool in_suite =
      out->deciding >= 0 && among(out->frames[out->deciding].object, suite_objects) && !out->handed_over;
  symbolise_frames(out);
  /* The suite's frame that decided called exit(): what crashed is exit's
   * work, the handlers and destructors the library registered (or the
   * system's), which the suite, having none, never runs; a library's
   * handler that ends in a tail call leaves no frame of its own there. */
  out->during_exit = in_suite && out->deciding > 0 && called_exit(&out->frames[out->deciding - 1]);
  if (out->during_exit) in_suite = false;
  out->in = in_suite ? ADC_CRASH_IN_SUITE : ADC_CRASH_IN_LIBRARY;
  return true;
}

/* "function (file.c:12, object)", "function (object+0x1a2b)",
 * "object+0x1a2b", "0x7f001234 (in no file)". */
static void describe_frame(const struct adc_crash_frame* frame, char* text, size_t size) {
  const struct adc_symbol* symbol = &frame->symbol;
  const char* object = base_name(frame->object);
  if (frame->object[0] == '\0') {
    snprintf(text, size, "0x%jx (in no file)", (uintmax_t)frame->offset);
  } else if (symbol->function[0] == '\0') {
    snprintf(text, size, "%.120s+0x%jx", object, (uintmax_t)frame->offset);
  } else if (symbol->file[0] == '\0') {
    snprintf(text, size, "%.160s (%.120s+0x%jx)", symbol->function, object, (uintmax_t)frame->offset);
  } else if (symbol->line == 0) {
    snprintf(text, size, "%.160s (%.80s, %.120s)", symbol->function, base_name(symbol->file), object);
  } else {
    snprintf(text, size, "%.160s (%.80s:%d, %.120s)", symbol->function, base_name(symbol->file), symbol->line,
             object);
  }
}

void adc_crash_site_describe(const struct adc_crash_site* site, char* text, size_t size) {
  if (site->n_frames == 0) {
    snprintf(text, size, "no frame could be read");
    return;
  }
  /* The innermost frame, where it died; then the one that decided, the
   * one before it and its caller; or, where none decided, four. */
  size_t from = 1, to = site->n_frames < 4 ? site->n_frames : 4;
  if (site->deciding >= 0) {
    size_t deciding = (size_t)site->deciding;
    from = deciding > 1 ? deciding - 1 : 1;
    to = deciding + 2 < site->n_frames ? deciding + 2 : site->n_frames;
  }
  char frame[512];
  describe_frame(&site->frames[0], frame, sizeof(frame));
  size_t used = (size_t)snprintf(text, size, "%s", frame);
  unsigned depth_above = site->frames[0].depth;
  for (size_t i = from; i < to && used < size; i++) {
    /* Frames left out, of those picked or of the thread's, show as "...". */
    bool gap = site->frames[i].depth != depth_above + 1;
    depth_above = site->frames[i].depth;
    describe_frame(&site->frames[i], frame, sizeof(frame));
    used += (size_t)snprintf(text + used, size - used, ", %scalled from %s", gap ? "..., " : "", frame);
  }
}

static void add_hex(cJSON* object, const char* key, uintptr_t value) {
  char text[24];
  snprintf(text, sizeof(text), "0x%jx", (uintmax_t)value);
  cJSON_AddStringToObject(object, key, text);
}

cJSON* adc_crash_site_json(const struct adc_crash_site* site) {
  cJSON* json = cJSON_CreateObject();
  cJSON_AddStringToObject(json, "in", site->in == ADC_CRASH_IN_SUITE ? "suite" : "library");
  const char* name = sigabbrev_np(site->signal_number);
  char signal_name[24];
  snprintf(signal_name, sizeof(signal_name), "SIG%s", name != NULL ? name : "?");
  cJSON_AddStringToObject(json, "signal", signal_name);
  cJSON_AddBoolToObject(json, "sent", site->sent);
  if (site->signal_number == SIGSEGV || site->signal_number == SIGBUS) {
    add_hex(json, "fault_address", site->address);
    cJSON_AddBoolToObject(json, "fault_on_handed_over_memory", site->handed_over);
  }
  if (site->deciding >= 0) cJSON_AddNumberToObject(json, "deciding_frame", site->deciding);
  cJSON* frames = cJSON_AddArrayToObject(json, "frames");
  for (size_t i = 0; i < site->n_frames; i++) {
    const struct adc_crash_frame* frame = &site->frames[i];
    cJSON* item = cJSON_CreateObject();
    cJSON_AddNumberToObject(item, "depth", frame->depth);
    if (frame->symbol.function[0] != '\0') cJSON_AddStringToObject(item, "function", frame->symbol.function);
    if (frame->symbol.file[0] != '\0') cJSON_AddStringToObject(item, "file", frame->symbol.file);
    if (frame->symbol.line > 0) cJSON_AddNumberToObject(item, "line", frame->symbol.line);
    if (frame->object[0] != '\0') cJSON_AddStringToObject(item, "object", frame->object);
    add_hex(item, "offset", frame->offset);
    cJSON_AddBoolToObject(item, "system", frame->system);
    cJSON_AddItemToArray(frames, item);
  }
  return json;
}
