/* Beyond the plugin ABI: a library that reads its input more than once.
 *
 * An Import entry point is given one structure (plugin_abi.h).  Some
 * consumers ask for their input again: a query engine binds a scan (it
 * reads the schema of the stream it is given, and releases it), then runs
 * it on a stream asked for afresh (DuckDB 2.0.0 asks a Python object for
 * __arrow_c_stream__ three times to read it once).  A library that can be
 * handed the data again exports one more function,
 * <prefix>_SetExportAgain: before each Import call the harness gives it an
 * export_again function for what that call is given, and after the call
 * returns it gives NULL.  Each call of export_again exports the same data
 * afresh, laid out as the Import's own structure (the same alterations,
 * the same instrumentation), into `out`; the library then owns it, as it
 * owns what the Import was given, and must release it before the Import
 * returns: the consumer rules judge every export handed out so, one by
 * one (CONFORMANCE.md, "Reading an input more than once").
 *
 * The same holds for a round-trip library's Adopt (plugin_abi.h,
 * ADC_ROUND_TRIP_ENTRY_POINTS): around each entry point the harness makes
 * of an Adopt and an Export (harness/rule_api/round_trip.c), the library
 * is given a function that exports the Adopt's input afresh, laid out as
 * the Adopt's own (the reference's export of the fixture), and NULL after;
 * around a made ExportSchemaFromJson, whose Adopt is given a schema alone,
 * it exports the fixture's data as an ArrowDeviceArrayStream on the CPU,
 * for a library whose objects are made from data (a data frame).
 *
 * The Python shim (harness/python) exports it on both sides: a handover or
 * a source object may be asked for its structure as often as the library
 * likes.  A library without it reads what it is given once, as the plugin
 * ABI says.
 *
 * Plain C: the harness and the shim share it. */
#ifndef ADC_EXPORT_AGAIN_H
#define ADC_EXPORT_AGAIN_H

/* Exports the current Import's input again into `out`: an ArrowSchema, an
 * ArrowArray, an ArrowDeviceArray or an ArrowDeviceArrayStream, the kind
 * of the structure that Import was given.  NULL on success; otherwise a
 * message, valid until the next call, and `out` untouched.  Valid only
 * while the Import it was given for runs, on any thread. */
typedef const char* (*adc_export_again_function)(void* context, void* out);

/* <prefix>_SetExportAgain: `export_again` for the Import about to be
 * called (with its `context`), or NULL once it has returned. */
typedef void (*adc_set_export_again_function)(adc_export_again_function export_again, void* context);
#define ADC_SET_EXPORT_AGAIN_SUFFIX "SetExportAgain"

#endif /* ADC_EXPORT_AGAIN_H */
