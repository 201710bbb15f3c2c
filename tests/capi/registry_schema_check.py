"""Validate what libzarr wrote against the zarr-extensions registry's JSON schemas (run by
RegistrySchemas.WhatLibzarrWritesValidates in test_v3_registry_codecs.cpp).

usage: registry_schema_check.py <registry folder> <folder of zarr.json files>

For every zarr.json below the folder: its data_type, chunk_grid, chunk_key_encoding and
every codec (those nested in sharding_indexed, n5_default and conditional too) and the
types of a struct's fields are checked
against <registry>/<kind>/<name>/schema.json when the registry has one. The schemas'
$refs to the registry's GitHub URLs resolve to the local files. One line per check goes to
stdout: "ok <kind> <name> <file>", "fail <kind> <name> <file>: <why>", "schema-invalid <kind>
<name>: <why>" (a schema that is not valid JSON Schema itself) or "schema-defect <kind>
<name>: <why>" (a schema of a data type written as a bare name that rejects that name): the last two are reported,
not held against libzarr. A name with no folder in the registry is reported as
"unregistered <kind> <name> <file>" (the test decides which it accepts). Exit status 1 when
any check fails, 2 when jsonschema is missing.
"""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("skip: this Python lacks jsonschema (Debian: python3-jsonschema)")
    sys.exit(2)

BASE_URL = "https://raw.githubusercontent.com/zarr-developers/zarr-extensions/refs/heads/main/"
KINDS = {"data_type": "data-types", "chunk_grid": "chunk-grids",
         "chunk_key_encoding": "chunk-key-encodings", "codec": "codecs"}


def load_schemas(registry):
    """Every schema.json by (folder, name), and a store of them by their GitHub URL."""
    schemas, store = {}, {}
    for path in glob.glob(os.path.join(registry, "*", "*", "schema.json")):
        rel = os.path.relpath(path, registry)
        folder, name = rel.split(os.sep)[:2]
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        schemas[(folder, name)] = schema
        store[BASE_URL + rel.replace(os.sep, "/")] = schema
    return schemas, store


def name_of(entry):
    return entry if isinstance(entry, str) else entry.get("name")


def data_types(data_type):
    """A data type and, for a struct, the types of its fields (nested structs too)."""
    yield data_type
    if isinstance(data_type, dict) and data_type.get("name") == "struct":
        for field in data_type.get("configuration", {}).get("fields", []):
            if isinstance(field, dict) and "data_type" in field:
                yield from data_types(field["data_type"])


def entries(doc):
    """(kind, entry) for each extension point of a zarr.json, nested codecs and struct fields' types included."""
    if "data_type" in doc:
        for data_type in data_types(doc["data_type"]):
            yield "data_type", data_type
    for kind in ("chunk_grid", "chunk_key_encoding"):
        if kind in doc:
            yield kind, doc[kind]
    pending = list(doc.get("codecs", []))
    while pending:
        codec = pending.pop(0)
        yield "codec", codec
        config = codec.get("configuration", {}) if isinstance(codec, dict) else {}
        for key in ("codecs", "index_codecs"):
            pending.extend(config.get(key, []))


def main(registry, folder):
    schemas, store = load_schemas(registry)
    failed = False
    invalid_reported = set()
    for path in sorted(glob.glob(os.path.join(folder, "**", "zarr.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        rel = os.path.relpath(path, folder)
        for kind, entry in entries(doc):
            name = name_of(entry)
            schema = schemas.get((KINDS[kind], name))
            if schema is None:
                if not os.path.isdir(os.path.join(registry, KINDS[kind], str(name))):
                    print(f"unregistered {kind} {name} {rel}")
                continue
            cls = jsonschema.validators.validator_for(schema)
            try:
                cls.check_schema(schema)
            except jsonschema.SchemaError as e:
                if (kind, name) not in invalid_reported:
                    print(f"schema-invalid {kind} {name}: {e.message}")
                    invalid_reported.add((kind, name))
                continue
            resolver = jsonschema.RefResolver(base_uri=BASE_URL, referrer=schema, store=store)
            if kind == "data_type" and isinstance(entry, str) and not cls(schema, resolver=resolver).is_valid(name):
                # e.g. the complex_float8_* schemas, copied from float8_* without renaming. A type
                # written as an object (numpy.datetime64, struct, ...) is checked as written: its
                # schema rightly refuses the bare name.
                if (kind, name) not in invalid_reported:
                    print(f"schema-defect {kind} {name}: the schema rejects its own name")
                    invalid_reported.add((kind, name))
                continue
            try:
                errors = sorted(cls(schema, resolver=resolver).iter_errors(entry), key=str)
            except jsonschema.exceptions.UnknownType as e:
                print(f"schema-invalid {kind} {name}: {e}".replace("\n", " "))
                continue
            if errors:
                failed = True
                print(f"fail {kind} {name} {rel}: {errors[0].message} (in {json.dumps(entry)})")
            else:
                print(f"ok {kind} {name} {rel}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
