"""Variants as data.

Each variant is one YAML file in ``rules/variants/``.  A file may ``extends:`` another; its
``parameters`` are merged over the parent's, and it names only the clauses it adds and drops
(``clauses_add``, ``clauses_drop``).  A request's house rules are a partial ``parameters``
block merged the same way.  The merged result is checked against ``rules/variant.schema.yaml`` and a
few cross-field constraints; any unknown key or impossible value is an error naming its field.
Nothing in the engine branches on a variant's id: rules read parameters.
"""
from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, TypedDict

import jsonschema
import orjson
import yaml

from .clauses import Cited, citation, registry
from .errors import InvalidRules, Problem, UnknownVariant, pointer
from .params import RULES_SCHEMA, Rules, group_defaults, load_rules

HERE = Path(__file__).resolve().parent
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


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    kind = type(value)  # (exact types: an isinstance check against typing's Mapping is slow here)
    if kind is MappingProxyType or kind is dict:
        return {k: _thaw(v) for k, v in value.items()}
    if kind is tuple or kind is list:
        return [_thaw(v) for v in value]
    return value


MAX_RULES_DEPTH = 6
GROUP_DEFAULTS = group_defaults()   # the groups a variant file may leave out, as their defaults


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


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    family: str
    extends: str | None
    sources: tuple[Mapping[str, Any], ...]
    clauses: tuple[str, ...]
    decisions: tuple[Mapping[str, Any], ...]
    params: Mapping[str, Any] = field(repr=False)   # the parameters as data (their wire form)
    rules: Rules = field(repr=False)       # the same, typed: what the engine reads
    clause_map: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)
    overrides: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), repr=False)
    status: str = "complete"               # "preview": some of its clauses are not enforced yet
    not_enforced: tuple[str, ...] = ()     # those clauses (a preview's)

    @property
    def documents(self) -> tuple[str, ...]:
        """The source documents this variant is built from (its ``sources``)."""
        return tuple(s["document"] for s in self.sources)

    def cards_for(self, players: int, hand: int = 0) -> int:
        """Cards dealt to each player at a table of ``players`` (in hand number ``hand`` of a
        contract game)."""
        return self.rules.cards_for(players, hand)

    def cite(self, clause: str) -> str:
        """The clause this variant cites for a rule the engine names ``clause`` (by its constant in
        ``rules.clause_ids``): the variant's own statement of the same rule where its ``clause_map``
        names one.  The one place the map is applied: every violation (a verdict, a game verdict, a
        score sheet's inconsistency, a meld check) is built with the clause this returns.

        A clause whose statement fixes a parameter's value (its registry ``parameter``: 40 for
        ``/opening/minimum``) does not hold at a table whose house rule sets another value: the
        verdict then cites the clause's ``otherwise``, the referee's statement of the rule in terms
        of the parameter, and the message gives the table's number."""
        cited = self.clause_map.get(clause, clause)
        registered = registry().get(cited)
        fixed = None if registered is None else registered.parameter
        if fixed is not None and self.parameter(fixed.pointer) != fixed.value:
            return fixed.otherwise
        return cited

    def citation(self, clause: str) -> Cited:
        """How a verdict under this variant cites the rule the engine names ``clause``: the clause
        ``cite`` gives, its statement and sources (the sections of this variant's documents), and the
        rulings it rests on (``rulings``).  Every violation is built from this (a verdict, a game
        verdict, a score sheet's inconsistency, a meld check)."""
        cited = self.cite(clause)
        c = citation(cited, self.documents)
        return Cited(cited, c.statement, tuple((s.document, s.section) for s in c.sources),
                     self.rulings(cited))

    def rulings(self, clause: str) -> tuple[str, ...]:
        """The rulings (ids of this variant's ``decisions``) a verdict citing ``clause`` rests on: each
        decision names under its ``clauses`` the rules it decides, by the id the engine names or the
        variant's own; a decision touches the clause it names and the clause this variant cites for
        it (``cite``: its clause_map, or the ``otherwise`` of a number a house rule changed).  In the
        variant file's order."""
        return self._ruling_index.get(clause, ())

    @functools.cached_property
    def _ruling_index(self) -> Mapping[str, tuple[str, ...]]:
        index: dict[str, list[str]] = {}
        for decision in self.decisions:
            for named in decision.get("clauses", ()):
                for key in (named, self.cite(named)):
                    ids = index.setdefault(key, [])
                    if decision["id"] not in ids:
                        ids.append(decision["id"])
        return MappingProxyType({k: tuple(v) for k, v in index.items()})

    def parameter(self, pointer: str) -> Any:
        """The value of one parameter, by its JSON pointer into ``parameters`` (``/opening/minimum``)."""
        return _resolve(self.params, pointer)

    def with_rules(self, rules: Mapping[str, Any] | None, base_pointer: str = "/rules") -> "Variant":
        """This variant with house-rule overrides applied (validated; errors name the field).  A
        variant with the same house rules is resolved once and kept (by its canonical rules)."""
        if not rules:
            return self
        if not isinstance(rules, Mapping):  # pragma: no cover - the request schema admits only an object or null
            raise InvalidRules(Problem(base_pointer, "house rules are an object of parameter overrides"))
        if _depth(rules) > MAX_RULES_DEPTH:
            raise InvalidRules(Problem(base_pointer, f"house rules nest at most {MAX_RULES_DEPTH} levels"))
        try:
            key = (self.id, self._overrides_key, base_pointer, orjson.dumps(rules, option=orjson.OPT_SORT_KEYS))
        except TypeError:  # pragma: no cover - an integer beyond 64 bits, refused below; JSON bodies read it as a float
            key = None
        if key is not None and key in _RESOLVED:
            return _RESOLVED[key]
        # a group the variant's file leaves to its default is changed from that default
        base = _thaw(self.params)
        base.update({k: v for k, v in GROUP_DEFAULTS.items() if k in rules and k not in base})
        merged = deep_merge(base, rules)
        typed = _check_parameters(merged, base_pointer)
        resolved = Variant(self.id, self.name, self.family, self.extends, self.sources, self.clauses,
                           self.decisions, _freeze(merged), typed, self.clause_map,
                           _freeze(deep_merge(_thaw(self.overrides), rules)), self.status, self.not_enforced)
        if key is not None:
            if len(_RESOLVED) >= MAX_RESOLVED:  # pragma: no cover - past 512 house-rule sets
                _RESOLVED.pop(next(iter(_RESOLVED)))
            _RESOLVED[key] = resolved
        return resolved

    @property
    def _overrides_key(self) -> bytes:
        return orjson.dumps(_thaw(self.overrides), option=orjson.OPT_SORT_KEYS)

    def to_dict(self) -> VariantDict:  # pragma: no cover - served by GET /v1/variants/{id}; the vectors only POST
        return {
            "id": self.id, "name": self.name, "family": self.family, "extends": self.extends,
            "sources": _thaw(self.sources), "clauses": list(self.clauses),
            "decisions": _thaw(self.decisions), "clause_map": _thaw(self.clause_map),
            "parameters": _thaw(self.params),
            "overrides": _thaw(self.overrides),
            "status": self.status, "not_enforced": list(self.not_enforced),
        }


# Variants with house rules, resolved once: (variant, pointer, canonical rules) -> Variant.
_RESOLVED: dict[tuple[str, bytes, str, bytes], "Variant"] = {}
MAX_RESOLVED = 512


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
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules([Problem(pointer(*e.absolute_path), f"{name}: {e.message}") for e in errors])


@functools.lru_cache(maxsize=None)
def _load_variant(variant_id: str, directory: str) -> Variant:
    path = Path(directory) / f"{variant_id}.yaml"
    if not path.is_file():  # pragma: no cover - load_variant looks the id up among the files first
        raise UnknownVariant(Problem("/variant", f"no variant {variant_id!r}; known: {', '.join(variant_ids(directory))}"))
    data = _load_file(path)
    if "decisions" in data:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/decisions", f"{path.name}: a variant's rulings are kept in {RULINGS_FILE}, "
                                                 f"under {variant_id}"))
    own_decisions: list[dict[str, Any]] = _thaw(_rulings(directory).get(variant_id, ()))
    data = {**data, "decisions": own_decisions}
    adopt = data.get("adopt_decisions")
    if isinstance(adopt, dict) and isinstance(adopt.get("ids"), list):
        source = {d["id"]: d for d in _thaw(_load_variant(str(adopt.get("from")), directory).decisions)}
        missing = [i for i in adopt["ids"] if i not in source]
        if missing:  # pragma: no cover - a broken variant file (only tests write one)
            raise InvalidRules(Problem("/adopt_decisions/ids", f"{path.name}: no such decisions in {adopt.get('from')}: {missing}"))
        own = {d["id"] for d in data.get("decisions") or []}
        data = {**data, "decisions": [source[i] for i in adopt["ids"] if i not in own] + list(data.get("decisions") or [])}
    parent = data.get("extends")
    if parent:
        base = _load_variant(parent, directory)
        params = deep_merge(_thaw(base.params), data.get("parameters") or {})
        data = {**data, "parameters": params, "clauses": _inherited_clauses(data, base, path.name)}
        # the parent's rulings hold unless this file rules on the same point (same id)
        own = {d["id"] for d in data.get("decisions") or []}
        data["decisions"] = [d for d in _thaw(base.decisions) if d["id"] not in own] + list(data.get("decisions") or [])
        data["clause_map"] = {**_thaw(base.clause_map), **(data.get("clause_map") or {})}
        data.setdefault("status", base.status)
        # a preview's clauses not enforced yet: the parent's that this variant plays, and its own
        data["not_enforced"] = ([c for c in base.not_enforced if c in data["clauses"]]
                                + [c for c in data.get("not_enforced", ()) if c not in base.not_enforced])
    elif "clauses_add" in data or "clauses_drop" in data:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/clauses_add", f"{path.name}: a file that extends no other lists its clauses "
                                                   "under clauses"))
    _validate_file(data, path.name)
    if data["id"] != variant_id:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/id", f"{path.name}: id {data['id']!r} does not match the file name"))
    typed = _check_parameters(data["parameters"], "/parameters")
    _check_decisions(data, own_decisions)
    stray = [c for c in data.get("not_enforced", ()) if c not in data["clauses"]]
    if stray:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(Problem("/not_enforced", f"{path.name}: not clauses of the variant: {stray}"))
    return Variant(data["id"], data["name"], data["family"], data.get("extends"),
                   _freeze(data["sources"]), tuple(data["clauses"]), _freeze(data.get("decisions", [])),
                   _freeze(data["parameters"]), typed, _freeze(data.get("clause_map", {})),
                   status=data.get("status", "complete"), not_enforced=tuple(data.get("not_enforced", ())))


RULINGS_FILE = "decisions.yaml"


@functools.lru_cache(maxsize=None)
def _rulings(directory: str) -> Mapping[str, Any]:
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
    frozen: Mapping[str, Any] = _freeze(data)
    return frozen


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


def _check_decisions(data: dict[str, Any], own: list[dict[str, Any]]) -> None:
    """A ruling's links, checked where it is written (a decision a file inherits or adopts is
    checked in the file that rules it): every clause it names is in the registry and one this
    variant plays under (its ``clauses``, either side of its ``clause_map``, or a referee clause),
    and its ``switch`` names a parameter of the variant."""
    played = set(data["clauses"]) | set(data.get("clause_map") or {}) | set((data.get("clause_map") or {}).values())
    problems = []
    name = f"{RULINGS_FILE} ({data['id']})"
    for i, decision in enumerate(own):
        at = f"/{data['id']}/{i}"
        for k, clause in enumerate(decision["clauses"]):
            if clause not in registry():  # pragma: no cover - a broken variant file (only tests write one)
                problems.append(Problem(f"{at}/clauses/{k}", f"{name}: {decision['id']} names {clause!r}, which is not in the clause registry"))
            elif clause not in played and not clause.startswith("referee."):  # pragma: no cover - a broken variant file (only tests write one)
                problems.append(Problem(f"{at}/clauses/{k}", f"{name}: {decision['id']} names {clause!r}, which {data['id']} does not play under"))
        switch = decision.get("switch")
        if switch is not None:
            try:
                _resolve(data["parameters"], switch)
            except (KeyError, TypeError):  # pragma: no cover - a broken variant file (only tests write one)
                problems.append(Problem(f"{at}/switch", f"{name}: {decision['id']} switches {switch!r}, which is not a parameter"))
    if problems:  # pragma: no cover - a broken variant file (only tests write one)
        raise InvalidRules(problems)


def _resolve(params: Mapping[str, Any], pointer: str) -> Any:
    """The value at a JSON pointer into a variant's parameters (KeyError when there is none)."""
    value: Any = params
    for token in pointer.lstrip("/").split("/"):
        value = value[token.replace("~1", "/").replace("~0", "~")]
    return value


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
    return _load_variant(variant_id, directory).with_rules(rules)


def all_variants(directory: str | Path = VARIANT_DIR) -> list[Variant]:
    return [load_variant(v, directory=directory) for v in variant_ids(directory)]
