"""The files derived from the parameters' one declaration (the dataclasses of rules/params.py, with
their ``param`` metadata):

* rules/variant.schema.yaml, its ``$defs`` (the JSON Schema of a variant file's ``parameters``, in
  full and as a partial block: a child file's and a request's house rules);
* openapi.yaml, its ``Rules`` schema (a request's house rules, fully typed), between its markers;
* docs/parameters.md, the table of every parameter.

    python -m tools.params --write   # rewrite the three
    python -m tools.params --check   # exit 1 when one is out of date (tests/rules/test_params.py checks the same)
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from dataclasses import is_dataclass
from enum import StrEnum
from typing import Any, get_args, get_origin

import yaml

from kalooki_referee.rules.params import Rules, Spec, declared
from kalooki_referee.rules.wire.params import wire_value

ROOT = Path(__file__).resolve().parent.parent
VARIANT_SCHEMA = ROOT / "rules" / "variant.schema.yaml"
OPENAPI = ROOT / "openapi.yaml"
DOCS = ROOT / "docs" / "parameters.md"

GENERATED = "# -- generated from rules/params.py by python -m tools.params --write: do not edit below --\n"
RULES_BEGIN = "    # -- Rules: generated from rules/params.py by python -m tools.params --write: do not edit --\n"
RULES_END = "    # -- end of Rules --\n"

RULES_DESCRIPTION = (
    "House-rule overrides: a partial `parameters` block of the variant (see GET /v1/variants/{id} and "
    "docs/parameters.md), merged over the variant's own. An unknown rule, a value of the wrong type or range, "
    "or a combination the variant cannot play (more cards dealt than the pack holds) is a 422 invalid-rules "
    "naming the field under /rules.")
CHECKED_BY = ("rules/params.py: the service checks a request's rules by the declaration this schema is derived "
              "from, after merging them over the variant's (a 422 invalid-rules naming the field)")


# -- the declarations as JSON Schema ------------------------------------------------------------------

def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if "enum" in schema:
        return {**schema, "type": [schema["type"], "null"], "enum": [*schema["enum"], None]}
    return {**schema, "type": [schema["type"], "null"]}


def _bounds(_meta: Spec, low: str, high: str, lo: Any, hi: Any) -> dict[str, Any]:
    return {k: v for k, v in ((low, lo), (high, hi)) if v is not None}


def _json_of(kind: Any, meta: Spec, partial: bool) -> dict[str, Any]:
    origin, args = get_origin(kind), get_args(kind)
    size = meta.size or (None, None)
    if kind is bool:
        return {"type": "boolean", "const": meta.const} if meta.const is not None else {"type": "boolean"}
    if kind is int:
        return {"type": "integer", **_bounds(meta, "minimum", "maximum", meta.lo, meta.hi)}
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        return {"type": "string", "enum": [m.value for m in kind]}
    if isinstance(kind, type) and is_dataclass(kind):
        return json_schema(kind, partial)
    if origin is tuple:
        item = ({"type": "integer", **_bounds(meta, "minimum", "maximum", meta.lo, meta.hi)} if args[0] is int
                else {"type": "string", "enum": list(meta.choices or ())})
        return {"type": "array", "items": item, **_bounds(meta, "minItems", "maxItems", *size)}
    names = ({"pattern": meta.key_pattern.replace("\\Z", "$")} if args[0] is int
             else _bounds(meta, "minLength", "maxLength", *meta.name_length))
    value = (_json_of(args[1], dataclasses.replace(meta, const=None), partial) if args[1] is int
             else json_schema(args[1], partial))
    return {"type": "object", "propertyNames": names, "additionalProperties": value,
            **_bounds(meta, "minProperties", "maxProperties", *size)}


def json_schema(group: type = Rules, partial: bool = False) -> dict[str, Any]:
    """The JSON Schema of a group's parameters: every one, with what it means, its type, range and (where
    a file may leave it out) its default; unknown keys refused.  ``partial``: nothing required (house
    rules, and the file of a variant that extends another, give only what they change)."""
    properties: dict[str, Any] = {}
    for p in declared(group):
        schema = _json_of(p.kind, p.meta, partial)
        schema = _nullable(schema) if p.nullable else schema
        if not p.required and not partial:  # (a house rule's default is the variant's value)
            schema["default"] = wire_value(p.default)
        properties[p.name] = {"description": p.meta.doc, **schema}
    required = [] if partial else [p.name for p in declared(group) if p.required]
    return {"type": "object", "additionalProperties": False, **({"required": required} if required else {}),
            "properties": properties}


def _dump(value: Any, indent: int) -> str:
    text = yaml.dump(value, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                     default_flow_style=None, allow_unicode=True, width=110)
    return "".join(" " * indent + line if line.strip() else line for line in text.splitlines(keepends=True))


def variant_schema_defs() -> dict[str, Any]:
    return {"$defs": {"parameters": json_schema(Rules), "partial_parameters": json_schema(Rules, partial=True)}}


def openapi_rules() -> dict[str, Any]:
    """openapi.yaml's ``Rules``, and a named component for each group that may be null (``RulesContract``
    for ``contract``...): a generated client then names each such group after it, not ``RulesContractType0``
    after a branch of a nullable type."""
    partial = json_schema(Rules, partial=True)
    named: dict[str, Any] = {}
    properties = _name_nullable_objects(partial["properties"], "Rules", named)
    return {"Rules": {"type": "object", "maxProperties": 32, "description": RULES_DESCRIPTION,
                      "x-checked-by": CHECKED_BY, "additionalProperties": False,
                      "properties": properties}, **named}


def _name_nullable_objects(properties: dict[str, Any], prefix: str, named: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, schema in properties.items():
        name = prefix + "".join(part.capitalize() for part in key.split("_"))
        schema = dict(schema)
        if isinstance(schema.get("properties"), dict):
            schema["properties"] = _name_nullable_objects(schema["properties"], name, named)
        if schema.get("type") == ["object", "null"]:
            description = schema.pop("description", None)
            named[name] = {**schema, "type": "object"}
            schema = {**({"description": description} if description else {}),
                      "oneOf": [{"$ref": f"#/components/schemas/{name}"}, {"type": "null"}]}
        out[key] = schema
    return out


def _type_name(kind: Any) -> str:
    origin, args = get_origin(kind), get_args(kind)
    if kind is bool:
        return "boolean"
    if kind is int:
        return "integer"
    if origin is tuple:
        return f"list of {_type_name(args[0])}"
    if origin is not None:
        return f"table of {_type_name(args[1])}"
    if hasattr(kind, "__members__"):
        return "choice"
    return "group"


def _values(p: Any) -> str:
    meta = p.meta
    if meta.const is not None:
        return f"`{str(meta.const).lower()}` only"
    if hasattr(p.kind, "__members__"):
        return ", ".join(f"`{m.value}`" for m in p.kind)
    if meta.choices:
        return ", ".join(f"`{c}`" for c in meta.choices)
    parts = []
    if meta.lo is not None or meta.hi is not None:
        lo = meta.lo if meta.lo is not None else "..."
        hi = meta.hi if meta.hi is not None else "..."
        parts.append(f"{lo} to {hi}")
    if isinstance(meta.keys, str):
        parts.append(f"keys `{meta.keys.replace(chr(92) + 'Z', '$')}`")
    elif meta.keys:
        parts.append(f"names of {meta.keys[0]} to {meta.keys[1]} characters")
    if meta.size:
        lo, hi = meta.size
        parts.append(f"{lo if lo is not None else 0} to {hi} entries")
    return "; ".join(parts)


def _rows(group: type, at: str) -> list[str]:
    rows = []
    for p in declared(group):
        pointer = f"{at}/{p.name}"
        kind = _type_name(p.kind) + (" or null" if p.nullable else "")
        default = "" if p.required else "`" + yaml.safe_dump(wire_value(p.default), default_flow_style=True,
                                                             width=1000).strip().removesuffix("...").strip() + "`"
        rows.append(f"| `{pointer}` | {kind} | {_values(p)} | {default} | {p.meta.doc} |")
        if hasattr(p.kind, "__dataclass_fields__"):
            rows += _rows(p.kind, pointer)
        elif get_origin(p.kind) is not None and hasattr(get_args(p.kind)[-1], "__dataclass_fields__"):
            rows += _rows(get_args(p.kind)[-1], pointer + "/<key>")
    return rows


def parameters_doc() -> str:
    return "\n".join([
        "# Parameters",
        "",
        "<!-- generated from rules/params.py by python -m tools.params --write: do not edit -->",
        "",
        "Every parameter of a variant (its file's `parameters`, `GET /v1/variants/{id}`) and of a request's house",
        "rules (`rules`, a partial block merged over the variant's), by its JSON pointer. A parameter with a",
        "default may be left out of a variant file; every other one is required in a root file (one that extends",
        "none). \"or null\": null is a value. The cross-field checks (the pack must hold the deal, a set's size",
        "must fit the suits and jokers, a tournament must fit the tables) are in `rules/wire/variant.py`. The same",
        "declarations give the JSON Schema in `rules/variant.schema.yaml` and openapi.yaml's `Rules`.",
        "",
        "| parameter | type | values | default | meaning |",
        "|---|---|---|---|---|",
        *_rows(Rules, ""),
        "",
    ])


def rendered() -> dict[Path, str]:
    """Each derived file as the declarations give it."""
    schema_text = VARIANT_SCHEMA.read_text(encoding="utf-8")
    head = schema_text.partition(GENERATED)[0]
    openapi_text = OPENAPI.read_text(encoding="utf-8")
    if RULES_BEGIN not in openapi_text or RULES_END not in openapi_text:
        raise SystemExit(f"openapi.yaml has no lines {RULES_BEGIN.strip()!r} ... {RULES_END.strip()!r}")
    before, _, rest = openapi_text.partition(RULES_BEGIN)
    after = rest.partition(RULES_END)[2]
    return {
        VARIANT_SCHEMA: head + GENERATED + _dump(variant_schema_defs(), 0),
        OPENAPI: before + RULES_BEGIN + _dump(openapi_rules(), 4) + RULES_END + after,
        DOCS: parameters_doc(),
    }


def stale() -> list[Path]:
    return [path for path, text in rendered().items()
            if not path.exists() or path.read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the derived files")
    mode.add_argument("--check", action="store_true", help="exit 1 when one is out of date")
    args = parser.parse_args(argv)
    if args.check:
        out = stale()
        for path in out:
            print(f"{path.relative_to(ROOT)} is out of date: run python -m tools.params --write")
        return 1 if out else 0
    for path, text in rendered().items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
