/* A library judged through the round-trip ABI (adc/plugin_abi.h,
 * ADC_ROUND_TRIP_ENTRY_POINTS): the entry points of the JSON ABI it lacks
 * are made from its Adopt and Export entry points and the reference
 * library's, so that every rule calls it as it calls any library.  The
 * reference plays the file's part alone: it exports the fixture as C
 * structures for the library to adopt, and compares what the library
 * exports back with the fixture (CONFORMANCE.md, "The round-trip ABI"). */
#ifndef ADC_RULE_API_ROUND_TRIP_H
#define ADC_RULE_API_ROUND_TRIP_H

#include <stdbool.h>

#include "adc/plugin_abi.h"
#include "rule_api/consumer_answer.h"
#include "rule_api/entry_points.h"
#include "support/error.h"

/* The reference library the made entry points call, by path: set once,
 * in the parent, before any library is opened (it is dlopened in the
 * child processes only, as the library under test is). */
void adc_round_trip_use_reference(const char* reference_path);

/* Looks the round-trip entry points "<prefix>_RoundTrip_*" up in the
 * dlopened `handle` into `round_trip` and, where it has any, makes the JSON
 * ABI's entry points the library lacks (`present` false) of them: into
 * `functions`, each marked present.  Returns 0, or -1 with a message where
 * the reference library cannot be loaded or a library beyond the second
 * needs it.  What a library that keeps its own model (rule_api/library.h)
 * gives back is read as a stream and compared by value (values_back.h);
 * another's, exactly, by the reference.  The entry points made so into
 * `*made`. */
int adc_round_trip_complete(void* handle, const char* prefix, bool keeps_own_model,
                            struct adc_round_trip_functions* round_trip,
                            struct adc_plugin_functions* functions, bool present[ADC_EP_COUNT],
                            adc_entry_point_set* made, struct adc_error* error);

/* What the last made Import on this thread showed of the library's answer
 * where it returned a message (consumer_answer.h), read once: the next
 * read says ADC_CONSUMER_REPORTED until a made Import ends again. */
enum adc_consumer_answer adc_round_trip_take_answer(void);

/* The round-trip entry points that make `entry_point` ("AdoptDeviceBatch,
 * ExportDeviceBatch and Free"), or NULL where none does. */
const char* adc_round_trip_making(enum adc_entry_point entry_point);

/* An adoption on its own, for what calls a library's held object itself
 * (the PyCapsule probe: rule_api/pycapsule_calls.c): the library adopts
 * the fixture's schema, its first batch, or its stream on the CPU, as the
 * reference exports them, with the fixture offered again
 * (adc/export_again.h) until adc_round_trip_unadopt, which frees the held
 * object.  NULL with `*adoption` set, else why not (a message kept until
 * the thread's next call). */
enum adc_round_trip_input { ADC_ADOPT_SCHEMA, ADC_ADOPT_BATCH, ADC_ADOPT_STREAM };
struct adc_round_trip_adoption;
const char* adc_round_trip_adopt(void* handle, const char* prefix, const struct adc_round_trip_functions* lib,
                                 enum adc_round_trip_input input, const char* json_path,
                                 struct adc_round_trip_adoption** adoption);
void* adc_round_trip_held(const struct adc_round_trip_adoption* adoption);
void adc_round_trip_unadopt(struct adc_round_trip_adoption* adoption);

/* The fixture's schema, exported by the reference, into `out`: NULL, or
 * why not. */
const char* adc_round_trip_fixture_schema(const char* json_path, struct ArrowSchema* out);

#endif /* ADC_RULE_API_ROUND_TRIP_H */
