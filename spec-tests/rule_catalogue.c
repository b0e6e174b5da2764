/* The rule catalogue: one row per rule of the spec the harness enforces.
 *
 * IDs are stable: reports, expectation files and CONFORMANCE.md key on
 * them, and a test fails when this table and CONFORMANCE.md disagree.
 * `sentence` quotes the spec (CDeviceDataInterface.rst, or the base
 * CDataInterface.rst it builds on) so a verdict can be checked against the
 * text it claims to enforce. */
#include "rules.h"

#define CPU_ONLY ADC_DEVICE_CPU
#define ALL_DEVICES (ADC_DEVICE_CPU)

const struct adc_rule adc_rules[] = {
    /* ---- producer: the ArrowDeviceArray members ---- */
    {"device_array.reserved.zeroed", "The ArrowDeviceArray structure",
     "These bytes MUST be zero'd out after initialization by the producer in order to ensure safe evolution of the ABI in the future.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_device_array_reserved_zeroed,
     "Fills the output with 0xA5 bytes, exports every batch with ExportDeviceBatchFromJson and checks reserved[0..2] are 0."},
    {"device_array.device_type.matches_request", "The ArrowDeviceArray structure",
     "Mandatory. The type of the device which can access the buffers in the array.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_device_array_device_type_matches,
     "Exports every batch to the device under test and checks device_type is the ARROW_DEVICE_* value requested."},
    {"device_array.device_id.cpu_minus_one", "The ArrowDeviceArray structure",
     "For device types that do not have an intrinsic notion of a device identifier (e.g., ARROW_DEVICE_CPU), it is recommended to use a device_id of -1 as a convention.",
     ADC_ROLE_PRODUCER, ADC_SHOULD, CPU_ONLY, NULL, rule_device_array_device_id_cpu,
     "Exports every batch to the CPU and checks device_id is -1."},
    {"device_array.sync_event.null_on_cpu", "Synchronization event types",
     "If no event type is supported (\"N/A\"), then the sync_event member should always be null.",
     ADC_ROLE_PRODUCER, ADC_MUST, CPU_ONLY, NULL, rule_device_array_sync_event_cpu,
     "Exports every batch to the CPU and checks sync_event is NULL (MUST: see erratum E4)."},

    /* ---- producer: release callbacks ---- */
    {"array.release.non_null_after_export", "The ArrowArray structure",
     "Mandatory. A pointer to a producer-provided release callback.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_array_release_non_null,
     "Exports every batch and checks release is not NULL."},
    {"schema.release.non_null_after_export", "The ArrowSchema structure",
     "Mandatory. A pointer to a producer-provided release callback.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_schema_release_non_null,
     "Exports the schema and checks release is not NULL."},
    {"array.release.sets_null", "Release callback semantics -- for producers",
     "The release callback MUST mark the structure as released, by setting its release member to NULL.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_array_release_sets_null,
     "Exports every batch, calls its release callback and checks release is NULL afterwards."},
    {"schema.release.sets_null", "Release callback semantics -- for producers",
     "The release callback MUST mark the structure as released, by setting its release member to NULL.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_schema_release_sets_null,
     "Exports the schema, calls its release callback and checks release is NULL afterwards."},

    /* ---- producer: content ---- */
    {"schema.format.matches_fixture", "The ArrowSchema structure",
     "Mandatory. A null-terminated, UTF8-encoded string describing the data type.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_schema_matches_fixture,
     "Compares the exported schema with the fixture: format, name, nullability, children, dictionary, no metadata."},
    {"array.data.matches_fixture", "The ArrowArray structure",
     "The producer MUST ensure that each contiguous buffer is large enough to represent length + offset values encoded according to the Columnar format specification.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_array_matches_fixture,
     "Compares every exported batch with the fixture: lengths, buffer counts, validity, values, offsets, null_count, children and dictionaries."},
    {"schema.release.independent_of_array", "Member allocation",
     "any data pointed to by the struct MUST be allocated and maintained by the producer.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_schema_release_independent,
     "Exports schema and batch, releases the schema first and checks the batch still equals the fixture."},

    /* ---- producer: moves ---- */
    {"array.move.base_relocatable", "Moving an array",
     "The release callback MUST not assume that the structure will be located at the same memory location as when it was originally produced.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_array_move_base,
     "Exports into a struct on its own page, copies it bitwise, makes the page inaccessible, then reads and releases the copy."},
    {"array.move.child_outlives_parent", "Moving child arrays",
     "It is also possible to move one or several child arrays, but the parent ArrowArray structure MUST be released immediately afterwards, as it won't point to valid child arrays anymore.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_array_move_children,
     "Moves every column out of the batch, releases the batch, then checks and releases each column."},
    {"array.move.dictionary_outlives_parent", "Moving child arrays",
     "It is also possible to move one or several child arrays, but the parent ArrowArray structure MUST be released immediately afterwards, as it won't point to valid child arrays anymore.",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, fixture_has_top_level_dictionary, rule_array_move_dictionary,
     "Moves a dictionary-encoded column out of the batch and its dictionary out of the column, releases both parents, then checks and releases the dictionary."},

    /* ---- producer: lifetime ---- */
    {"array.release.no_leak", "Release callback semantics -- for producers",
     "The release callback MUST free any data area directly owned by the structure (such as the buffers and children members).",
     ADC_ROLE_PRODUCER, ADC_MUST, ALL_DEVICES, NULL, rule_array_release_no_leak,
     "After a warm-up round, exports and releases the schema and every batch and checks BytesAllocated() is back to its value before."},

    /* ---- consumer ---- */
    {"consumer.release.exactly_once", "Release callback semantics -- for consumers",
     "Consumers MUST call a base structure's release callback when they won't be using it anymore",
     ADC_ROLE_CONSUMER, ADC_MUST, ALL_DEVICES, NULL, rule_consumer_release_exactly_once,
     "Hands the consumer an instrumented export and counts calls of its release callback when Import returns: exactly one."},
    {"consumer.release.not_on_children", "Release callback semantics -- for consumers",
     "they MUST not call any of its children's release callbacks (including the optional dictionary).",
     ADC_ROLE_CONSUMER, ADC_MUST, ALL_DEVICES, NULL, rule_consumer_release_not_children,
     "Hands the consumer an instrumented export and checks no child or dictionary was released in place other than by its parent."},
    {"consumer.schema.release.exactly_once", "Release callback semantics -- for consumers",
     "Consumers MUST call a base structure's release callback when they won't be using it anymore",
     ADC_ROLE_CONSUMER, ADC_MUST, ALL_DEVICES, NULL, rule_consumer_schema_release_exactly_once,
     "Hands the consumer an instrumented schema and counts calls of its release callback when Import returns: exactly one."},
    {"consumer.buffers.not_written", "Mutability",
     "Both the producer and the consumer SHOULD consider the exported data (that is, the data reachable on the device through the buffers member of the embedded ArrowArray) to be immutable",
     ADC_ROLE_CONSUMER, ADC_SHOULD, ALL_DEVICES, NULL, rule_consumer_buffers_not_written,
     "Exports every buffer on read-only pages; a write faults and is reported."},
    {"consumer.offset.handled", "The ArrowArray structure",
     "Consumers MAY decide not to support non-0-offset arrays, but they should document this limitation.",
     ADC_ROLE_CONSUMER, ADC_SHOULD, ALL_DEVICES, fixture_has_int32_rows, rule_consumer_offset_handled,
     "Exports int32 columns with 3 padding rows and offset 3; the consumer must find the batch equal to the fixture."},
    {"consumer.null_count.unknown_handled", "The ArrowArray structure",
     "Mandatory. The number of null items in the array. MAY be -1 if not yet computed.",
     ADC_ROLE_CONSUMER, ADC_MUST, ALL_DEVICES, fixture_has_nulls, rule_consumer_null_count_unknown,
     "Exports null_count -1 wherever a validity buffer is present; the consumer must find the batch equal to the fixture."},
    {"consumer.compare.detects_mismatch", "Integration testing (C Data Interface)",
     "It validates that both record batches are equal, and then releases the imported record batch.",
     ADC_ROLE_CONSUMER, ADC_MUST, ALL_DEVICES, fixture_has_values, rule_consumer_detects_mismatch,
     "Exports a batch with one value altered; the consumer must report a difference (else no consumer verdict can be trusted)."},
};

const size_t adc_rule_count = sizeof(adc_rules) / sizeof(adc_rules[0]);
