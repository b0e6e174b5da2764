#!/usr/bin/env python3
"""Validates a JSON report of adc-conform against a JSON Schema with the
jsonschema package (Debian's python3-jsonschema, or PyPI's jsonschema).
Usage: validate_json_report.py SCHEMA REPORT.  Prints each violation on a
line and exits 1 when there is one; 0 when the report is valid."""
import json
import sys

import jsonschema

schema_path, report_path = sys.argv[1], sys.argv[2]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
with open(report_path, encoding="utf-8") as f:
    report = json.load(f)
validator_class = jsonschema.validators.validator_for(schema)
validator_class.check_schema(schema)
errors = sorted(validator_class(schema).iter_errors(report), key=lambda e: list(e.absolute_path))
for error in errors:
    where = "/".join(str(p) for p in error.absolute_path) or "(root)"
    print(f"{report_path}: {where}: {error.message}")
sys.exit(1 if errors else 0)
