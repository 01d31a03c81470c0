#!/usr/bin/env python3
"""Validates recorded API answers against the exchange's published OpenAPI document.

Usage: validate.py OPENAPI.yaml ANSWERS.json [NEWER_ENUM_VALUE ...]

ANSWERS.json is a list of {"method", "path", "status", "body"} as a client received them. Each
answer is checked against the 200 response schema its path and method have in the document, with
formats checked (date-time among them) by the `jsonschema` library. A field the document does not
list is reported, not failed; an endpoint the document does not describe (it predates the tax
cursor and /v1/tax/balance) is reported and skipped, and so is an enum value the operator published
after it (NEWER_ENUM_VALUE: the adjustment types). Exit status 0 when every answer validates, 1
when one does not, 2 on bad input.
"""

import json
import re
import sys
from datetime import datetime

import jsonschema
import yaml


def date_time(value):
    """RFC 3339 date-time, as OpenAPI's `date-time` format means it."""
    if not isinstance(value, str):
        return True
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})", value):
        return False
    try:
        datetime.fromisoformat(value.replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


FORMATS = jsonschema.FormatChecker(formats=())
FORMATS.checks("date-time")(date_time)


def path_pattern(template):
    """`/v1/orders/{orderId}` as a regular expression matching one path segment per parameter."""
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile(
        "^" + "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$"
    )


def response_schema(doc, method, path):
    """The 200 response schema for `method path`; None when the document does not describe it,
    {} when it describes an answer with no content."""
    for template, ops in doc.get("paths", {}).items():
        if not path_pattern(template).match(path):
            continue
        op = ops.get(method.lower())
        if op is None:
            return None
        ok = op.get("responses", {}).get("200", {})
        content = ok.get("content") or {}
        media = content.get("application/json") or {}
        return media.get("schema", {})
    return None


def resolve(doc, schema):
    while isinstance(schema, dict) and "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = doc["components"]["schemas"][name]
    return schema


def unlisted(doc, schema, value, where, found):
    """Collects the fields of `value` that `schema` does not list."""
    schema = resolve(doc, schema)
    if not isinstance(schema, dict):
        return
    for part in schema.get("allOf", []):
        unlisted(doc, part, value, where, found)
    if isinstance(value, dict):
        props = schema.get("properties")
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if props is not None and key in props:
                unlisted(doc, props[key], item, f"{where}.{key}", found)
            elif isinstance(extra, dict):
                unlisted(doc, extra, item, f"{where}.{key}", found)
            elif props is not None:
                found.add(f"{where}.{key}")
    elif isinstance(value, list) and "items" in schema:
        for item in value:
            unlisted(doc, schema["items"], item, f"{where}[]", found)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        with open(argv[2], encoding="utf-8") as f:
            answers = json.load(f)
    except (OSError, ValueError, yaml.YAMLError) as e:
        print(f"validate.py: {e}", file=sys.stderr)
        return 2
    newer = set(argv[3:])
    failures = 0
    checked = 0
    for a in answers:
        name = f"{a['method']} {a['path']}"
        schema = response_schema(doc, a["method"], a["path"])
        if schema is None:
            print(f"not described by the document (skipped): {name}")
            continue
        root = {"$ref": "#/components/schemas/_answer", "components": dict(doc["components"])}
        root["components"]["schemas"] = dict(doc["components"]["schemas"], _answer=schema)
        validator = jsonschema.Draft4Validator(root, format_checker=FORMATS)
        errors = sorted(validator.iter_errors(a["body"]), key=lambda e: list(e.path))
        checked += 1
        for e in errors:
            where = "/".join(str(p) for p in e.path) or "(answer)"
            if e.validator == "enum" and e.instance in newer:
                print(f"published after the document: {name}: {where}: {e.instance}")
                continue
            failures += 1
            print(f"FAIL {name}: {where}: {e.message}")
        extra = set()
        unlisted(doc, schema, a["body"], "", extra)
        for field in sorted(extra):
            print(f"not listed by the document: {name}: {field}")
    print(f"openapi: {checked} answers checked, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
