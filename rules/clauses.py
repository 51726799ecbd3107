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
from typing import Any, Callable, Mapping, TypedDict, TypeVar

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


class Citation(TypedDict):
    """A clause as a verdict cites it."""
    statement: str
    sources: list[dict[str, str]]   # each a document and its section


@dataclass(frozen=True)
class Cited:
    """A rule as a verdict cites it under one variant (``Variant.citation``): the clause the variant
    cites, its statement, its sources (document and section) in the variant's documents, and the
    referee's rulings (``dec.*`` ids of the variant's decisions) that the answer rests on."""
    clause: str
    statement: str
    sources: tuple[tuple[str, str], ...]
    rulings: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"clause": self.clause, "statement": self.statement,
                "sources": [{"document": d, "section": s} for d, s in self.sources],
                "rulings": list(self.rulings)}


@functools.lru_cache(maxsize=1)
def registry() -> Mapping[str, Mapping[str, Any]]:
    """The catalogue's clauses (clauses.yaml) and the referee's own (referee-clauses.yaml)."""
    clauses = {}
    for path in (REGISTRY_PATH, REFEREE_PATH):
        with open(path, encoding="utf-8") as fh:
            for c in yaml.safe_load(fh)["clauses"]:
                clauses[c["id"]] = MappingProxyType(c)
    return MappingProxyType(clauses)


@functools.lru_cache(maxsize=1)
def documents() -> Mapping[str, Mapping[str, str]]:
    with open(REGISTRY_PATH, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    return MappingProxyType(data["documents"])


def clause(clause_id: str) -> Mapping[str, Any]:
    return registry()[clause_id]


def citation(clause_id: str, documents: tuple[str, ...] = ()) -> Citation:
    """The statement and sources of a clause, as a verdict cites them.  With ``documents`` (the
    source documents of the variant being played) only the sections of those documents are cited,
    unless the clause has none there, when every source is."""
    c = registry().get(clause_id)
    if c is None:  # a programming error: the engine cites only registered clauses (tested)
        raise KeyError(f"clause {clause_id!r} is not in the registry")
    sources = [dict(s) for s in c["sources"]]
    own = [s for s in sources if s["document"] in documents]
    return {"statement": c["statement"], "sources": own or sources}
