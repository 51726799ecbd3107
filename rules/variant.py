"""A variant as the engine reads it: one typed, frozen value, ``Variant``.

Each variant is one YAML file in ``rules/variants/``, read (with its parent's, its rulings and any
house rules a request sends) by the wire (``rules/wire/variant.py``: ``load_variant``).  What it
holds here is typed: its sources, its clauses, its rulings (``Ruling``), its parameters (``Rules``),
the clauses it cites in place of the engine's (``clause_map``) and the house rules laid over its file
(``overrides``, each a parameter's pointer and value).  Nothing in the engine branches on a
variant's id: rules read parameters.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, is_dataclass, replace
from types import MappingProxyType
from typing import Any, Mapping

from .clauses import Cited, citation, registry
from .params import Rules, Stakes


@dataclass(frozen=True, slots=True)
class VariantSource:
    """A source document a variant is built from: its id, the sections read, and its role where it
    is not the main source (``role``)."""
    document: str
    sections: tuple[str, ...]
    role: str | None = None


@dataclass(frozen=True, slots=True)
class Ruling:
    """One of the referee's rulings (``rules/decisions.yaml``): what it rules and why, where the point
    is raised (each ``"document: section"``), the parameter that selects the other reading (``switch``,
    None for a ruling no parameter changes) and the clauses it decides."""
    id: str
    ruling: str
    reason: str
    sources: tuple[str, ...]
    switch: str | None
    clauses: tuple[str, ...]


# a house rule as the variant keeps it: the pointer of the parameter it sets and the value it sets
# (a JSON leaf: a number, a string, a boolean, null, a list as a tuple, or an object that replaces one)
Override = tuple[str, Any]


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    family: str
    extends: str | None
    sources: tuple[VariantSource, ...]
    clauses: tuple[str, ...]
    decisions: tuple[Ruling, ...]
    rules: Rules = field(repr=False)       # the parameters, typed: what the engine reads
    clause_map: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), repr=False)
    overrides: tuple[Override, ...] = field(default=(), repr=False)   # the house rules laid over the file
    status: str = "complete"               # "preview": some of its clauses are not enforced yet
    not_enforced: tuple[str, ...] = ()     # those clauses (a preview's)
    # the parameters its files (its own and its parents') and its house rules write, by JSON pointer
    # (each group's too): those its wire form shows (``GET /v1/variants/{id}``), the others at their default
    written: frozenset[str] = field(default=frozenset(), repr=False)

    @property
    def documents(self) -> tuple[str, ...]:
        """The source documents this variant is built from (its ``sources``)."""
        return tuple(s.document for s in self.sources)

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
        return Cited(cited, c.statement, tuple((s.document, s.section) for s in c.sources), self.rulings(cited))

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
            for named in decision.clauses:
                for key in (named, self.cite(named)):
                    ids = index.setdefault(key, [])
                    if decision.id not in ids:
                        ids.append(decision.id)
        return MappingProxyType({k: tuple(v) for k, v in index.items()})

    def parameter(self, pointer: str) -> Any:
        """The value of one parameter, by its JSON pointer into the parameters (``/opening/minimum``), as
        ``rules`` holds it; KeyError where there is none."""
        return parameter_at(self.rules, pointer)

    def with_stakes(self, stakes: Stakes) -> "Variant":
        """This variant with a game's agreed stakes in place of its own (each hand of the game is played
        under them).  Resolved once for each variant and stakes, and kept by the variant."""
        found = self._by_stakes.get(stakes)
        if found is None:
            pairs = tuple((f"/stakes/{name}", value) for name, value in stakes.as_pairs())
            kept = tuple(o for o in self.overrides if o[0] not in {p for p, _ in pairs})
            found = replace(self, rules=replace(self.rules, stakes=stakes), overrides=kept + pairs)
            if len(self._by_stakes) >= MAX_STAKES_KEPT:  # pragma: no cover - past 64 sets of stakes
                self._by_stakes.pop(next(iter(self._by_stakes)))
            self._by_stakes[stakes] = found
        return found

    @functools.cached_property
    def _by_stakes(self) -> dict[Stakes, "Variant"]:
        return {}


MAX_STAKES_KEPT = 64   # the sets of stakes a variant keeps itself under


def parameter_at(rules: Rules, pointer: str) -> Any:
    """The value at a JSON pointer into a variant's parameters, read from ``rules`` (a table keyed by
    a number is read with the number); KeyError where there is none."""
    value: Any = rules
    for token in pointer.lstrip("/").split("/"):
        name = token.replace("~1", "/").replace("~0", "~")
        if is_dataclass(value) and not isinstance(value, type) and name in value.__dataclass_fields__:
            value = getattr(value, name)
        elif isinstance(value, Mapping) and name in value:  # pragma: no cover - no fixed clause names a table's entry
            value = value[name]
        elif isinstance(value, Mapping) and name.isdigit() and int(name) in value:  # pragma: no cover - nor a number-keyed one
            value = value[int(name)]
        else:  # pragma: no cover - a broken registry or rulings file (only tests write one)
            raise KeyError(pointer)
    return value
