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


@dataclass(frozen=True)
class Problem:
    pointer: str
    detail: str

    def to_dict(self) -> ProblemDict:
        return {"pointer": self.pointer, "detail": self.detail}


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
        return type(self)([Problem(prefix + p.pointer, p.detail) for p in self.problems])


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
