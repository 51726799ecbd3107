"""A game of several hands (rules/game.py) on the wire: openapi.yaml's ``Game`` (its players, stakes
and sheet), the game-level actions (``BuyInAction``, ``NextHandAction``), the answer to an action on a
game (``AdjudicateResponse`` with a ``game``) and to ``POST /v1/games``.

``read_game`` reads a game (its shape already checked against openapi.yaml) field by field, its
numbers made integers (``1E2`` is the integer 100), then has the core check it (``checked_game``).
The library's readers, ``game_from_dict`` and ``game_action_from_dict``, first check the value's
shape against openapi.yaml's ``Game`` and ``GameOrHandAction`` (``contract.check``), as the API's
decoder checks a request body's.
"""
from __future__ import annotations

from typing import Any, Mapping, cast

from ..actions import Action
from ..errors import ImpossibleState, MalformedInput, Problem, pointer
from ..game import (GAME_ACTIONS, GAME_PHASES, STAKE_KEYS, Fact, Game, GameAction, GamePlayer, GameStart, GameVerdict,
                    OpenHand, SheetRow, StakesChoice, checked_game, resolve_stakes)
from ..params import Stakes
from ..settlement import Amount
from ..variant import Variant
from .actions import action_from_valid, action_wire
from .contract import check
from .deal import cut_from_valid
from .moves import parse_move
from .state import hand_result_wire, state_from_valid, state_wire
from .verdicts import amount_wire, event_wire, settlement_wire, violation_wire


# -- writing ------------------------------------------------------------------------------------

def game_player_wire(player: GamePlayer) -> dict[str, Any]:
    return {"id": player.id, "score": player.score, "payments": player.payments,
            "paid_to_pool": player.paid_to_pool, "buy_ins": player.buy_ins, "out": player.out}


def game_wire(game: Game) -> dict[str, Any]:
    """openapi.yaml's ``Game``: what ``read_game`` reads back into the same game."""
    return {
        "players": [game_player_wire(p) for p in game.players], "dealer": game.dealer,
        "stakes": dict(game.stakes), "pool": game.pool, "phase": game.phase,
        "hand": state_wire(game.hand) if game.hand else None, "hands_played": game.hands_played,
        "last_hand": game.last_hand, "last_winner": game.last_winner,
        "buy_in_queue": list(game.buy_in_queue), "buy_in_score": game.buy_in_score,
        "winner": game.winner, "sheet": [dict(r) for r in game.sheet],
    }


def fact_wire(fact: Fact) -> dict[str, Any]:
    return {"value": fact.value} if fact.decided else {"undetermined": True, "needs": list(fact.needs)}


def _standing_wire(amount: Amount) -> dict[str, Any]:
    """Over the limit (1) or within it (0), or undetermined with the counts it needs."""
    return {"value": bool(amount.low)} if amount.decided else {"undetermined": True, "needs": list(amount.needs)}


def open_hand_wire(hand: OpenHand) -> dict[str, Any]:
    """A game's hand won with figures open: what is undetermined, the settlement figure by figure, each
    player's standing and the game's outcome."""
    players: dict[str, dict[str, Any]] = {pid: {"over_limit": _standing_wire(a)} for pid, a in hand.over_limit}
    for pid, fact in hand.eliminated:
        players[pid]["eliminated"] = fact_wire(fact)
    for pid, fact in hand.buy_in or ():
        players[pid]["buy_in"] = fact_wire(fact)
    outcome = {"over": fact_wire(hand.over), "winner": fact_wire(hand.winner),
               "payout": {pid: amount_wire(a) for pid, a in hand.payout} if hand.payout is not None else None}
    return {"undetermined": [violation_wire(u) for u in hand.undetermined], "settlement": settlement_wire(hand.settlement),
            "standing": players, "outcome": outcome}


def game_verdict_wire(verdict: GameVerdict) -> dict[str, Any]:
    """The answer to an action on a game (``AdjudicateResponse`` with a ``game``)."""
    hand = verdict.hand if verdict.hand is not None else verdict.game.hand
    return {"legal": verdict.legal, "violations": [violation_wire(v) for v in verdict.violations],
            "game": game_wire(verdict.game), "state": state_wire(hand) if hand else None,
            "events": [event_wire(e) for e in verdict.events],
            "result": hand_result_wire(hand.result) if (verdict.legal and hand and hand.result) else None,
            **(open_hand_wire(verdict.open) if verdict.open is not None else {})}


def game_start_wire(start: GameStart) -> dict[str, Any]:
    """How a game started: the seating draw, the seats, the first dealer and the first deal's events."""
    return {"seating": dict(start.seating), "seats": list(start.seats), "dealer": start.dealer,
            "events": [event_wire(e) for e in start.events]}


# -- reading ------------------------------------------------------------------------------------

def read_stakes(data: Any) -> StakesChoice:
    """openapi.yaml's ``StakesChoice`` (its shape already checked: a preset's name or the four stakes)
    as the core takes it, the stakes made integers."""
    if data is None or isinstance(data, str):
        return data
    return {k: int(data[k]) for k in STAKE_KEYS}


def read_game_action(data: Any) -> GameAction | Action:
    """A game action (``buy_in``, ``decline``, ``next_hand``: openapi.yaml's ``BuyInAction`` and
    ``NextHandAction``, their shapes already checked) kept as a small dict, or a hand action; either
    may be written as text (docs/moves.md: ``"Andy: buy in"``)."""
    if isinstance(data, str):
        return parse_move(data)
    if isinstance(data, Mapping) and data.get("type") in GAME_ACTIONS:
        action = dict(data)
        if data["type"] == "next_hand":
            action["cut"] = cut_from_valid(data.get("cut"))
        return cast(GameAction, action)
    return action_from_valid(data)


def game_action_from_dict(data: Any) -> GameAction | Action:
    """``read_game_action`` for a value of unchecked shape (the library's reader): MalformedInput
    (every problem, pointers relative to the action) if it does not match openapi.yaml's
    ``GameOrHandAction``."""
    check("ActionText" if isinstance(data, str) else "GameOrHandAction", data)
    return read_game_action(data)


def game_action_wire(action: GameAction | Action) -> dict[str, Any]:  # pragma: no cover - the library's and the tests': no answer holds an action read
    """The wire form of a game action (what ``read_game_action`` reads back), or of a hand action."""
    if not isinstance(action, dict):
        return action_wire(action)
    out: dict[str, Any] = {k: v for k, v in action.items() if k != "cut"}
    cut = action.get("cut")
    if cut is not None:
        out["cut"] = {"count": cut.count} if cut.by is None else {"count": cut.count, "by": cut.by}
    return out


GAME_KEYS = {"players", "dealer", "stakes", "pool", "phase", "hand", "hands_played", "last_hand", "last_winner",
             "buy_in_queue", "buy_in_score", "winner", "sheet"}
GP_KEYS = {"id", "score", "payments", "paid_to_pool", "buy_ins", "out"}


def _int(value: Any, path: tuple[str | int, ...], problems: list[Problem], minimum: int = -10**9,
         maximum: int = 10**9, default: int = 0) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or not minimum <= value <= maximum:  # pragma: no cover - openapi.yaml's GamePlayer and Game give these integers the same bounds
        problems.append(Problem(pointer(*path), f"expected an integer from {minimum} to {maximum}"))
        return default
    return int(value)


SHEET_TABLES = {"penalties": 10**9, "payments": 10**9, "credits": 10**9, "scores": 10**9, "ledger": 10**9, "settlement": 2 * 10**9}


def _sheet_row(row: Any, i: int, problems: list[Problem]) -> SheetRow:
    """One row of the sheet, read field by field as ``settle_hand`` writes it (the shapes of
    openapi.yaml's SheetRow), its numbers made integers (``1E2`` is the integer 100)."""
    if not isinstance(row, Mapping):  # pragma: no cover - openapi.yaml's SheetRow is an object
        problems.append(Problem(pointer("sheet", i), "a sheet row is an object"))
        return {}
    out: dict[str, Any] = {}

    def number(value: Any, path: tuple[str | int, ...], lo: int, hi: int) -> int:
        if value is None or (isinstance(value, float) and not value.is_integer()):  # pragma: no cover - openapi.yaml's SheetRow numbers are integers
            problems.append(Problem(pointer(*path), f"expected an integer from {lo} to {hi}"))
            return 0
        return _int(value, path, problems, lo, hi)

    for k, v in row.items():
        at = ("sheet", i, k)
        if k in ("hand", "pool"):
            out[k] = number(v, at, 1 if k == "hand" else 0, 10**6 if k == "hand" else 10**9)
        elif k == "how":
            if v not in ("call_up", "kalookie", "void"):  # pragma: no cover - openapi.yaml's SheetRow.how is this enum
                problems.append(Problem(pointer(*at), "expected one of call_up, kalookie, void"))
            out[k] = v
        elif k in ("dealer", "winner", "game_winner"):
            if not (isinstance(v, str) and len(v) <= 64) and not (v is None and k != "dealer"):  # pragma: no cover - openapi.yaml's SheetRow gives these fields as player ids (or null)
                problems.append(Problem(pointer(*at), "expected a player id" + ("" if k == "dealer" else " or null")))
            out[k] = v
        elif k in SHEET_TABLES or k == "buy_ins":
            if not isinstance(v, Mapping) or len(v) > 12 or not all(isinstance(pid, str) for pid in v):  # pragma: no cover - openapi.yaml's IntTable and SheetRow.buy_ins are objects of at most 12
                problems.append(Problem(pointer(*at), "expected an object of at most 12 player ids"))
                continue
            if k == "buy_ins":
                for pid, x in v.items():
                    if not isinstance(x, bool):  # pragma: no cover - openapi.yaml's SheetRow.buy_ins values are booleans
                        problems.append(Problem(pointer(*at, pid), "expected true or false"))
                out[k] = dict(v)
            else:
                out[k] = {pid: number(x, at + (pid,), -SHEET_TABLES[k], SHEET_TABLES[k]) for pid, x in v.items()}
        elif k == "eliminated":
            if not isinstance(v, list) or len(v) > 12 or not all(isinstance(pid, str) for pid in v):  # pragma: no cover - openapi.yaml's SheetRow.eliminated is a list of at most 12 player ids
                problems.append(Problem(pointer(*at), "expected a list of at most 12 player ids"))
                continue
            out[k] = list(v)
        else:  # pragma: no cover - openapi.yaml's SheetRow has no other fields
            problems.append(Problem(pointer(*at), f"unknown field {k!r}"))
    return cast(SheetRow, out)  # each field read and checked above (the game is refused on any problem)


def _read_players(raw: Any, problems: list[Problem]) -> list[GamePlayer]:
    """A game's players as the wire gives them (each problem added to ``problems``)."""
    players = []
    if not isinstance(raw, list) or not 1 <= len(raw) <= 12:  # pragma: no cover - openapi.yaml's Game.players is a list of 1 to 12
        raise MalformedInput(Problem("/players", "expected a list of 1 to 12 players"))
    for i, p in enumerate(raw):
        if not isinstance(p, Mapping) or not isinstance(p.get("id"), str) or not p["id"]:  # pragma: no cover - openapi.yaml's GamePlayer is an object with a non-empty id
            problems.append(Problem(pointer("players", i), "a player is an object with an id"))
            continue
        for k in p:
            if k not in GP_KEYS:  # pragma: no cover - openapi.yaml's GamePlayer has no other fields
                problems.append(Problem(pointer("players", i, k), f"unknown field {k!r}"))
        out = p.get("out", False)
        if not isinstance(out, bool):  # pragma: no cover - openapi.yaml's GamePlayer.out is a boolean
            problems.append(Problem(pointer("players", i, "out"), "expected true or false"))
            out = False
        # (a score may be below zero: the dealer's exact cut earns a Jamaican dealer -50; openapi.yaml's
        # GamePlayer.score has the same bounds)
        players.append(GamePlayer(p["id"], _int(p.get("score"), ("players", i, "score"), problems, -10**6),
                                  _int(p.get("payments"), ("players", i, "payments"), problems),
                                  _int(p.get("paid_to_pool"), ("players", i, "paid_to_pool"), problems, 0),
                                  _int(p.get("buy_ins"), ("players", i, "buy_ins"), problems, 0, 10), out))
    return players


def _game_fields(data: Mapping[str, Any], problems: list[Problem]) -> tuple[list[str], dict[str, str | None], list[SheetRow], int, int, int | None]:
    """A game's queue, names, sheet and counts as the wire gives them (each problem added to ``problems``)."""
    queue = data.get("buy_in_queue", [])
    if not isinstance(queue, list) or not all(isinstance(q, str) for q in queue):  # pragma: no cover - openapi.yaml's Game.buy_in_queue is a list of player ids
        problems.append(Problem("/buy_in_queue", "expected a list of player ids"))
        queue = []
    strs = {}
    for k in ("dealer", "last_hand", "last_winner", "winner"):
        v = data.get(k)
        if v is not None and not isinstance(v, str):  # pragma: no cover - openapi.yaml's Game gives these as strings or null
            problems.append(Problem(pointer(k), "expected a string or null"))
            v = None
        strs[k] = v
    sheet = data.get("sheet", [])
    if not isinstance(sheet, list) or len(sheet) > 1000:  # pragma: no cover - openapi.yaml's Game.sheet is a list of at most 1000 rows
        problems.append(Problem("/sheet", "expected a list of rows"))
        sheet = []
    sheet = [_sheet_row(row, i, problems) for i, row in enumerate(sheet)]
    pool = _int(data["pool"], ("pool",), problems, 0)
    hands_played = _int(data.get("hands_played"), ("hands_played",), problems, 0)
    buy_in_score = data.get("buy_in_score")
    if buy_in_score is not None:
        buy_in_score = _int(buy_in_score, ("buy_in_score",), problems, 0)
    return queue, strs, sheet, pool, hands_played, buy_in_score


def read_game(data: Any, variant: Variant) -> Game:
    """A game's wire form as the core's value, checked by the core (``checked_game``): a field of the
    wrong shape a ``MalformedInput``, a game that cannot occur an ``ImpossibleState``."""
    problems: list[Problem] = []
    if not isinstance(data, Mapping):  # pragma: no cover - openapi.yaml's Game is an object
        raise MalformedInput(Problem("", "a game is an object"))
    for k in data:
        if k not in GAME_KEYS:  # pragma: no cover - openapi.yaml's Game has no other fields
            problems.append(Problem(pointer(k), f"unknown field {k!r}"))
    for k in ("players", "dealer", "stakes", "pool", "phase"):
        if k not in data:  # pragma: no cover - openapi.yaml's Game requires these fields
            problems.append(Problem(pointer(k), "required field is missing"))
    if problems:  # pragma: no cover - only an unknown or missing field (refused by openapi.yaml's Game) stops here
        raise MalformedInput(problems)
    players = _read_players(data["players"], problems)
    phase = data["phase"]
    if phase not in GAME_PHASES:  # pragma: no cover - openapi.yaml's Game.phase is this enum
        problems.append(Problem("/phase", f"expected one of {', '.join(GAME_PHASES)}"))
    stakes: tuple[tuple[str, int], ...] = ()
    try:
        stakes = resolve_stakes(variant, read_stakes(data["stakes"]))
    except MalformedInput as exc:
        problems.extend(exc.problems)
    queue, strs, sheet, pool, hands_played, buy_in_score = _game_fields(data, problems)
    if problems:
        raise MalformedInput(problems)
    hand = None
    if data.get("hand") is not None:
        hand_variant = variant.with_stakes(Stakes(**dict(stakes)))
        try:
            hand = state_from_valid(data["hand"], hand_variant)
        except (MalformedInput, ImpossibleState) as exc:
            raise exc.prefixed("/hand") from None
    return checked_game(Game(tuple(players), strs["dealer"] or "", stakes, pool, phase, hand, hands_played,
                             strs["last_hand"], strs["last_winner"], tuple(queue), buy_in_score, strs["winner"],
                             tuple(sheet)), variant)


def game_from_dict(data: Any, variant: Variant) -> Game:
    """``read_game`` for a value of unchecked shape (the library's reader): MalformedInput (every
    problem, pointers relative to the game) if it does not match openapi.yaml's ``Game``."""
    check("Game", data)
    return read_game(data, variant)


