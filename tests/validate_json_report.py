#!/usr/bin/env python3
"""Validates a JSON report of adc-conform against a JSON Schema with the
jsonschema package (Debian's python3-jsonschema, or PyPI's jsonschema).
Usage: validate_json_report.py SCHEMA REPORT [SCHEMA...].  The schemas
after the report are those SCHEMA's $refs reach, by their $id (the matrix
report's reach the run report's).  Prints each violation on a line and
exits 1 when there is one; 0 when the report is valid."""
import json
import sys
import warnings

import jsonschema

schema_path, report_path, referenced_paths = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
with open(report_path, encoding="utf-8") as f:
    report = json.load(f)
referenced = []
for path in referenced_paths:
    with open(path, encoding="utf-8") as f:
        referenced.append(json.load(f))
validator_class = jsonschema.validators.validator_for(schema)
validator_class.check_schema(schema)
# Resolved here, never fetched: each referenced schema by its $id.  The
# resolver serves jsonschema 4.10 (Debian 12) and later ones, which warn.
warnings.filterwarnings("ignore", category=DeprecationWarning)
resolver = jsonschema.RefResolver.from_schema(schema, store={s["$id"]: s for s in referenced})
validator = validator_class(schema, resolver=resolver)
errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
for error in errors:
    where = "/".join(str(p) for p in error.absolute_path) or "(root)"
    print(f"{report_path}: {where}: {error.message}")
sys.exit(1 if errors else 0)
