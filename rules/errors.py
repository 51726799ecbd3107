"""Errors of the rules core.

Three kinds of failure are kept apart, as python-chess does:

* ``MalformedInput`` - the input is not well formed (a bad card code, an unknown field, a reference
  to a meld that does not exist).  Each problem carries a JSON pointer into the request.
* ``ImpossibleState`` - the state is well formed but cannot occur (cards not conserved, a meld that is
  not a meld, a phase that contradicts the turn record).  Every problem is listed at once.
* a rule-illegal or ambiguous action is not an exception at all: it is a verdict with
  ``legal: false`` and violations.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


class ProblemDict(TypedDict):
    pointer: str
    detail: str
    code: str


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where (a JSON pointer), what (in words) and, where a named
    check found it, its stable ``code`` (the invariants of rules/invariants.py; empty otherwise: the
    wire then gives the error's own code, see ``code_of``)."""
    pointer: str
    detail: str
    code: str = ""

    def to_dict(self) -> ProblemDict:
        return {"pointer": self.pointer, "detail": self.detail, "code": self.code}


class RefereeInputError(Exception):
    title = "Invalid input"
    type_slug = "invalid-input"

    def __init__(self, problems: list[Problem] | Problem, detail: str | None = None):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        self.detail = detail or "; ".join(f"{p.pointer or '/'}: {p.detail}" for p in self.problems)
        super().__init__(self.detail)

    def prefixed(self, prefix: str) -> "RefereeInputError":
        """The same error with every pointer placed under ``prefix`` (e.g. ``/state``)."""
        return type(self)([Problem(prefix + p.pointer, p.detail, p.code) for p in self.problems])

    def code_of(self, problem: Problem) -> str:
        """The code a problem item carries on the wire: its own, else this error's kind
        (``MALFORMED_INPUT``, ``IMPOSSIBLE_STATE``...)."""
        return problem.code or self.type_slug.upper().replace("-", "_")


class MalformedInput(RefereeInputError):
    title = "Malformed input"
    type_slug = "malformed-input"


class ImpossibleState(RefereeInputError):
    title = "Impossible state"
    type_slug = "impossible-state"


class UnknownVariant(RefereeInputError):
    title = "Unknown variant"
    type_slug = "unknown-variant"


class InvalidRules(RefereeInputError):
    title = "Invalid variant rules"
    type_slug = "invalid-rules"


def escape_pointer_token(token: object) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(*tokens: object) -> str:
    return "".join("/" + escape_pointer_token(t) for t in tokens)
