"""Reproducible shuffles from a caller's seed.

The algorithm (``sha256-fisher-yates/1``), so that any implementation can reproduce a deal:

1. The seed is a string; an integer seed is written in decimal.  ``key = UTF-8 bytes of the seed``,
   followed by the byte ``0x00`` and the UTF-8 bytes of a purpose label (``deal`` for the deal,
   ``reshuffle-1`` for the first reshuffle of the discard pile, and so on).
2. A stream of 64-bit numbers: block ``k`` (k = 0, 1, 2, ...) is ``SHA-256(key || k as 8 bytes
   big-endian)``; each block yields four numbers, its bytes 0-7, 8-15, 16-23, 24-31, each read as an
   unsigned big-endian integer.
3. Fisher-Yates from the end: for ``i`` from ``n - 1`` down to ``1``, draw numbers ``x`` from the stream
   until ``x < 2**64 - (2**64 mod (i + 1))`` (rejection keeps it unbiased), let ``j = x mod (i + 1)`` and
   swap positions ``i`` and ``j``.
"""
from __future__ import annotations

import hashlib
from typing import Iterator, Sequence, TypeVar

T = TypeVar("T")
ALGORITHM = "sha256-fisher-yates/1"
_SPACE = 1 << 64


def seed_text(seed: str | int) -> str:
    if isinstance(seed, bool):  # pragma: no cover - openapi.yaml's Seed is a string or an integer, never true/false
        raise TypeError("a seed is a string or an integer")
    if isinstance(seed, float) and float.is_integer(seed):  # raw JSON (2.0); mypy reads it as an int
        seed = int(seed)
    return str(seed) if isinstance(seed, int) else seed


def _stream(seed: str, purpose: str) -> Iterator[int]:
    key = seed.encode("utf-8") + b"\x00" + purpose.encode("utf-8")
    block = 0
    while True:
        digest = hashlib.sha256(key + block.to_bytes(8, "big")).digest()
        for k in range(0, 32, 8):
            yield int.from_bytes(digest[k:k + 8], "big")
        block += 1


def shuffled(items: Sequence[T], seed: str, purpose: str) -> list[T]:
    out = list(items)
    numbers = _stream(seed, purpose)
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = _SPACE - (_SPACE % bound)
        x = next(numbers)
        while x >= limit:  # pragma: no cover - a draw is rejected with odds below bound / 2**64 (no pack comes near)
            x = next(numbers)
        j = x % bound
        out[i], out[j] = out[j], out[i]
    return out


def seeded_number(seed: str, purpose: str) -> int:
    """The first 64-bit number of the seed's stream for ``purpose`` (e.g. where the pack is cut)."""
    return next(_stream(seed, purpose))
