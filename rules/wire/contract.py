"""The contract, ``openapi.yaml``, as the check of what crosses the wire: the components' schemas
compiled into validators, and the problems of a value they refuse, each with its JSON pointer.

The API's decoder (api/wire.py) checks each request body against its component here before the
wire's readers build values from it; the library's public readers (``state_from_dict``,
``action_from_dict``, ...) check the value they are given against their own component (``check``),
so that a value read without the API is refused as the API would refuse it, at the same pointers.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from collections.abc import Iterable, Mapping
from typing import Any

import jsonschema_rs
import jsonschema
import yaml
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from ..errors import MalformedInput, Problem, pointer

# The contract is the repository's top-level openapi.yaml; the wheel carries a copy in the rules
# package, beside this package (setup.py's build step puts it there).
_HERE = Path(__file__).resolve().parent
OPENAPI_PATH = next((p for p in (_HERE.parent / "openapi.yaml", _HERE.parent.parent / "openapi.yaml") if p.is_file()),
                    _HERE.parent / "openapi.yaml")
_BASE = "urn:kalooki-referee:openapi"


@functools.lru_cache(maxsize=1)
def openapi_text() -> str:
    return OPENAPI_PATH.read_text(encoding="utf-8")


YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where PyYAML has it: the document is long


@functools.lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    document: dict[str, Any] = yaml.load(openapi_text(), Loader=YAML_LOADER)
    return document


def _rewrite(node: Any, fn: Any) -> Any:
    """A copy of a schema with ``fn`` applied to every object in it (bottom up)."""
    if isinstance(node, dict):
        return fn({k: _rewrite(v, fn) for k, v in node.items()})
    if isinstance(node, list):
        return [_rewrite(v, fn) for v in node]
    return node


def _python_anchors(node: dict[str, Any]) -> dict[str, Any]:
    """JSON Schema patterns are ECMA-262 regular expressions, in which ``$`` ends the string; in
    Python's ``re`` it also matches before a final newline.  The full validator reads them with
    ``\\Z`` so that both validators accept exactly the same strings."""
    pattern = node.get("pattern")
    if isinstance(pattern, str) and pattern.endswith("$") and not pattern.endswith("\\$"):
        return {**node, "pattern": pattern[:-1] + "\\Z"}
    return node


def _checked_by_the_core(node: dict[str, Any]) -> dict[str, Any]:
    """A schema the rules core checks itself (``x-checked-by``: a request's house rules, typed in the
    document for clients, loaded by rules/params.py from the same declarations after they are merged
    over the variant's) is checked here only for its shape and size, so that the core's answer (a 422
    invalid-rules naming the field) is the one a client gets."""
    if "x-checked-by" in node:
        return {k: node[k] for k in ("type", "maxProperties") if k in node}
    return node


# Every string a card-code pattern can accept is short and drawn from a small alphabet, so the
# pattern is also a finite set: the fast validator checks membership in that set (an ``enum``),
# which costs a fraction of running the regular expression on each of a state's hundred cards.
_RANKS = ("A", "K", "Q", "J", "10", "T", "0", "2", "3", "4", "5", "6", "7", "8", "9")
_NATURALS = [r + s for r in _RANKS for s in "SHDC"]
_CANDIDATES = (["JK"] + _NATURALS + [f"JK(={c})" for c in _NATURALS + list(_RANKS)] + list(_RANKS))


def _enumerated(node: dict[str, Any]) -> dict[str, Any]:
    pattern = node.get("pattern")
    if not isinstance(pattern, str) or "[SHDC]" not in pattern:
        return node
    accepted = [c for c in _CANDIDATES if re.fullmatch(pattern.removeprefix("^").removesuffix("$"), c)]
    rest = {k: v for k, v in node.items() if k not in ("pattern", "type")}
    return {**rest, "enum": accepted}


@functools.lru_cache(maxsize=None)
def _validator(component: str) -> jsonschema.Draft202012Validator:
    doc = _rewrite(_rewrite(openapi_document(), _checked_by_the_core), _python_anchors)
    registry = Registry().with_resource(_BASE, DRAFT202012.create_resource(doc))
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$ref": f"{_BASE}#/components/schemas/{component}"}
    return jsonschema.Draft202012Validator(schema, registry=registry,
                                           format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def _flatten(err: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """The errors worth showing: inside a oneOf, those of the branch whose ``type`` matched (or, among
    object branches, the one whose required properties are all there)."""
    if err.validator in ("oneOf", "anyOf") and err.context:
        by_branch: dict[str | int, list[jsonschema.ValidationError]] = {}
        for sub in err.context:
            by_branch.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
        candidates = [subs for subs in by_branch.values()
                      if not any(list(s.relative_path)[-1:] == ["type"]
                                 or (s.validator in ("const", "type") and not s.relative_path) for s in subs)]
        if len(candidates) > 1:
            # several object branches (AdjudicateRequest: a hand `state` or a `game`): keep the one
            # whose required properties are all present, when exactly one is
            complete = [subs for subs in candidates
                        if not any(s.validator == "required" and not s.relative_path for s in subs)]
            if len(complete) == 1:
                candidates = complete
        if len(candidates) == 1:
            return [e for s in candidates[0] for e in _flatten(s)]
    return [err]


@functools.lru_cache(maxsize=None)
def _fast(component: str) -> jsonschema_rs.Draft7Validator:
    """A compiled validator (jsonschema-rs, in Rust) for the common case, a valid request.  It only
    says yes or no; on no, the full validator above lists every problem with its pointer.  The components
    use no construct whose meaning differs between the drafts the two libraries implement (no
    ``$ref`` with sibling constraints, no formats), and tests check that both agree."""
    def draft7(node: dict[str, Any]) -> dict[str, Any]:
        ref = node.get("$ref")
        if isinstance(ref, str):
            node = {**node, "$ref": ref.replace("#/components/schemas/", "#/definitions/")}
        return _enumerated(_checked_by_the_core(node))
    schema = {"$schema": "http://json-schema.org/draft-07/schema#",
              "definitions": _rewrite(openapi_document()["components"]["schemas"], draft7),
              "$ref": f"#/definitions/{component}"}
    compiled = jsonschema_rs.Draft7Validator(schema)
    _COMPILED.add(component)
    return compiled


_COMPILED: set[str] = set()  # the components whose fast validator is compiled


def compiled_count(components: Iterable[str]) -> int:
    """How many of ``components`` have their fast validator compiled."""
    return len(_COMPILED.intersection(components))


def is_valid(component: str, body: Any) -> bool:
    return bool(_fast(component).is_valid(body))


def validate(component: str, body: Any, checked: bool = False) -> None:
    """Raise MalformedInput listing every place where ``body`` breaks ``components/schemas/<component>``
    (``checked``: the caller has already found it invalid and within refuse_overlong's sizes)."""
    if not checked:
        if is_valid(component, body):
            return
        refuse_overlong(body)
    problems = []
    # The full validator walks a oneOf per item and keeps every error: on a list of thousands of
    # broken items that costs seconds.  It reads a copy whose lists are cut to their first items
    # (a list over its schema's size is still over it), and the answer says so.
    checked, cut = cut_body(component, body)
    shortened = {where for where, _, _ in cut}
    errors = sorted(_validator(component).iter_errors(checked), key=lambda e: [str(p) for p in e.absolute_path])
    for top in errors:
        for err in _flatten(top):
            path = list(err.absolute_path)
            schema = err.schema if isinstance(err.schema, Mapping) else {}
            if err.validator == "minItems" and pointer(*path) in shortened:
                continue  # the list was cut here, not short in the request
            if err.validator == "additionalProperties" and isinstance(err.instance, dict):
                allowed = set(schema.get("properties", {}))
                extras = sorted(k for k in err.instance if k not in allowed) or [None]
                for extra in extras:
                    where = pointer(*path, extra) if extra is not None else pointer(*path)
                    problems.append(Problem(where, f"unknown field {extra!r}" if extra else err.message))
            elif err.validator == "required" and isinstance(err.instance, dict):
                for key in err.validator_value if isinstance(err.validator_value, list) else ():
                    if key not in err.instance:
                        problems.append(Problem(pointer(*path, key), "required field is missing"))
            elif err.validator == "pattern" and isinstance(err.instance, str) and schema.get("description"):
                # the document's own description of the format, e.g. of a card code
                shown = err.instance if len(err.instance) <= 40 else err.instance[:37] + "..."
                problems.append(Problem(pointer(*path), f"{shown!r} is not {schema['description']}"))
            else:
                message = err.message if len(err.message) < 300 else err.message[:297] + "..."
                problems.append(Problem(pointer(*path), message))
    unique = list(dict.fromkeys(problems))
    if unique:  # a cut list with problems in it: say that only its first items were checked
        notes = [Problem(where, f"a list of {length} items: only its first {kept} were checked for "
                                "the problems listed here") for where, length, kept in cut
                 if any(p.pointer == where or p.pointer.startswith(where + "/") for p in unique)]
        unique = notes[:10] + unique
        unique += _cut_over_their_size(component, cut, unique)
    else:  # what the fast validator refused lies past the items checked
        unique = [Problem(where, f"a list of {length} items, of which the first {kept} were checked: "
                                 "the body breaks the schema in one of its long lists (longer than the schema "
                                 "allows, or an item malformed after those checked)")
                  for where, length, kept in cut[:10]]
    if not unique:  # never accept what the fast validator refused, even if no message was found
        unique = [Problem("", f"the body does not match the {component} schema of openapi.yaml")]
    raise MalformedInput(unique[:MAX_PROBLEMS])



def check(component: str, data: Any) -> None:
    """Raise MalformedInput listing every place where ``data`` breaks ``components/schemas/<component>``,
    each pointer relative to ``data``: what the API's decoder refuses in a request body, at the same
    places, for a value a library reader is given directly (the readers of the wire trust the shape
    they read).  Unlike a parsed request, ``data`` may be any Python value: one the compiled
    validator cannot take (a key that is no string, an object that is no JSON value) is judged by
    the full validator alone, and one nested too deeply is refused before any walk of it."""
    try:
        if is_valid(component, data):
            return
    except ValueError:  # (a key or a value of no JSON type: named below)
        pass
    if value_depth(data) > MAX_JSON_DEPTH:
        raise MalformedInput(Problem("", f"nested more than {MAX_JSON_DEPTH} levels deep"))
    foreign = _not_json(data)
    if foreign:
        raise MalformedInput(foreign)
    refuse_overlong(data)
    validate(component, data, checked=True)


_JSON_SCALARS = (str, int, float, bool, type(None))


def _not_json(value: object) -> list[Problem]:
    """A problem for each place of ``value`` (nested at most MAX_JSON_DEPTH deep) that JSON cannot
    hold: a member name that is no string, a value that is no JSON value (a tuple, a set, an object)."""
    found: list[Problem] = []
    stack: list[tuple[object, tuple[object, ...]]] = [(value, ())]
    while stack and len(found) < MAX_PROBLEMS:
        node, path = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if not isinstance(k, str):
                    found.append(Problem(pointer(*path, k), f"a member name of type {type(k).__name__}: JSON "
                                                           "names are strings"))
                else:
                    stack.append((v, (*path, k)))
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(node))
        elif not isinstance(node, _JSON_SCALARS):
            found.append(Problem(pointer(*path), f"a {type(node).__name__}, which is no JSON value"))
    return sorted(found, key=lambda p: p.pointer)[:MAX_PROBLEMS]


MAX_JSON_DEPTH = 32  # the deepest valid request (a turn's swap_joker placing a meld) is under 10


def value_depth(value: object) -> int:
    """How deeply lists and objects nest in ``value``, counted up to one past MAX_JSON_DEPTH
    (iterative: no recursion on hostile input)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            if deepest > MAX_JSON_DEPTH:
                break
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node)
                         if isinstance(child, (dict, list)))
    return deepest


MAX_PROBLEMS = 50


def _contract_bound(keyword: str) -> int:
    """The largest value of ``keyword`` (``maxItems``, ``maxLength``, ``maxProperties``) in the
    contract's components: no request may hold more in any one place."""
    found: list[int] = []
    stack: list[Any] = [openapi_document()["components"]["schemas"]]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get(keyword), int):
                found.append(node[keyword])
            if keyword == "maxProperties" and isinstance(node.get("properties"), dict):
                found.append(len(node["properties"]))  # an object's declared fields
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return max(found)


@functools.lru_cache(maxsize=1)
def longest_list() -> int:
    """The most items a list of any request may hold: the largest ``maxItems`` of the contract."""
    return _contract_bound("maxItems")


@functools.lru_cache(maxsize=1)
def widest_object() -> int:
    """The most members an object of any request may hold: the largest ``maxProperties`` of the
    contract, or its largest count of declared fields."""
    return _contract_bound("maxProperties")


@functools.lru_cache(maxsize=1)
def longest_string() -> int:
    """The longest string (value or member name) any request may hold: the largest ``maxLength`` of
    the contract (a member name is a declared field, a player or meld id, or a house rule's name)."""
    return _contract_bound("maxLength")


SHOWN = 40  # the characters of an over-long name shown in a problem's pointer


def refuse_overlong(body: Any) -> None:
    """Raise MalformedInput naming each place of ``body`` over a size no request may reach: a list
    longer than longest_list(), an object wider than widest_object(), a member name or a string
    longer than longest_string().  Found without descending into what is refused (nor recursing: the
    body may nest deeply), and with no Python step per item of a list of scalars, so that the cost
    is bounded by the body's containers, never by what a refused one holds."""
    longest, widest, longest_text = longest_list(), widest_object(), longest_string()
    found: list[Problem] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(body, ())]
    while stack and len(found) < MAX_PROBLEMS:
        value, path = stack.pop()
        if isinstance(value, dict):
            if len(value) > widest:
                found.append(Problem(pointer(*path), f"an object of {len(value)} members: no object in a request "
                                                     f"may hold more than {widest}"))
                continue
            for k, v in value.items():
                if len(k) > longest_text:
                    found.append(Problem(pointer(*path, k[:SHOWN] + "..."),
                                         f"a member name of {len(k)} characters: no name in a request is longer "
                                         f"than {longest_text}"))
                elif isinstance(v, str):
                    if len(v) > longest_text:
                        found.append(_long_string(pointer(*path, k), v, longest_text))
                elif isinstance(v, (dict, list)):
                    stack.append((v, (*path, k)))
        elif isinstance(value, list):
            if len(value) > longest:
                found.append(Problem(pointer(*path), f"a list of {len(value)} items: no list in a request may "
                                                     f"hold more than {longest}"))
                continue
            # the item types and the strings' lengths in passes of C (set, map); a Python step only
            # for the items that are containers, or strings once one is known to be over the limit
            kinds = set(map(type, value))
            if str in kinds:
                texts = value if len(kinds) == 1 else [v for v in value if type(v) is str]
                if max(map(len, texts)) > longest_text:
                    found += [_long_string(pointer(*path, i), v, longest_text) for i, v in enumerate(value)
                              if type(v) is str and len(v) > longest_text][:MAX_PROBLEMS]
            if dict in kinds or list in kinds:
                stack.extend((v, (*path, i)) for i, v in enumerate(value) if isinstance(v, (dict, list)))
        elif isinstance(value, str) and len(value) > longest_text:
            found.append(_long_string(pointer(*path), value, longest_text))
    if found:
        raise MalformedInput(sorted(found, key=lambda p: p.pointer)[:MAX_PROBLEMS])


def _long_string(where: str, value: str, longest: int) -> Problem:
    return Problem(where, f"a string of {len(value)} characters: no string in a request is longer than {longest}")


CHECKED_ITEMS = 64   # beyond every list size that is checked item by item in a small request
CHECKED_OBJECTS = 8   # objects and lists inside lists checked in all beyond each list's first, over a value
                      # a reader reads: the Python validator spends a few milliseconds on each (a step tries every action)


@functools.lru_cache(maxsize=1)
def request_components() -> frozenset[str]:
    """The components that are request bodies (of the POST operations)."""
    return frozenset(op["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
                     for op in openapi_document()["paths"].values() if "requestBody" in op.get("post", {}))


def cut_body(component: str, body: Any) -> tuple[Any, list[tuple[str, int, int]]]:
    """``body`` cut as ``_cut_lists`` cuts it, with CHECKED_OBJECTS for the whole of it, or, for a
    request body, for each of its members: a member (a state, an action, a game) is checked within
    the bounds it gets when a library reader checks it alone, so that both find the same problems."""
    if component not in request_components() or not isinstance(body, dict):
        return _cut_lists(body)
    out, cut = {}, []
    for k, v in body.items():
        out[k], more = _cut_lists(v, pointer(k))
        cut += more
    return out, cut


def _cut_over_their_size(component: str, cut: list[tuple[str, int, int]], found: list[Problem]) -> list[Problem]:
    """A problem for each list that was cut short for the full validator and is longer than its
    place allows (a size the cut copy no longer shows), unless already named."""
    named = {p.pointer for p in found}
    out = []
    for where, length, _ in cut[:MAX_PROBLEMS]:  # (a bounded count of schema walks, whatever the body)
        most = most_items(component, [_unescape(part) for part in where.split("/")[1:]])
        if most is not None and length > most and where not in named:
            out.append(Problem(where, f"a list of {length} items: this list holds at most {most}"))
    return out


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def most_items(component: str, path: list[str]) -> int | None:
    """The most items the list at ``path`` (its steps, member names and item indices as text) in a
    ``component`` body may hold: its ``maxItems``, the largest over the schemas the place may answer
    to (the branches of a ``oneOf``); None where one of them sets no bound."""
    schemas = openapi_document()["components"]["schemas"]
    bounds: list[int | None] = []
    stack: list[tuple[Any, int]] = [({"$ref": f"#/components/schemas/{component}"}, 0)]
    seen: set[tuple[int, int]] = set()  # (a schema, a depth) walked once: references may loop
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, dict) or (id(node), depth) in seen:
            continue
        seen.add((id(node), depth))
        if "$ref" in node:
            stack.append((schemas.get(str(node["$ref"]).rsplit("/", 1)[-1]), depth))
            continue
        stack.extend((branch, depth) for key in ("oneOf", "anyOf", "allOf") for branch in node.get(key, ()))
        if depth == len(path):
            if node.get("type") == "array" or "maxItems" in node:
                bounds.append(node.get("maxItems"))
            continue
        step = path[depth]
        if isinstance(node.get("properties"), dict) and step in node["properties"]:
            stack.append((node["properties"][step], depth + 1))
        elif isinstance(node.get("additionalProperties"), dict):
            stack.append((node["additionalProperties"], depth + 1))
        if isinstance(node.get("items"), dict) and step.isdigit():
            stack.append((node["items"], depth + 1))
    if not bounds or None in bounds:
        return None
    return max(b for b in bounds if b is not None)


def _cut_lists(value: Any, at: str = "", budget: list[int] | None = None) -> tuple[Any, list[tuple[str, int, int]]]:
    """A copy of ``value`` whose lists keep at most CHECKED_ITEMS + 1 items (one more than checked,
    so that a size limit below it is still seen) and, over the whole body, at most CHECKED_OBJECTS
    items that are objects or lists themselves besides the first of each list; and (pointer, length, items kept) of each list cut.
    Bodies reach here already measured for depth (at most 32 levels)."""
    budget = [CHECKED_OBJECTS] if budget is None else budget
    cut: list[tuple[str, int, int]] = []
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out[k], more = _cut_lists(v, at + pointer(k), budget)
            cut += more
        return out, cut
    if isinstance(value, list):
        items = []
        for i, v in enumerate(value[:CHECKED_ITEMS + 1]):
            if isinstance(v, (dict, list)) and i > 0:  # each list's first item is always checked
                if budget[0] <= 0:
                    break
                budget[0] -= 1
            item, more = _cut_lists(v, at + pointer(i), budget)
            items.append(item)
            cut += more
        if len(items) < len(value):
            cut.insert(0, (at, len(value), len(items)))
        return items, cut
    return value, cut
