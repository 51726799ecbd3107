"""A hand's state (rules/state.py) on the wire: openapi.yaml's ``State``, both ways (docs/wire-format.md).

``state_from_dict``, the library's reader, checks the value's shape against openapi.yaml's ``State``
(``contract.check``: a ``MalformedInput`` naming each bad field by its pointer, as the API would);
``state_from_valid``, the API's, trusts it (the edge checked the whole request body).  Both read the
values, have the core read each meld under the variant (``state.table_meld``) and check the position
(``invariants.check_state``), and refuse an impossible one with every problem at once
(``ImpossibleState``); every pointer is relative to the state.

Writing follows the wire conventions: players in seating order, the stock and the discard pile top
card first, hands sorted (suits S H D C, high rank first, jokers last), the cards nobody listed as
counts (``hidden``, ``stock_hidden``), and each field a variant may not use written only when it
holds something, so the states of variants without it read as before.
"""
from __future__ import annotations

from dataclasses import MISSING
from dataclasses import fields as dataclass_fields
from typing import Any, Mapping

from ..cards import CODE_AT_ORDER, UNSEEN, parse_card, parse_cards, seen
from ..errors import ImpossibleState, Problem
from ..invariants import check_state
from ..melds import tokens_of
from ..state import (FRESH_TURN, Announcement, HandResult, Phase, Player, Source, State, TableMeld, Turn,
                     build, table_meld)
from ..variant import Variant
from .contract import check

# -- written ----------------------------------------------------------------------------------------


def player_wire(player: Player) -> dict[str, Any]:
    """A seat as a state writes it (docs/library.md)."""
    return players_wire((player,))[0]


def players_wire(players: tuple[Player, ...]) -> list[dict[str, Any]]:
    """The seats in seating order, as ``player_wire`` writes each (one loop, not a call per seat: a
    fifteenth of their cost, measured on README's first turn)."""
    written = []
    for player in players:
        # the hand's codes sorted by their cards' places in the canonical order (a code's place read
        # from ``_PLACE_OF_CODE``: one comprehension and a sort, the cheapest of the ways measured);
        # the unseen cards' "?" comes last: a look at the last code tells whether there are any
        codes = [c.code for c in player.hand]
        codes.sort(key=_PLACE_OF_CODE)
        hidden = 0
        if codes and codes[-1] == _UNSEEN_CODE:
            hidden = codes.count(_UNSEEN_CODE)
            del codes[-hidden:]
        # (the keys in sorted order, as the answer writes them: its sort then has the least to do)
        out = {"barred": player.barred, "hand": codes, "id": player.id, "opened": player.opened, "score": player.score}
        if hidden:  # written only for a hand given partly or wholly as a count, so full states read as before
            out["hidden"] = hidden
        if player.calls:
            out["calls"] = player.calls
        if player.lay_barred:
            out["lay_barred"] = True
        written.append(out)
    return written


_UNSEEN_CODE = UNSEEN.code
# Each code's place in the canonical order (``Card.order``), the unseen card's after every card's.
_PLACES = {code: order for order, code in enumerate(CODE_AT_ORDER) if code is not None} | {_UNSEEN_CODE: UNSEEN.order}
_PLACE_OF_CODE = _PLACES.__getitem__


def table_meld_wire(table_meld: TableMeld) -> dict[str, Any]:
    return {"cards": table_meld.meld.codes, "id": table_meld.id, "kind": table_meld.meld.kind,
            "owner": table_meld.owner}


def turn_wire(turn: Turn) -> dict[str, Any]:
    # (the keys in sorted order here and below, as the answer writes them: its sort has the least to do)
    if turn is FRESH_TURN:  # (every new turn starts from the shared record: its wire form is known)
        return {"builds": {}, "drawn": None, "must_open": False, "opened_this_turn": False, "pending_jokers": 0,
                "source": None}
    # a card drawn unseen (from a stock nobody listed) is written as null
    builds = turn.builds
    out = {"builds": {mid: {"high": high, "low": low} for mid, low, high in builds} if builds else {},
           "drawn": turn.drawn.code if turn.drawn and turn.drawn is not UNSEEN else None,
           "must_open": turn.must_open, "opened_this_turn": turn.opened_this_turn,
           "pending_jokers": turn.pending_jokers, "source": turn.source}
    if turn.must_use:  # emitted only while owed, so states of variants without the rule read as before
        out["must_use"] = turn.must_use.code
    return out


# The wire form of the empty turn record, as an answer writes it (``turn_wire(FRESH_TURN)``): a
# request's turn equal to it is read as the shared FRESH_TURN without reading its fields.
_FRESH_WIRE: dict[str, Any] = {"builds": {}, "drawn": None, "must_open": False, "opened_this_turn": False,
                               "pending_jokers": 0, "source": None}


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
    melds, discard = state.melds, state.discard
    out = {  # (the keys in sorted order, as the answer writes them; no comprehension run on nothing)
        "announcement": announcement_wire(state.announcement) if state.announcement else None,
        "dealer": state.dealer,
        "discard": [c.code for c in discard] if discard else [],
        "first_play": state.first_play,
        "melds": [table_meld_wire(m) for m in melds] if melds else [],
        "phase": state.phase,
        "players": players_wire(state.players),
        "reshuffles": state.reshuffles,
        "result": hand_result_wire(state.result) if state.result else None,
        "seed": state.seed,
        "stock": [c.code for c in stock] if stock else [],
        "to_act": state.to_act,
        "turn": turn_wire(state.turn),
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
    """The state of a wire object: MalformedInput (every problem, pointers relative to the state) if
    it does not match openapi.yaml's ``State``, ImpossibleState if it cannot occur under ``variant``."""
    check("State", data)
    return state_from_valid(data, variant)


def state_from_valid(data: Mapping[str, Any], variant: Variant) -> State:
    """``state_from_dict`` for a wire object already found to match openapi.yaml's ``State`` (a part
    of a request body the API's decoder checked whole)."""
    state, problems = read_state(data, variant)
    problems += check_state(state, variant)
    if problems:
        raise ImpossibleState(problems)
    return state


def read_state(data: Mapping[str, Any], variant: Variant) -> tuple[State, list[Problem]]:
    """The state of a wire object that matches openapi.yaml's ``State``, unchecked, with the problems
    found in reading its melds (a meld that is not a meld under ``variant``)."""
    # The wire's names are the fields' names: the wire object overlaid on every field at its default,
    # in the dataclass's order, gives each field in its place (see ``state.build``) in one C call; then
    # the values that are not yet what the field holds are read into them.
    fields = {**_STATE_FIELDS, **data}
    stock_hidden = 0
    if "stock_hidden" in fields:  # (the one name that is no field: the count of unseen stock cards)
        stock_hidden = int(fields.pop("stock_hidden"))
        fields = dict(fields)  # (copied without the gap the name left)
    fields["players"] = tuple([_player(p) for p in fields["players"]])
    raw_melds = fields["melds"]
    fields["melds"], impossible = _melds(raw_melds, variant) if raw_melds else ((), [])
    raw_turn = fields["turn"]
    fields["turn"] = FRESH_TURN if raw_turn is None or raw_turn == _FRESH_WIRE else _turn(raw_turn)
    raw_ann = fields["announcement"]
    if raw_ann is not None:
        fields["announcement"] = Announcement(raw_ann["player"], int(raw_ann["count"]))
    raw_result = fields["result"]
    if raw_result is not None:
        fields["result"] = _result(raw_result)
    fields["phase"] = Phase(fields["phase"])
    stock = parse_cards(fields["stock"])
    fields["stock"] = stock + (UNSEEN,) * stock_hidden if stock_hidden else stock
    fields["discard"] = parse_cards(fields["discard"])
    fields["calls"] = tuple(fields["calls"] or ())
    # (the counts are JSON integers, possibly written 2.0: int() for one that is not an int)
    reshuffles, hand_number = fields["reshuffles"], fields["hand_number"]
    fields["reshuffles"] = reshuffles if reshuffles.__class__ is int else int(reshuffles)
    fields["hand_number"] = hand_number if hand_number.__class__ is int else int(hand_number)
    return build(State, fields), impossible


# Every field of a state and of a seat at its default, in the dataclass's order (a required one as
# None, always given; "turn" None is the fresh turn).
_STATE_FIELDS: dict[str, Any] = {f.name: None if f.default is MISSING else f.default for f in dataclass_fields(State)}
_PLAYER_FIELDS: dict[str, Any] = {f.name: None if f.default is MISSING else f.default
                                  for f in dataclass_fields(Player)}


def _melds(raws: list[Mapping[str, Any]], variant: Variant) -> tuple[tuple[TableMeld, ...], list[Problem]]:
    """The melds on the table read under ``variant``, and the problem of each that is not a meld."""
    melds, impossible = [], []
    for i, raw in enumerate(raws):
        m = table_meld(raw["id"], raw["owner"], tokens_of(raw["cards"]), raw["kind"], variant, i)
        if isinstance(m, Problem):
            impossible.append(m)
        else:
            melds.append(m)
    return tuple(melds), impossible

def _player(p: Mapping[str, Any]) -> Player:
    fields = {**_PLAYER_FIELDS, **p}   # (as for the state, above)
    if "hidden" in fields:  # (the one name that is no field: its count made unseen cards)
        fields["hand"] = parse_cards(fields["hand"]) + (UNSEEN,) * int(fields.pop("hidden"))
        fields = dict(fields)  # (copied without the gap the name left)
    else:
        fields["hand"] = parse_cards(fields["hand"])
    # (JSON integers, possibly written 2.0: written back only where one is not an int)
    if fields["score"].__class__ is not int:
        fields["score"] = int(fields["score"])
    if fields["calls"].__class__ is not int:
        fields["calls"] = int(fields["calls"])
    return build(Player, fields)

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
