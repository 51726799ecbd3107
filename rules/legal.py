"""Listing the legal actions of the player to act (and the calls out of turn other seats may make).

Candidates come from the search (``rules.search.candidates``) as typed actions in canonical form;
each is put to the engine (``adjudicate``), so that every listed action is one the referee accepts:
the listing and the adjudication can never disagree.  The listing is bounded:

* single melds are canonical, each multiset once; an opening is a combination of disjoint pieces
  (``rules.search``);
* the opening search has one node budget for the whole listing, and takes at most
  ``search.OPENING_LIMIT`` openings;
* the number of candidates put to the engine is capped, and so is the work of checking them one by
  one: ``CHECK_BUDGET`` pieces (the new melds and builds of each candidate the engine reads in
  full; a hostile house rule can make every opening a score of melds and lay-offs);
  ``truncated`` says when a cap, the budget or the search cut the list.

In a position with unseen cards the candidates are made from the seen cards only (no card of an
unseen hand is proposed); a candidate the engine answers as undetermined (``legal: None``) is listed
apart, under ``undetermined``, which the answer holds only when it is not empty.

Candidates are deduplicated and ordered by a key computed from the typed action
(``actions.order_key``: the order of their wire forms as JSON with sorted keys), after the type:
announce, draw or pass, meld, build, joker exchange, discard.  The listing is a typed ``Listing``;
rules/wire/legal.py writes it.
"""
from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, MeldAction, order_key
from .cards import UNSEEN
from .engine import adjudicate
from .melds import remembered_readings
from .search import candidates
from .state import Phase, State
from .variant import Variant

DEFAULT_CAP = 400
CHECK_BUDGET = 250   # pieces of the candidates put to the engine one by one (50-100 us each)
BASIC = ("announce", "call", "allow", "pass", "draw", "discard")
TYPE_ORDER = {"announce": 0, "call": 0, "allow": 1, "pass": 1, "draw": 1, "meld": 2, "build": 3, "swap_joker": 4,
              "discard": 5}


@dataclass(frozen=True)
class Listing:
    """The legal actions of a position, in canonical order: ``player`` is the player to act (None once
    the hand has ended); ``truncated`` whether a cap, the check budget or the search cut the list;
    ``undetermined`` the actions whose legality the seen cards do not decide (a position with unseen
    cards)."""
    player: str | None
    phase: Phase
    actions: tuple[Action, ...]
    truncated: bool
    cap: int
    undetermined: tuple[Action, ...] = ()


def legal_actions(variant: Variant, state: State, cap: int = DEFAULT_CAP, verify_all: bool = False) -> Listing:
    """The legal actions of the player to act (and an owed announcement), in canonical order.

    Every candidate is put to the engine, except that new melds are checked once for each kind:
    they are valid, held and worth the minimum by construction, so what can still refuse them is
    whose turn it is, the phase and the turn's obligations (the same for all of them), whether they
    hold a taken discard the turn owes (``must_use``), and what they leave in hand to discard; one
    of each kind is checked.  With a released joker to place, or ``verify_all``, each is checked."""
    found, cut = candidates(variant, state)
    # the listing's order: by type, then by ``order_key``
    unique: dict[tuple[int, str], Action] = {}
    for action in found:
        unique.setdefault((TYPE_ORDER[action.type], order_key(action)), action)
    ordered = [unique[k] for k in sorted(unique)]
    # The cap cuts the melds, builds and exchanges, never the few moves that end or pass a turn
    # (draws, discards, an owed announcement, the dealer's pass): a cut list stays playable.
    basic = [a for a in ordered if a.type in BASIC]
    plays = [a for a in ordered if a.type not in BASIC]
    room = max(0, cap - len(basic))
    kept = {id(a) for a in plays[:room] + basic[:cap]}
    truncated = cut or len(ordered) > cap
    with remembered_readings():  # the same pieces recur in hundreds of candidates
        legal, undetermined, unchecked = _verified(variant, state, [a for a in ordered if id(a) in kept], verify_all)
    return Listing(state.to_act if state.phase != Phase.ENDED else None, state.phase, tuple(legal),
                   truncated or unchecked, cap, tuple(undetermined))


def _verified(variant: Variant, state: State, actions: list[Action],
              verify_all: bool) -> tuple[list[Action], list[Action], bool]:
    """The ``actions`` the engine accepts, those it cannot decide (unseen cards), in order, and
    whether the check budget left some unchecked (never with ``verify_all``: the tests' yardstick)."""
    legal: list[Action] = []
    undetermined: list[Action] = []
    # The engine's answer for new melds alone, by what can still tell two of them apart: whether they
    # hold the taken discard the turn owes (``must_use``), and what they leave in hand to discard
    # (none, one card or more, no seen natural: ``engine._check_hand_left``, where jokers and unseen
    # cards alone leave the answer to the unseen cards).
    melds_ok: dict[tuple[bool, int, bool], bool | None] = {}
    shortcut = not verify_all and state.turn.pending_jokers == 0
    must = state.turn.must_use
    held = len(state.current.hand)
    naturals = sum(1 for c in state.current.hand if not c.is_joker and c is not UNSEEN)  # seen naturals
    budget, unchecked = CHECK_BUDGET, False
    for action in actions:
        if shortcut and isinstance(action, MeldAction) and not action.builds:
            tokens = [t for spec in action.melds for t in spec.tokens]
            left = held - len(tokens)
            natural_left = naturals - sum(1 for t in tokens if not t.card.is_joker)
            key = (must is not None and any(t.card is must for t in tokens), min(left, 2), left > 0 and natural_left == 0)
            if key in melds_ok:
                ok = melds_ok[key]
            else:
                ok = melds_ok[key] = adjudicate(variant, state, action).legal
        else:
            if not verify_all and action.type not in BASIC:
                pieces = len(action.melds) + len(action.builds) if isinstance(action, MeldAction) else 1
                if pieces > budget:
                    unchecked = True
                    continue
                budget -= pieces
            ok = adjudicate(variant, state, action).legal
        if ok:
            legal.append(action)
        elif ok is None:
            undetermined.append(action)
    return legal, undetermined, unchecked
