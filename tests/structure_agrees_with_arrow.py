#!/usr/bin/env python3
"""The suite's structural verdict against Arrow C++'s full validation.

For the reference producer and every deliberately broken producer, on every
bundled fixture, this compares two verdicts on the same export:

- the suite's: adc-conform runs the array.structure.* rules and the layout
  rules (array.layout.buffers_and_children, array.dictionary.
  present_when_encoded) on the CPU (a rule failing:
  "invalid"; a case unresolved because a node is not laid out as its type:
  "unreadable"; otherwise "valid");
- Arrow C++'s: the library's ExportBatchFromJson, called through ctypes,
  imported into pyarrow (RecordBatch._import_from_c) with the fixture's
  schema as the reference exports it, and checked with validate(full=True)
  ("invalid" when it raises, and "unreadable" when the import itself
  refuses the arrays).  Both judge the arrays against the fixture's types:
  a schema that is wrong is the schema rules' business, not structure's.

They agree when both say valid, or both say the export is wrong (invalid or
unreadable on either side).  Each twin's exports run in a process of its
own: a twin that frees twice must not take the others with it.  Known
differences are listed below with their reason (CONFORMANCE.md,
"Structural validity").

    structure_agrees_with_arrow.py BUILD_DIR SOURCE_DIR

Exit status 0 when every verdict agrees (or differs as listed), 1 otherwise,
77 when pyarrow is not there (the test is then skipped, not passed).
"""

import ctypes
import glob
import json
import os
import subprocess
import sys
import tempfile

# Producer: why its verdicts may differ from Arrow C++'s (on every fixture
# it spoils), each confirmed in Arrow C++'s source (cpp/src/arrow/c/bridge.cc,
# ArrayImporter) and recorded in CONFORMANCE.md, "Structural validity".
KNOWN_DIFFERENCES = {
    "producer_union_with_validity_buffer":
        "Arrow C++ imports a sparse union with 2 buffers and a dense one with 3 as the legacy layout of older "
        "Arrow C++ versions (ARROW-14179); the format gives unions no validity buffer",
    "producer_null_and_run_end_with_buffers":
        "Arrow C++ imports a null array with 1 buffer as the legacy layout of older Arrow C++ versions; the "
        "format gives a null array no buffer",
}


def fixture_paths(source_dir):
    paths = []
    for folder in ("fixtures/data", "fixtures/columnar"):
        paths += sorted(glob.glob(os.path.join(source_dir, folder, "*.json")))
    return paths


def producers(build_dir):
    """(name, library path, symbol prefix) of every producer judged."""
    found = [("reference", os.path.join(build_dir, "libadc_reference.so"), "adc_reference")]
    for path in sorted(glob.glob(os.path.join(build_dir, "libbroken_producer_*.so"))):
        name = os.path.basename(path)[len("libbroken_"):-len(".so")]
        found.append((name, path, "broken"))
    return found


def suite_verdicts(build_dir, library):
    """fixture name -> the suite's verdict, from one adc-conform run."""
    with tempfile.TemporaryDirectory() as folder:
        report = os.path.join(folder, "report.json")
        subprocess.run(
            [os.path.join(build_dir, "adc-conform"), "--producer", library, "--device", "cpu", "--filter",
             "*/array.structure.*", "--filter", "*/array.layout.*", "--filter", "*/array.dictionary.*",
             "--report-json", report],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        with open(report, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
    verdicts = {}
    for case in cases:
        fixture = case["fixture"]
        status = case["status"]
        before = verdicts.get(fixture, "valid")
        if status == "fail" or before == "invalid":
            verdicts[fixture] = "invalid"
        elif status == "unresolved":
            verdicts[fixture] = "unreadable"
        else:
            verdicts[fixture] = before
    return verdicts


# ---- one library's exports, judged by Arrow C++ (run in a child process) --

def arrow_verdicts(reference, library, prefix, fixtures):
    import pyarrow as pa

    export_schema = getattr(ctypes.CDLL(reference), "adc_reference_CDataIntegration_ExportSchemaFromJson")
    export_schema.restype = ctypes.c_char_p
    export_schema.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    lib = ctypes.CDLL(library)
    export_batch = getattr(lib, prefix + "_CDataIntegration_ExportBatchFromJson")
    export_batch.restype = ctypes.c_char_p
    export_batch.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p]
    verdicts = {}
    for path in fixtures:
        name = os.path.basename(path)[:-len(".json")]
        with open(path, encoding="utf-8") as f:
            n_batches = len(json.load(f)["batches"])
        verdict = "valid"
        for b in range(n_batches):
            schema = ctypes.create_string_buffer(72)  # struct ArrowSchema
            array = ctypes.create_string_buffer(80)  # struct ArrowArray
            if export_schema(path.encode(), ctypes.addressof(schema)) is not None:
                verdict = "declined"
                break
            if export_batch(path.encode(), b, ctypes.addressof(array)) is not None:
                pa.Schema._import_from_c(ctypes.addressof(schema))  # releases it
                verdict = "declined"
                break
            try:
                imported = pa.Schema._import_from_c(ctypes.addressof(schema))
                batch = pa.RecordBatch._import_from_c(ctypes.addressof(array), imported)
            except Exception as error:  # the import refused the arrays
                verdict = "unreadable: " + str(error).splitlines()[0]
                break
            try:
                batch.validate(full=True)
            except pa.ArrowInvalid as error:
                verdict = "invalid: " + str(error).splitlines()[0]
                break
        verdicts[name] = verdict
    return verdicts


def judge_in_child(reference, library, prefix, fixtures):
    """Runs arrow_verdicts in a child; a crash there is that library's
    verdict on every fixture ("crashed")."""
    child = subprocess.run([sys.executable, __file__, "--arrow-verdicts", reference, library, prefix] + fixtures,
                           capture_output=True, text=True, check=False)
    if child.returncode != 0:
        return {os.path.basename(p)[:-len(".json")]: "crashed" for p in fixtures}
    return json.loads(child.stdout)


def agree(suite, arrow):
    if arrow in ("declined", "crashed") or suite is None:
        return None  # nothing to compare
    suite_wrong = suite != "valid"
    arrow_wrong = arrow != "valid"
    return suite_wrong == arrow_wrong


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--arrow-verdicts":
        print(json.dumps(arrow_verdicts(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])))
        return 0
    build_dir, source_dir = sys.argv[1], sys.argv[2]
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        print("not run: pyarrow is not installed for " + sys.executable)
        return 77
    fixtures = fixture_paths(source_dir)
    compared = disagreements = invalid_both = known = 0
    reference = producers(build_dir)[0][1]
    for name, library, prefix in producers(build_dir):
        suite = suite_verdicts(build_dir, library)
        arrow = judge_in_child(reference, library, prefix, fixtures)
        for fixture, arrow_verdict in sorted(arrow.items()):
            suite_verdict = suite.get(fixture, "valid")
            same = agree(suite_verdict, arrow_verdict)
            if same is None:
                continue
            compared += 1
            invalid_both += suite_verdict != "valid" and arrow_verdict != "valid"
            known += not same and name in KNOWN_DIFFERENCES
            if not same and name not in KNOWN_DIFFERENCES:
                disagreements += 1
                print(f"DISAGREE {name} on {fixture}: suite {suite_verdict}, Arrow C++ {arrow_verdict}")
    print(f"{compared} exports compared, {invalid_both} found wrong by both, {known} known differences "
          f"(KNOWN_DIFFERENCES), {disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
