"""A hand's state (rules/state.py) on the wire: openapi.yaml's ``State``, both ways (docs/wire-format.md).

Reading trusts the shape (the edge checked the body against openapi.yaml's ``State``); what it cannot
trust is that the position can occur.  ``state_from_dict`` reads the values, has the core read each
meld under the variant (``state.table_meld``) and check the position (``invariants.check_state``),
and refuses an impossible one with every problem at once (``ImpossibleState``, pointers relative to
the state).

Writing follows the wire conventions: players in seating order, the stock and the discard pile top
card first, hands sorted (suits S H D C, high rank first, jokers last), the cards nobody listed as
counts (``hidden``, ``stock_hidden``), and each field a variant may not use written only when it
holds something, so the states of variants without it read as before.
"""
from __future__ import annotations

from typing import Any, Mapping, TypeVar

from ..cards import CANONICAL, CODE, UNSEEN, parse_card, parse_cards, seen
from ..errors import ImpossibleState, Problem
from ..invariants import check_state
from ..melds import parse_token
from ..state import (FRESH_TURN, PHASE_OF, Announcement, HandResult, Player, Source, State, TableMeld, Turn,
                     table_meld)
from ..variant import Variant

# -- written ----------------------------------------------------------------------------------------


def player_wire(player: Player) -> dict[str, Any]:
    # sorted, the unseen cards come last (``UNSEEN`` sorts after every card): a look at the last one
    # tells whether there are any, without a search of the hand
    cards = sorted(player.hand, key=CANONICAL)
    hidden = 0
    if cards and cards[-1] is UNSEEN:
        hidden = cards.count(UNSEEN)
        del cards[-hidden:]
    out = {"id": player.id, "hand": [c.code for c in cards], "opened": player.opened, "score": player.score,
           "barred": player.barred}
    if hidden:  # written only for a hand given partly or wholly as a count, so full states read as before
        out["hidden"] = hidden
    if player.calls:
        out["calls"] = player.calls
    if player.lay_barred:
        out["lay_barred"] = True
    return out


def table_meld_wire(table_meld: TableMeld) -> dict[str, Any]:
    return {"id": table_meld.id, "owner": table_meld.owner, "kind": table_meld.meld.kind,
            "cards": table_meld.meld.codes}


def turn_wire(turn: Turn) -> dict[str, Any]:
    if turn is FRESH_TURN:  # (every new turn starts from the shared record: its wire form is known)
        return {**_FRESH_WIRE, "builds": {}}
    # a card drawn unseen (from a stock nobody listed) is written as null
    out = {"drawn": turn.drawn.code if turn.drawn and turn.drawn is not UNSEEN else None, "source": turn.source,
           "must_open": turn.must_open, "opened_this_turn": turn.opened_this_turn,
           "pending_jokers": turn.pending_jokers,
           "builds": {mid: {"low": low, "high": high} for mid, low, high in turn.builds}}
    if turn.must_use:  # emitted only while owed, so states of variants without the rule read as before
        out["must_use"] = turn.must_use.code
    return out


# The wire form of the empty turn record, as an answer writes it: a request's turn equal to it is
# read as the shared FRESH_TURN without reading its fields.  (Its ``builds`` is copied when written.)
_FRESH_WIRE: dict[str, Any] = {"drawn": None, "source": None, "must_open": False, "opened_this_turn": False,
                               "pending_jokers": 0, "builds": {}}


def announcement_wire(announcement: Announcement) -> dict[str, Any]:
    return {"player": announcement.player, "count": announcement.count}


def hand_result_wire(result: HandResult) -> dict[str, Any]:
    out: dict[str, Any] = {"how": result.how, "winner": result.winner, "penalties": dict(result.penalties),
                           "payments": dict(result.payments), "scores": dict(result.scores)}
    if result.credits is not None:
        out["credits"] = dict(result.credits)
    return out


def state_wire(state: State) -> dict[str, Any]:
    """A hand's state as the API writes it (read back by ``state_from_dict`` as the same position)."""
    stock = state.stock
    stock_hidden = 0
    if stock and stock[-1] is UNSEEN:  # (the unseen cards of a stock lie beneath the listed ones)
        stock_hidden = stock.count(UNSEEN)
        stock = seen(stock)
    out = {
        "players": [player_wire(p) for p in state.players],
        "dealer": state.dealer,
        "to_act": state.to_act,
        "phase": state.phase,
        "first_play": state.first_play,
        "stock": [c.code for c in stock],
        "discard": [c.code for c in state.discard],
        "melds": [table_meld_wire(m) for m in state.melds],
        "turn": turn_wire(state.turn),
        "announcement": announcement_wire(state.announcement) if state.announcement else None,
        "reshuffles": state.reshuffles,
        "seed": state.seed,
        "result": hand_result_wire(state.result) if state.result else None,
    }
    # each field a variant may not use, written only when it holds something (the keys' order does
    # not matter: an answer is written with its keys sorted)
    if stock_hidden:
        out["stock_hidden"] = stock_hidden
    if state.dealer_option:
        out["dealer_option"] = True
    if state.first_round:
        out["first_round"] = True
    if state.hand_number:
        out["hand_number"] = state.hand_number
    if state.calls:
        out["calls"] = list(state.calls)
    if state.stock_owed:
        out["stock_owed"] = True
    return out


# -- read -------------------------------------------------------------------------------------------


def state_from_dict(data: Mapping[str, Any], variant: Variant) -> State:
    """The state of a wire object that matches openapi.yaml's ``State``; ImpossibleState (every
    problem, pointers relative to the state) if it cannot occur under ``variant``."""
    state, problems = read_state(data, variant)
    problems += check_state(state, variant)
    if problems:
        raise ImpossibleState(problems)
    return state


def read_state(data: Mapping[str, Any], variant: Variant) -> tuple[State, list[Problem]]:
    """The state of a wire object that matches openapi.yaml's ``State``, unchecked, with the problems
    found in reading its melds (a meld that is not a meld under ``variant``)."""
    get = data.get
    players = tuple([_player(p) for p in data["players"]])
    raw_melds = get("melds")
    melds, impossible = _melds(raw_melds, variant) if raw_melds else ((), [])
    raw_turn = get("turn")
    turn = FRESH_TURN if raw_turn is None or raw_turn == _FRESH_WIRE else _turn(raw_turn)
    raw_ann = get("announcement")
    raw_result = get("result")
    stock = parse_cards(data["stock"])
    stock_hidden = get("stock_hidden")
    if stock_hidden:
        stock += (UNSEEN,) * int(stock_hidden)
    # (the counts are JSON integers, possibly written 2.0: int() only when one is given)
    reshuffles, hand_number = get("reshuffles"), get("hand_number")
    state = _made(State, {
        "players": players, "dealer": data["dealer"], "to_act": data["to_act"], "phase": PHASE_OF[data["phase"]],
        "stock": stock, "discard": parse_cards(data["discard"]), "melds": melds,
        "first_play": get("first_play", False), "turn": turn,
        "announcement": None if raw_ann is None else Announcement(raw_ann["player"], int(raw_ann["count"])),
        "reshuffles": int(reshuffles) if reshuffles else 0, "seed": get("seed", ""),
        "result": None if raw_result is None else _result(raw_result),
        "dealer_option": get("dealer_option", False), "first_round": get("first_round", False),
        "hand_number": int(hand_number) if hand_number else 0, "calls": tuple(get("calls") or ()),
        "stock_owed": get("stock_owed", False)})
    return state, impossible


_T = TypeVar("_T")


def _made(cls: type[_T], fields: dict[str, Any]) -> _T:
    """An instance of one of the engine's frozen value types whose fields are ``fields``: the dict
    itself taken as its attributes, for the reader builds a state and its seats on every request
    (the frozen dataclass ``__init__`` sets each field through ``object.__setattr__``).  ``fields``
    is the reader's own dict, shared with nothing, and gives every field in the dataclass's order,
    none other: the interpreter reads the attributes of such an instance as fast as those the
    constructor sets, and copies it (``state.replace``) fastest; in any other order every read of the
    engine and the checks is slower (measured: the first turn's adjudication 0.8x of a parse slower)."""
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", fields)
    return new


def _melds(raws: list[Mapping[str, Any]], variant: Variant) -> tuple[tuple[TableMeld, ...], list[Problem]]:
    """The melds on the table read under ``variant``, and the problem of each that is not a meld."""
    melds, impossible = [], []
    for i, raw in enumerate(raws):
        m = table_meld(raw["id"], raw["owner"], [parse_token(code) for code in raw["cards"]], raw["kind"], variant, i)
        if isinstance(m, Problem):
            impossible.append(m)
        else:
            melds.append(m)
    return tuple(melds), impossible


def _player(p: Mapping[str, Any]) -> Player:
    get = p.get
    hand = parse_cards(p["hand"])
    hidden = get("hidden")
    if hidden:
        hand += (UNSEEN,) * int(hidden)
    # (the counts are JSON integers, possibly written 2.0: int() only when one is given)
    score, calls = get("score"), get("calls")
    return _made(Player, {"id": p["id"], "hand": hand, "opened": get("opened", False),
                          "score": int(score) if score else 0, "barred": get("barred", False),
                          "calls": int(calls) if calls else 0, "lay_barred": get("lay_barred", False)})


def _turn(t: Mapping[str, Any]) -> Turn:
    drawn, must_use = t.get("drawn"), t.get("must_use")
    builds = tuple(sorted((mid, int(c.get("low", 0)), int(c.get("high", 0)))
                          for mid, c in (t.get("builds") or {}).items()))
    source = t.get("source")
    return Turn(None if drawn is None else parse_card(drawn), None if source is None else Source(source),
                t.get("must_open", False),
                t.get("opened_this_turn", False), int(t.get("pending_jokers", 0)), builds,
                None if must_use is None else parse_card(must_use))


def _result(d: Mapping[str, Any]) -> HandResult:
    def table(key: str) -> tuple[tuple[str, int], ...]:
        return tuple((k, int(v)) for k, v in d[key].items())
    credits = d.get("credits")
    return HandResult(d["how"], d["winner"], table("penalties"), table("payments"), table("scores"),
                      None if credits is None else table("credits"))
