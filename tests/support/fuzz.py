"""Requests made by changing the vectors' requests at random: a value swapped for one of another
type or for another value of the same request, a member or an item dropped or doubled, a number
moved, a card code changed.  The changes are drawn from ``random.Random(seed)``, so a seed names
the same requests on every run.

The tests (tests/api/test_hostile_inputs.py) send them and expect a verdict or a problem, never a 500;
the benchmarks (``python -m benchmarks.run``) send them and print the CPU time of the slowest against
the 50 ms every answer or refusal must stay under.  A run of this kind found listings of
openings with lay-offs that took 52 to 656 ms (tests/rules/test_legal_actions.py keeps them)."""
from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import orjson

from kalooki_referee.vectors.suite import Vector, load_vectors

ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2**53, -(2**60), 1.5, 2.0, 1e308, -0.0, "", "JK", "JK(=7H)", "JK(=9)", "10H",
    "X" * 300, "\u0000", "\ue000", [], {}, [1], {"a": 1}, "m1", "P1", "draw", "stock", "discard", "play", "run",
    "set", "low", "high",
]
CODES = ["2S", "AS", "KH", "JK", "JK(=AS)", "7C", "QD", "10D"]


def _paths(node: Any, at: tuple = ()) -> Iterator[tuple]:
    yield at
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, at + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, at + (i,))


def _at(node: Any, path: tuple) -> Any:
    for k in path:
        node = node[k]
    return node


def mutate(body: Any, rng: random.Random) -> Any:
    """A copy of ``body`` with one to three random changes."""
    body = copy.deepcopy(body)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        paths = [p for p in _paths(body) if p]
        if not paths:
            break
        path = rng.choice(paths)
        parent, key = _at(body, path[:-1]), path[-1]
        value = parent[key]
        op = rng.random()
        if op < 0.25:
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif op < 0.40:
            del parent[key]
        elif op < 0.55 and isinstance(parent, list):
            parent.insert(rng.randrange(len(parent) + 1), copy.deepcopy(value))
        elif op < 0.70:
            parent[key] = copy.deepcopy(_at(body, rng.choice(paths)))
        elif op < 0.80 and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = rng.choice([value + 1, value - 1, -value, value * 1000, 0])
        elif op < 0.90 and isinstance(value, str):
            parent[key] = rng.choice(CODES + [value[::-1], value + "x", value.lower()])
        elif isinstance(value, dict):
            value[rng.choice(["x", "type", "id", "cards", "hand", "extra"])] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif isinstance(value, list):
            value.reverse()
    return body


def mutated_requests(seed: int, count: int, vectors: list[Vector] | None = None) -> Iterator[tuple[str, str, bytes]]:
    """``count`` requests (vector id, path, body) made from the vectors with ``seed``."""
    rng = random.Random(seed)
    vectors = vectors if vectors is not None else load_vectors()
    for _ in range(count):
        vector = rng.choice(vectors)
        yield vector.id, "/v1/" + vector.endpoint, orjson.dumps(mutate(vector.data["request"], rng))
