#!/usr/bin/env python3
"""Checks one JSON document against a JSON Schema (draft 2020-12).

  validate-json.py SCHEMA DOCUMENT

Exits 0 when it holds, 1 with each failure on standard error when it does
not, 2 when either file cannot be read as JSON. Used by the tests of
bravebot-mcp audit --json against docs/audit.schema.json. Works with
python3-jsonschema 4.10 (Debian 12) and later.
"""

import json
import sys

import jsonschema


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as file:
            schema = json.load(file)
        with open(argv[2], encoding="utf-8") as file:
            document = json.load(file)
    except (OSError, ValueError) as error:
        print(f"validate-json: {error}", file=sys.stderr)
        return 2
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document))
    for error in errors:
        where = "/".join(str(part) for part in error.absolute_path)
        print(f"validate-json: at /{where}: {error.message[:240]}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
