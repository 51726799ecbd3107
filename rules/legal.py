"""Listing the legal actions of the player to act (and the calls out of turn other seats may make).

Candidates come from the search (``rules.search.candidates``) as typed actions in canonical form;
each is put to the engine (``adjudicate``), so that every listed action is one the referee accepts:
the listing and the adjudication can never disagree.  The listing is bounded:

* single melds are canonical, each multiset once; an opening is a combination of disjoint pieces
  (``rules.search``);
* the opening search has one node budget for the whole listing, and takes at most
  ``search.OPENING_LIMIT`` openings;
* the number of candidates put to the engine is capped; ``truncated`` says when the cap or the
  search cut the list.

In a position with unseen cards the candidates are made from the seen cards only (no card of an
unseen hand is proposed); a candidate the engine answers as undetermined (``legal: None``) is listed
apart, under ``undetermined``, which the answer holds only when it is not empty.

Candidates are deduplicated and ordered by a key computed from the typed action
(``actions.order_key``: the order of their wire forms as JSON with sorted keys), after the type:
announce, draw or pass, meld, build, joker exchange, discard.
"""
from __future__ import annotations


from typing import Any

from .actions import Action, MeldAction, action_to_dict, order_key
from .engine import adjudicate
from .search import candidates
from .state import Phase, State
from .variant import Variant

DEFAULT_CAP = 400
BASIC = ("announce", "call", "allow", "pass", "draw", "discard")
TYPE_ORDER = {"announce": 0, "call": 0, "allow": 1, "pass": 1, "draw": 1, "meld": 2, "build": 3, "swap_joker": 4,
              "discard": 5}


def legal_actions(variant: Variant, state: State, cap: int = DEFAULT_CAP, verify_all: bool = False) -> dict[str, Any]:
    """The legal actions of the player to act (and an owed announcement), in canonical order.

    Every candidate is put to the engine, except that new melds are checked once: they are valid,
    held, worth the minimum and leave a card to discard by construction, so what can still refuse
    them (whose turn it is, the phase, an owed obligation) is the same for all of them.  With a
    released joker to place, or ``verify_all``, each is checked."""
    found, cut = candidates(variant, state)
    # the listing's order: by type, then by ``order_key`` (each wire form written once, kept for the answer)
    unique: dict[tuple[int, str], Action] = {}
    wire: dict[int, dict[str, Any]] = {}
    for action in found:
        written = action_to_dict(action)
        key = (TYPE_ORDER[action.type], order_key(action, written))
        if key not in unique:
            unique[key] = action
            wire[id(action)] = written
    ordered = [unique[k] for k in sorted(unique)]
    # The cap cuts the melds, builds and exchanges, never the few moves that end or pass a turn
    # (draws, discards, an owed announcement, the dealer's pass): a cut list stays playable.
    basic = [a for a in ordered if a.type in BASIC]
    plays = [a for a in ordered if a.type not in BASIC]
    room = max(0, cap - len(basic))
    kept = {id(a) for a in plays[:room] + basic[:cap]}
    truncated = cut or len(ordered) > cap
    legal: list[Action] = []
    undetermined: list[Action] = []
    melds_ok: bool | None = None
    shortcut = not verify_all and state.turn.pending_jokers == 0 and state.turn.must_use is None
    for action in ordered:
        if id(action) not in kept:
            continue
        single = isinstance(action, MeldAction) and not action.builds
        if single and shortcut and melds_ok is not None:
            if melds_ok:
                legal.append(action)
            continue
        ok = adjudicate(variant, state, action).legal
        if single:
            melds_ok = ok
        if ok:
            legal.append(action)
        elif ok is None:
            undetermined.append(action)
    out = {"player": state.to_act if state.phase != Phase.ENDED else None, "phase": state.phase,
           "actions": [wire[id(a)] for a in legal], "truncated": truncated, "cap": cap}
    if undetermined:  # a position with unseen cards: actions whose legality the seen cards do not decide
        out["undetermined"] = [wire[id(a)] for a in undetermined]
    return out
