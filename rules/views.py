"""What one seat may see of a hand.

``view_of(state, seat)`` is the state as ``seat`` sees it at the table: its own hand listed; every
other hand and the stock as counts of unseen cards; the seed hidden (with the seed and the deal's
record anyone could rebuild every hand); another player's card drawn from the stock hidden from the
turn record; everything public kept (the melds, the discard pile, whose turn it is and what the
turn still owes, the announcement, scores, the result of an ended hand).  The commitment to what a
view hides, a digest of a JSON document, is the wire's: ``rules/wire/views.py``.
"""
from __future__ import annotations

from .cards import UNSEEN
from .state import State, Source, replace


def drawn_hidden(state: State, seat: str) -> bool:
    """Whether the turn record names a card another player drew from the stock (only they saw it)."""
    t = state.turn
    return t.source == Source.STOCK and t.drawn is not None and state.to_act != seat


def view_of(state: State, seat: str) -> State:
    """``state`` as ``seat`` may see it (KeyError if ``seat`` is not a player)."""
    state.index(seat)
    players = tuple(p if p.id == seat else replace(p, hand=(UNSEEN,) * len(p.hand)) for p in state.players)
    turn = replace(state.turn, drawn=UNSEEN) if drawn_hidden(state, seat) else state.turn
    return replace(state, players=players, stock=(UNSEEN,) * len(state.stock), seed="", turn=turn)
