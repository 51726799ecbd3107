"""A variant on the wire: a variant file (YAML, ``rules/variants/``) with its parent's and its rulings
(``rules/decisions.yaml``) read into the typed ``Variant``; a request's house rules laid over it
(``with_house_rules``); a variant written as ``GET /v1/variants/{id}`` serves it (``variant_wire``).

A file may ``extends:`` another; its ``parameters`` are merged over the parent's, and it names only
the clauses it adds and drops (``clauses_add``, ``clauses_drop``).  A request's house rules are a
partial ``parameters`` block merged the same way.  The merged result is checked against
``rules/variant.schema.yaml``, the parameters' declarations (``wire.params``) and a few cross-field
constraints; any unknown key or impossible value is an error naming its field.  Variants are read
once and kept, and so is each variant with the same house rules.
"""
from __future__ import annotations

import copy
import functools
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, TypedDict

import jsonschema
import orjson
import yaml

from ..clauses import registry
from ..errors import InvalidRules, Problem, UnknownVariant, pointer
from ..params import Rules
from ..variant import Override, Ruling, Variant, VariantSource, parameter_at
from .params import RULES_SCHEMA, load_rules, wire_value

HERE = Path(__file__).resolve().parent.parent
VARIANT_DIR = HERE / "variants"


@functools.lru_cache(maxsize=1)
def variant_schema() -> dict[str, Any]:
    with open(HERE / "variant.schema.yaml", encoding="utf-8") as fh:
        schema: dict[str, Any] = yaml.safe_load(fh)
        return schema


@functools.lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    """The variant file's metadata checked by the schema; its parameters are left to ``load_rules`` (the
    same declarations, whose messages name the known fields beside an unknown one) and the cross checks."""
    metadata = {k: v for k, v in variant_schema().items() if k not in ("allOf", "$defs")}
    metadata["required"] = [*metadata["required"], "clauses"]   # (a child's, merged from its parent's)
    return jsonschema.Draft202012Validator(metadata)


MAX_RULES_DEPTH = 6


def _depth(value: Any) -> int:
    """How deeply ``value`` nests, found without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        if d > MAX_RULES_DEPTH:
            break
        if isinstance(node, Mapping):
            stack.extend((v, d + 1) for v in node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend((v, d + 1) for v in node)
    return deepest


def deep_merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


# -- house rules: a partial parameters block, kept by the variant as (pointer, value) pairs ----------

def _leaf(value: Any) -> Any:
    """A house rule's value as the variant keeps it: a list as a tuple (hashable)."""
    return tuple(_leaf(v) for v in value) if isinstance(value, (list, tuple)) else value


def overrides_of(rules: Mapping[str, Any], at: str = "") -> tuple[Override, ...]:
    """House rules as the parameters they set: (pointer, value) for each value that is not an object."""
    out: list[Override] = []
    for key, value in rules.items():
        here = at + pointer(key)
        if isinstance(value, Mapping):
            out += overrides_of(value, here)
        else:
            out.append((here, _leaf(value)))
    return tuple(out)


def pointers_of(tree: Mapping[str, Any], at: str = "") -> frozenset[str]:
    """Every pointer a partial parameters block writes: each key's, at every depth."""
    out: set[str] = set()
    for key, value in tree.items():
        here = at + pointer(key)
        out.add(here)
        if isinstance(value, Mapping):
            out |= pointers_of(value, here)
    return frozenset(out)


def _unfrozen(value: Any) -> Any:  # pragma: no cover - house rules over house rules: the API lays one set over a file
    return [_unfrozen(v) for v in value] if isinstance(value, tuple) else value


def overrides_wire(overrides: tuple[Override, ...]) -> dict[str, Any]:
    """The house rules a variant keeps, written back as the nested object they were sent as."""
    out: dict[str, Any] = {}
    for at, value in overrides:  # pragma: no cover - as _unfrozen (the API asks for a file's variant, with none)
        *groups, last = [t.replace("~1", "/").replace("~0", "~") for t in at.lstrip("/").split("/")]
        node = out
        for name in groups:
            node = node.setdefault(name, {})
        node[last] = _unfrozen(value)
    return out


# Variants with house rules, resolved once: (variant, its house rules, pointer, canonical rules) -> Variant.
_RESOLVED: dict[tuple[str, bytes, str, bytes], Variant] = {}
MAX_RESOLVED = 512


def with_house_rules(variant: Variant, rules: Mapping[str, Any] | None, base_pointer: str = "/rules") -> Variant:
    """``variant`` with house-rule overrides applied (validated; errors name the field).  A variant
    with the same house rules is resolved once and kept (by its canonical rules)."""
    if not rules:
        return variant
    if not isinstance(rules, Mapping):  # pragma: no cover - the request schema admits only an object or null
        raise InvalidRules(Problem(base_pointer, "house rules are an object of parameter overrides"))
    if _depth(rules) > MAX_RULES_DEPTH:
        raise InvalidRules(Problem(base_pointer, f"house rules nest at most {MAX_RULES_DEPTH} levels"))
    sent = overrides_wire(variant.overrides)
    try:
        key = (variant.id, orjson.dumps(sent, option=orjson.OPT_SORT_KEYS), base_pointer,
               orjson.dumps(rules, option=orjson.OPT_SORT_KEYS))
    except TypeError:  # pragma: no cover - an integer beyond 64 bits, refused below; JSON bodies read it as a float
        key = None
    if key is not None and key in _RESOLVED:
        return _RESOLVED[key]
    merged = deep_merge(wire_value(variant.rules), rules)   # (every group written: one left to its default too)
    typed = _check_parameters(merged, base_pointer)
    # a group the variant's files leave to its default is shown whole once a house rule changes it
    defaulted = {k: merged[k] for k in rules if pointer(k) not in variant.written}
    resolved = Variant(variant.id, variant.name, variant.family, variant.extends, variant.sources, variant.clauses,
                       variant.decisions, typed, variant.clause_map, overrides_of(deep_merge(sent, rules)),
                       variant.status, variant.not_enforced,
                       variant.written | pointers_of(defaulted) | pointers_of(rules))
    if key is not None:
        if len(_RESOLVED) >= MAX_RESOLVED:  # pragma: no cover - past 512 house-rule sets
            _RESOLVED.pop(next(iter(_RESOLVED)))
        _RESOLVED[key] = resolved
    return resolved


# -- a variant written ---------------------------------------------------------------------------

class VariantDict(TypedDict):
    """A variant on the wire (``GET /v1/variants/{id}``)."""
    id: str
    name: str
    family: str
    extends: str | None
    sources: list[dict[str, Any]]
    clauses: list[str]
    decisions: list[dict[str, Any]]
    clause_map: dict[str, str]
    parameters: dict[str, Any]
    overrides: dict[str, Any]
    status: str
    not_enforced: list[str]
    tables: dict[str, dict[str, Any]]


def source_wire(source: VariantSource) -> dict[str, Any]:  # pragma: no cover - served by GET /v1/variants; the vectors only POST
    out: dict[str, Any] = {"document": source.document, "sections": list(source.sections)}
    if source.role is not None:
        out["role"] = source.role
    return out


def ruling_wire(ruling: Ruling) -> dict[str, Any]:  # pragma: no cover - served by GET /v1/variants; the vectors only POST
    """A ruling as decisions.yaml writes it."""
    return {"id": ruling.id, "ruling": ruling.ruling, "reason": ruling.reason, "sources": list(ruling.sources),
            "switch": ruling.switch, "clauses": list(ruling.clauses)}


def parameters_wire(variant: Variant) -> dict[str, Any]:  # pragma: no cover - served by GET /v1/variants; the vectors only POST
    """The parameters of the variant its files and house rules write (``Variant.written``), resolved:
    its parents' under its own, its house rules over them."""
    return _written(wire_value(variant.rules), variant.written, "")


def _written(tree: Mapping[str, Any], written: frozenset[str], at: str) -> dict[str, Any]:  # pragma: no cover - served by GET /v1/variants; the vectors only POST
    out = {}
    for key, value in tree.items():
        here = at + pointer(key)
        if here in written:
            out[key] = _written(value, written, here) if isinstance(value, Mapping) else value
    return out


def tables_wire(variant: Variant) -> dict[str, dict[str, Any]]:  # pragma: no cover - served by GET /v1/variants; the vectors only POST
    """Each table size the variant seats, by its player count: the cards of the pack it plays with
    (``pack``), the cards dealt to each player in the hand a deal starts with (``dealt``) and, in a
    contract game, in each hand played (``dealt_by_hand``, by the hand's number), as the core works
    them out, so that a client counts a position's cards without knowing how a pack is made up or
    how a variant's parameters combine."""
    rules = variant.rules
    contract = rules.contract
    tables: dict[str, dict[str, Any]] = {}
    for n in range(rules.players.min, rules.players.max + 1):
        table: dict[str, Any] = {"pack": rules.pack_for(n).size,
                                 "dealt": rules.cards_for(n, contract.first if contract is not None else 0)}
        if contract is not None:
            table["dealt_by_hand"] = {str(h): rules.cards_for(n, h) for h in range(contract.first, contract.last + 1)}
        tables[str(n)] = table
    return tables


def variant_wire(variant: Variant) -> VariantDict:  # pragma: no cover - served by GET /v1/variants/{id}; the vectors only POST
    return {
        "id": variant.id, "name": variant.name, "family": variant.family, "extends": variant.extends,
        "sources": [source_wire(s) for s in variant.sources], "clauses": list(variant.clauses),
        "decisions": [ruling_wire(d) for d in variant.decisions], "clause_map": dict(variant.clause_map),
        "parameters": parameters_wire(variant), "overrides": overrides_wire(variant.overrides),
        "status": variant.status, "not_enforced": list(variant.not_enforced), "tables": tables_wire(variant),
    }


# -- checking the parameters ---------------------------------------------------------------------

def _known_fields(path: tuple[str, ...]) -> list[str] | None:
    """The parameter names the schema knows at ``path`` (for the message on an unknown one)."""
    schema: Any = RULES_SCHEMA
    for key in path:
        f = schema.fields.get(key) if hasattr(schema, "fields") else None
        if f is None or not hasattr(f, "schema"):
            return None
        schema = f.schema
    return sorted(schema.fields)


def _check_parameters(params: dict[str, Any], base_pointer: str) -> Rules:
    """``params`` as typed ``Rules``; InvalidRules naming every bad field."""
    typed, errors = load_rules(params)
    problems = []
    for path, message in sorted(errors):
        if message == "Unknown field.":
            known = _known_fields(path[:-1])
            shown = path[-1] if len(path[-1]) <= 40 else path[-1][:37] + "..."
            message = f"unknown rule {shown!r}" + (f"; known here: {', '.join(known)}" if known else "")
        problems.append(Problem(base_pointer + pointer(*path), message))
    if not problems:  # (the schema took JSON's 8.0 as the integer 8; the cross checks read the raw values)
        problems = _cross_checks(_integral(params), base_pointer)
    if problems or typed is None:
        raise InvalidRules(problems or [Problem(base_pointer, "invalid parameters")])
    return typed


def _integral(value: Any) -> Any:
    """``value`` with every whole-number float (JSON's ``8.0``) written as the integer it is."""
    kind = type(value)
    if kind is float and value.is_integer():
        return int(value)
    if kind is dict or kind is MappingProxyType:
        return {k: _integral(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_integral(v) for v in value]
    return value


def _cross_checks(params: dict[str, Any], base_pointer: str) -> list[Problem]:
    """What the parameters' shapes cannot say alone: the values that must agree with one another."""
    problems = []
    players = params["players"]
    if players["min"] > players["max"]:
        problems.append(Problem(base_pointer + "/players/min", "min is greater than max"))
    contract_problems, hands = _contract_checks(params.get("contract"), base_pointer)
    problems += contract_problems
    problems += _pack_checks(params, hands, base_pointer)
    problems += _deal_checks(params, base_pointer)
    problems += _set_checks(params, base_pointer)
    if params.get("tournament") is not None:  # every table of the tournament is a game of this variant
        problems += _tournament_checks(params["tournament"], players, base_pointer + "/tournament")
    return problems


def _contract_checks(contract: dict[str, Any] | None, base_pointer: str) -> tuple[list[Problem], list[str]]:
    """A contract schedule's problems, and the hands it plays that have a contract."""
    if contract is None:
        return [], []
    problems = []
    if contract["first"] > contract["last"]:
        problems.append(Problem(base_pointer + "/contract/first", "the first hand comes after the last"))
    schedule = contract["hands"]
    hands = [str(h) for h in range(contract["first"], contract["last"] + 1)]
    problems += [Problem(base_pointer + f"/contract/hands/{h}", f"hand {h} is played but has no contract")
                 for h in hands if h not in schedule]
    hands = [h for h in hands if h in schedule]
    problems += [Problem(base_pointer + f"/contract/hands/{h}", "a contract asks for at least one meld")
                 for h in hands if not schedule[h]["sets"] + schedule[h]["runs"]]
    return problems, hands


def _pack_checks(params: dict[str, Any], hands: list[str], base_pointer: str) -> list[Problem]:
    """For each number of players: the pack holds the deal, the upcard and a stock card, and the
    packets make a hand."""
    players, pack, deal = params["players"], params["pack"], params["deal"]
    table, packs = deal["cards_by_players"] or {}, pack.get("by_players") or {}
    schedule: dict[str, Any] = params["contract"]["hands"] if hands else {}
    for n in range(players["min"], players["max"] + 1):
        size_of = packs.get(str(n), pack)
        size = 52 * size_of["decks"] + size_of["jokers"]
        dealt = ([(schedule[h]["cards"], f"/contract/hands/{h}/cards") for h in hands] if hands else
                 [(table.get(str(n), deal["cards_each"]),
                   f"/deal/cards_by_players/{n}" if str(n) in table else "/deal/cards_each")])
        each, field = max(dealt)
        needed = n * each + (1 if deal["upcard"] else 0) + 1
        if needed > size:
            return [Problem(base_pointer + field, f"{n} players x {each} cards, the upcard and a stock card need "
                                                  f"{needed} cards but the pack has {size}")]
        if deal["packets"] is not None and sum(deal["packets"]) != each:
            return [Problem(base_pointer + "/deal/packets",
                            f"the packets add up to {sum(deal['packets'])} but {n} players get {each} cards each")]
    return []


def _deal_checks(params: dict[str, Any], base_pointer: str) -> list[Problem]:
    """Tables keyed by the number of players stay within the variant's; the cut and the upcard agree."""
    players, pack, deal = params["players"], params["pack"], params["deal"]
    problems = []
    for name, keyed in (("deal/cards_by_players", deal["cards_by_players"] or {}),
                        ("pack/by_players", pack.get("by_players") or {})):
        problems += [Problem(base_pointer + f"/{name}/{key}", f"the variant is for {players['min']} to {players['max']} players")
                     for key in keyed if not players["min"] <= int(key) <= players["max"]]
    if deal["joker_on_cut"] and not pack["jokers"]:
        problems.append(Problem(base_pointer + "/deal/joker_on_cut", "the pack has no joker to show on the cut"))
    if deal["joker_on_cut"] and deal.get("dealer_cut_bonus") is not None:
        problems.append(Problem(base_pointer + "/deal/dealer_cut_bonus",
                                "one cut either shows a card to the cutter or is the dealer's count, not both"))
    if params["draw"]["dealer_upcard_option"] and not deal["upcard"]:
        problems.append(Problem(base_pointer + "/draw/dealer_upcard_option", "the dealer's option needs an upcard"))
    return problems


def _set_checks(params: dict[str, Any], base_pointer: str) -> list[Problem]:
    sets, problems = params["melds"]["set"], []
    if sets["min"] > sets["max"]:
        problems.append(Problem(base_pointer + "/melds/set/min", "min is greater than max"))
    if sets["distinct_suits"] and sets["max"] > 4 + params["pack"]["jokers"]:
        problems.append(Problem(base_pointer + "/melds/set/max", "a set of distinct suits cannot be that long"))
    if sets.get("min_naturals", 1) > sets["min"]:
        problems.append(Problem(base_pointer + "/melds/set/min_naturals", "a set cannot need more naturals than cards"))
    return problems


def _tournament_checks(tournament: dict[str, Any], players: dict[str, Any], at: str) -> list[Problem]:
    """Every table of the tournament (qualifying, semi-final, final) seats a number the game allows."""
    lo, hi, problems = players["min"], players["max"], []
    if not lo <= tournament["table_seats"] <= hi:
        problems.append(Problem(at + "/table_seats", f"a table seats {tournament['table_seats']}; the game is "
                                                     f"for {lo} to {hi} players"))
    semi = -(-tournament["tables_max"] // tournament["semi_finals"])  # the winners dealt to a semi-final
    if semi > hi:
        problems.append(Problem(at + "/semi_finals", f"{tournament['tables_max']} qualifying winners dealt to "
                                                     f"{tournament['semi_finals']} semi-finals seat {semi} at one; "
                                                     f"the game is for at most {hi} players"))
    final = tournament["semi_finals"] * tournament["advance_per_semi_final"]
    if final > hi:
        problems.append(Problem(at + "/advance_per_semi_final", f"the final would seat {final}; the game is for "
                                                                f"at most {hi} players"))
    return problems


def _load_file(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("", f"{path.name} is not a mapping"))
    return data


def _validate_file(data: dict[str, Any], name: str) -> None:
    """A file's metadata (its rulings are checked where they are written, in decisions.yaml)."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules([Problem(pointer(*e.absolute_path), f"{name}: {e.message}") for e in errors])


def _ruling(entry: Mapping[str, Any]) -> Ruling:
    """A ruling as decisions.yaml writes it (its shape checked by variant.schema.yaml's ``decisions``)."""
    return Ruling(entry["id"], entry["ruling"], entry["reason"], tuple(entry.get("sources") or ()),
                  entry.get("switch"), tuple(entry["clauses"]))


def _adopted(data: Mapping[str, Any], own: list[Ruling], directory: str, name: str) -> list[Ruling]:
    """The rulings a file adopts from another variant (``adopt_decisions``) before its own."""
    adopt = data.get("adopt_decisions")
    if not (isinstance(adopt, dict) and isinstance(adopt.get("ids"), list)):
        return own
    source = {d.id: d for d in _load_variant(str(adopt.get("from")), directory).decisions}
    missing = [i for i in adopt["ids"] if i not in source]
    if missing:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/adopt_decisions/ids", f"{name}: no such decisions in {adopt.get('from')}: {missing}"))
    ids = {d.id for d in own}
    return [source[i] for i in adopt["ids"] if i not in ids] + own


def _inherit(data: dict[str, Any], decisions: list[Ruling], directory: str,
             name: str) -> tuple[dict[str, Any], list[Ruling]]:
    """A file that extends another, with its parent's parameters under its own, its clauses, the
    parent's rulings (unless it rules on the same point: the same id), clause map and status."""
    base = _load_variant(data["extends"], directory)
    params = deep_merge(wire_value(base.rules), data.get("parameters") or {})
    data = {**data, "parameters": params, "clauses": _inherited_clauses(data, base, name)}
    own = {d.id for d in decisions}
    decisions = [d for d in base.decisions if d.id not in own] + decisions
    data["clause_map"] = {**base.clause_map, **(data.get("clause_map") or {})}
    data.setdefault("status", base.status)
    # a preview's clauses not enforced yet: the parent's that this variant plays, and its own
    data["not_enforced"] = ([c for c in base.not_enforced if c in data["clauses"]]
                            + [c for c in data.get("not_enforced", ()) if c not in base.not_enforced])
    return data, decisions


@functools.lru_cache(maxsize=None)
def _load_variant(variant_id: str, directory: str) -> Variant:
    path = Path(directory) / f"{variant_id}.yaml"
    if not path.is_file():  # pragma: no cover - load_variant looks the id up among the files first
        raise UnknownVariant(Problem("/variant", f"no variant {variant_id!r}; known: {', '.join(variant_ids(directory))}"))
    data = _load_file(path)
    if "decisions" in data:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/decisions", f"{path.name}: a variant's rulings are kept in {RULINGS_FILE}, "
                                                 f"under {variant_id}"))
    own_decisions = list(_rulings(directory).get(variant_id, ()))
    decisions = _adopted(data, own_decisions, directory, path.name)
    written = pointers_of(data.get("parameters") or {})
    if data.get("extends"):
        written |= _load_variant(data["extends"], directory).written
        data, decisions = _inherit(data, decisions, directory, path.name)
    elif "clauses_add" in data or "clauses_drop" in data:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/clauses_add", f"{path.name}: a file that extends no other lists its clauses "
                                                   "under clauses"))
    _validate_file(data, path.name)
    if data["id"] != variant_id:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/id", f"{path.name}: id {data['id']!r} does not match the file name"))
    typed = _check_parameters(data["parameters"], "/parameters")
    _check_decisions(data, typed, own_decisions)
    stray = [c for c in data.get("not_enforced", ()) if c not in data["clauses"]]
    if stray:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/not_enforced", f"{path.name}: not clauses of the variant: {stray}"))
    sources = tuple(VariantSource(s["document"], tuple(s["sections"]), s.get("role")) for s in data["sources"])
    return Variant(data["id"], data["name"], data["family"], data.get("extends"), sources, tuple(data["clauses"]),
                   tuple(decisions), typed, MappingProxyType(dict(data.get("clause_map") or {})),
                   status=data.get("status", "complete"), not_enforced=tuple(data.get("not_enforced", ())),
                   written=written)


RULINGS_FILE = "decisions.yaml"


@functools.lru_cache(maxsize=None)
def _rulings(directory: str) -> Mapping[str, tuple[Ruling, ...]]:
    """The referee's rulings (``decisions.yaml`` beside the variants' folder), by the id of the variant
    that rules: each is written once and inherited (``extends``) or adopted (``adopt_decisions``)."""
    path = Path(directory).parent / RULINGS_FILE
    data = _load_file(path) if path.is_file() else {}
    problems = [Problem(pointer(v), f"{RULINGS_FILE}: {v!r} is not a variant")
                for v in sorted(set(data) - _known_ids(directory))]
    # each variant's list has the shape variant.schema.yaml gives a variant's merged `decisions`
    check = jsonschema.Draft202012Validator(variant_schema()["properties"]["decisions"])
    problems += [Problem(pointer(v, *e.absolute_path), f"{RULINGS_FILE}: {e.message}")
                 for v, rulings in data.items() for e in check.iter_errors(rulings)]
    if problems:  # pragma: no cover - a broken rulings file (only tests write one)
        raise InvalidRules(problems)
    return MappingProxyType({v: tuple(map(_ruling, entries)) for v, entries in data.items()})


def _inherited_clauses(data: Mapping[str, Any], base: Variant, name: str) -> list[str]:
    """The clauses of a file that extends ``base``: the parent's, less its ``clauses_drop``, with its
    ``clauses_add``, in the registry's order.  A file that names a clause its parent already plays
    (or drops one its parent does not) says more than what differs, and is refused."""
    if "clauses" in data:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/clauses", f"{name}: a file that extends another lists only the clauses it "
                                               "adds (clauses_add) and drops (clauses_drop)"))
    add, drop = list(data.get("clauses_add") or ()), list(data.get("clauses_drop") or ())
    problems = [Problem(f"/clauses_add/{i}", f"{name}: {c!r} is a clause of {base.id} already")
                for i, c in enumerate(add) if c in base.clauses]
    problems += [Problem(f"/clauses_drop/{i}", f"{name}: {c!r} is not a clause of {base.id}")
                 for i, c in enumerate(drop) if c not in base.clauses]
    if problems:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(problems)
    kept = (set(base.clauses) - set(drop)) | set(add)
    order = {cid: i for i, cid in enumerate(registry())}
    return sorted(kept, key=lambda c: (order.get(c, len(order)), c))


def _check_decisions(data: dict[str, Any], typed: Rules, own: list[Ruling]) -> None:
    """A ruling's links, checked where it is written (a decision a file inherits or adopts is
    checked in the file that rules it): every clause it names is in the registry and one this
    variant plays under (its ``clauses``, either side of its ``clause_map``, or a referee clause),
    and its ``switch`` names a parameter of the variant."""
    played = set(data["clauses"]) | set(data.get("clause_map") or {}) | set((data.get("clause_map") or {}).values())
    problems = []
    name = f"{RULINGS_FILE} ({data['id']})"
    for i, decision in enumerate(own):
        at = f"/{data['id']}/{i}"
        for k, clause in enumerate(decision.clauses):
            if clause not in registry():  # pragma: no cover - a broken variant file (only tests write one)
                problems.append(Problem(f"{at}/clauses/{k}", f"{name}: {decision.id} names {clause!r}, which is not in the clause registry"))
            elif clause not in played and not clause.startswith("referee."):  # pragma: no cover - a broken variant file (only tests write one)
                problems.append(Problem(f"{at}/clauses/{k}", f"{name}: {decision.id} names {clause!r}, which {data['id']} does not play under"))
        switch = decision.switch
        if switch is not None:
            try:
                parameter_at(typed, switch)
            except KeyError:  # pragma: no cover - a broken variant file (only tests write one)
                problems.append(Problem(f"{at}/switch", f"{name}: {decision.id} switches {switch!r}, which is not a parameter"))
    if problems:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(problems)


def loaded_variant_count() -> int:  # pragma: no cover - read by GET /ready, which the vectors do not call
    """How many variant files are loaded and kept (see ``warm`` in the web layer)."""
    return _load_variant.cache_info().currsize


def variant_ids(directory: str | Path = VARIANT_DIR) -> list[str]:
    return sorted(p.stem for p in Path(directory).glob("*.yaml"))


@functools.lru_cache(maxsize=None)
def _known_ids(directory: str) -> frozenset[str]:
    return frozenset(variant_ids(directory))


def _quoted(value: Any) -> str:  # pragma: no cover - a non-string id is refused by openapi.yaml first; only a notation names an unknown one
    """A requested id as an answer quotes it: a long one is cut."""
    if not isinstance(value, str):
        return f"of type {type(value).__name__}"
    return repr(value if len(value) <= 40 else value[:37] + "...")


_VARIANT_DIR_TEXT = str(VARIANT_DIR)


def load_variant(variant_id: str, rules: Mapping[str, Any] | None = None, directory: str | Path = VARIANT_DIR) -> Variant:
    # an id is looked up among the variant files' names, never turned into a path before it is known
    directory = _VARIANT_DIR_TEXT if directory is VARIANT_DIR else str(directory)
    if not isinstance(variant_id, str) or variant_id not in _known_ids(directory):  # pragma: no cover - as _quoted
        raise UnknownVariant(Problem("/variant", f"no variant {_quoted(variant_id)}; "
                                                 f"known: {', '.join(sorted(_known_ids(directory)))}"))
    return with_house_rules(_load_variant(variant_id, directory), rules)


def all_variants(directory: str | Path = VARIANT_DIR) -> list[Variant]:
    return [load_variant(v, directory=directory) for v in variant_ids(directory)]
