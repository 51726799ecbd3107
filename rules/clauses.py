"""The clause registry: every rule the referee cites, with the project's own statement of it and
its source document and section (``rules/clauses.yaml`` and ``rules/referee-clauses.yaml``).

Code names a clause only through its constant in ``rules/clause_ids.py`` (generated from these
files).  The engine names the general clause; a variant's ``clause_map`` may name the variant's own
statement of the same rule, applied by ``Variant.cite`` when a violation is built."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping, TypeVar

import yaml

F = TypeVar("F", bound=Callable[..., Any])


def enforces(*clause_ids: str) -> Callable[[F], F]:
    """Marks the code that decides these clauses where no one line cites them: a rule that holds by
    what the code allows (a discard legal whether or not the player melded), or a number the code
    reads from a parameter (the cards dealt).  It names each clause by its constant, so that "find
    usages" of the constant lands on the function; the function itself is returned unchanged."""
    def mark(function: F) -> F:
        return function
    return mark


REGISTRY_PATH = Path(__file__).resolve().parent / "clauses.yaml"
REFEREE_PATH = Path(__file__).resolve().parent / "referee-clauses.yaml"


@dataclass(frozen=True, slots=True)
class Source:
    """A place a clause is stated: a source document (its id in clauses.yaml's ``documents``) and its
    section's heading."""
    document: str
    section: str


@dataclass(frozen=True, slots=True)
class Fixed:
    """The parameter a clause's statement fixes (``/opening/minimum`` at 40): where a house rule sets
    another value, a verdict cites ``otherwise``, the referee's statement in terms of the parameter."""
    pointer: str
    value: int
    otherwise: str


@dataclass(frozen=True, slots=True)
class Clause:
    """One registered clause: an action's rule or an outcome's, of a category, at the level of a hand
    or a game, the project's own statement of it, where it is stated, the parameters that switch it
    (JSON pointers into a variant's parameters) and the parameter its statement fixes, if any."""
    id: str
    kind: str
    category: str
    level: str
    statement: str
    sources: tuple[Source, ...]
    parameters: tuple[str, ...] = ()
    parameter: Fixed | None = None


@dataclass(frozen=True, slots=True)
class Citation:
    """A clause as a verdict cites it: its statement and the places it is stated."""
    statement: str
    sources: tuple[Source, ...]


@dataclass(frozen=True)
class Cited:
    """A rule as a verdict cites it under one variant (``Variant.citation``): the clause the variant
    cites, its statement, its sources (document and section) in the variant's documents, and the
    referee's rulings (``dec.*`` ids of the variant's decisions) that the answer rests on."""
    clause: str
    statement: str
    sources: tuple[tuple[str, str], ...]
    rulings: tuple[str, ...]


_CLAUSE_KEYS = frozenset(("id", "kind", "category", "level", "statement", "sources", "parameters", "parameter"))


def _clause(entry: Any, path: Path) -> Clause:
    """One entry of a registry file as a ``Clause``; a key the registry does not know is refused (a
    clause names its code by the constant, never by an ``enforced_by`` of function names)."""
    unknown = sorted(set(entry) - _CLAUSE_KEYS)
    if unknown:  # pragma: no cover - a broken registry file (only tests write one)
        raise ValueError(f"{path.name}: clause {entry.get('id')!r} has unknown keys {unknown}")
    fixed = entry.get("parameter")
    return Clause(entry["id"], entry["kind"], entry["category"], entry["level"], entry["statement"],
                  tuple(Source(s["document"], s["section"]) for s in entry["sources"]),
                  tuple(entry.get("parameters") or ()),
                  None if fixed is None else Fixed(fixed["pointer"], fixed["value"], fixed["otherwise"]))


@functools.lru_cache(maxsize=1)
def registry() -> Mapping[str, Clause]:
    """The catalogue's clauses (clauses.yaml) and the referee's own (referee-clauses.yaml), by id, in
    the files' order."""
    clauses = {}
    for path in (REGISTRY_PATH, REFEREE_PATH):
        with open(path, encoding="utf-8") as fh:
            for entry in yaml.safe_load(fh)["clauses"]:
                clauses[entry["id"]] = _clause(entry, path)
    return MappingProxyType(clauses)


@functools.lru_cache(maxsize=1)
def documents() -> Mapping[str, Mapping[str, str]]:
    with open(REGISTRY_PATH, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    return MappingProxyType(data["documents"])


def clause(clause_id: str) -> Clause:
    return registry()[clause_id]


def citation(clause_id: str, documents: tuple[str, ...] = ()) -> Citation:
    """The statement and sources of a clause, as a verdict cites them.  With ``documents`` (the
    source documents of the variant being played) only the sections of those documents are cited,
    unless the clause has none there, when every source is."""
    c = registry().get(clause_id)
    if c is None:  # a programming error: the engine cites only registered clauses (tested)
        raise KeyError(f"clause {clause_id!r} is not in the registry")
    own = tuple(s for s in c.sources if s.document in documents)
    return Citation(c.statement, own or c.sources)
