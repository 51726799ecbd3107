"""Settling a game after the fact from its score sheet.

A club sends the stakes, the seats and the list of hand results (winner, call-up or kalookie or
void, each loser's penalty or the cards left in their hand, the buy-in decisions, and optionally
the totals it recorded); the referee replays the sheet with the game rules and answers the full
penalty and payments sheet, the pool, every buy-in and elimination, the winner and the final
settlement, and the first entry that does not agree with the rules, with its clause.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from .cards import CardError, parse_card
from .clause_ids import (BUYIN_DECISION_ORDER, BUYIN_SCORE_RESET_TO_HIGHEST_SURVIVOR,
                         ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR, GO_OUT_WINNER_SCORES_NOTHING,
                         KALOOKIE_PAYS_KALOOKIE_STAKE, SCORE_PENALTY_POINTS_CUMULATIVE,
                         STAKES_LEDGER_BALANCES, STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER,
                         VOID_NO_SCORE_NO_PAYMENT)
from .clauses import citation
from .engine import Illegal
from .errors import MalformedInput, Problem, pointer
from .game import Game, GamePlayer, _game_action, resolve_stakes, settle_hand
from .melds import card_penalty
from .state import HandResult
from .variant import Variant

HAND_KEYS = {"winner", "how", "penalties", "hands", "buy_ins", "payments", "scores", "ledger"}


class _Inconsistent(Exception):
    def __init__(self, where: str, clause: str, message: str):
        super().__init__(message)
        self.where, self.clause, self.message = where, clause, message


def _check_shape(hands: Any) -> None:
    problems = []
    if not isinstance(hands, list) or len(hands) > 500:
        raise MalformedInput(Problem("/hands", "expected a list of at most 500 hand results"))
    for i, h in enumerate(hands):
        if not isinstance(h, Mapping):
            problems.append(Problem(pointer("hands", i), "a hand result is an object"))
            continue
        for k in h:
            if k not in HAND_KEYS:
                problems.append(Problem(pointer("hands", i, k), f"unknown field {k!r}"))
        if h.get("how") not in ("call_up", "kalookie", "void"):
            problems.append(Problem(pointer("hands", i, "how"), "expected call_up, kalookie or void"))
        if h.get("how") != "void" and not isinstance(h.get("winner"), str):
            problems.append(Problem(pointer("hands", i, "winner"), "a won hand names its winner"))
        for k in ("penalties", "payments", "scores", "ledger", "buy_ins", "hands"):
            if k in h and not isinstance(h[k], Mapping):
                problems.append(Problem(pointer("hands", i, k), "expected an object keyed by player id"))
        for k in ("penalties", "payments", "scores", "ledger"):
            for pid, v in (h.get(k) or {}).items() if isinstance(h.get(k), Mapping) else ():
                if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v) or abs(v) > 10**9:
                    problems.append(Problem(pointer("hands", i, k, pid), "expected an integer"))
        for pid, v in (h.get("buy_ins") or {}).items() if isinstance(h.get("buy_ins"), Mapping) else ():
            if not isinstance(v, bool):
                problems.append(Problem(pointer("hands", i, "buy_ins", pid), "expected true (buys in) or false"))
        for pid, cards in (h.get("hands") or {}).items() if isinstance(h.get("hands"), Mapping) else ():
            if not isinstance(cards, list) or len(cards) > 60:
                problems.append(Problem(pointer("hands", i, "hands", pid), "expected a list of card codes"))
                continue
            for j, c in enumerate(cards):
                try:
                    parse_card(c)
                except CardError as exc:
                    problems.append(Problem(pointer("hands", i, "hands", pid, j), str(exc)))
    if problems:
        raise MalformedInput(problems)


def score_sheet(variant: Variant, players: list[str], hands: list, stakes: Any = None,
                dealer: str | None = None) -> dict:
    problems = []
    if not isinstance(players, list) or len(set(players)) != len(players):
        problems.append(Problem("/players", "player ids must be unique"))
    lo, hi = variant.rules.players.min, variant.rules.players.max
    if isinstance(players, list) and not lo <= len(players) <= hi:
        problems.append(Problem("/players", f"{len(players)} players; this variant is for {lo} to {hi}"))
    if dealer is not None and dealer not in players:
        problems.append(Problem("/dealer", f"{dealer!r} is not a player"))
    if problems:
        raise MalformedInput(problems)
    _check_shape(hands)
    agreed = resolve_stakes(variant, stakes)
    initial = dict(agreed)["initial"]
    game = Game(tuple(GamePlayer(p, paid_to_pool=initial) for p in players), dealer or players[0], agreed,
                initial * len(players), "between")
    inconsistency = None
    events: list[dict] = []
    for i, entry in enumerate(hands):
        try:
            game = _apply_entry(variant, game, i, entry, events)
        except _Inconsistent as exc:
            clause = variant.cite(exc.clause)
            inconsistency = {"hand": i + 1, "pointer": exc.where, "clause": clause, "message": exc.message,
                             **citation(clause, variant.documents)}
            break
    return {
        "stakes": dict(game.stakes),
        "rows": [dict(r) for r in game.sheet],
        "players": [p.to_dict() for p in game.players],
        "pool": game.pool,
        "phase": game.phase,
        "buy_in_queue": list(game.buy_in_queue),
        "winner": game.winner,
        "settlement": ({p.id: p.payments - p.paid_to_pool + (game.pool if p.id == game.winner else 0)
                        for p in game.players} if game.winner else None),
        "events": events,
        "inconsistency": inconsistency,
    }


def _apply_entry(variant: Variant, game: Game, i: int, entry: Mapping, events: list[dict]) -> Game:
    at = pointer("hands", i)
    if game.phase == "over":
        raise _Inconsistent(at, ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR,
                            f"the game ended with {game.winner} the only player within the limit; no hand follows")
    if game.phase == "buy_in":  # decisions of the previous entry were incomplete (checked there)
        raise _Inconsistent(at, BUYIN_DECISION_ORDER, "buy-in decisions are still owed")
    active = [p.id for p in game.active]
    how = entry["how"]
    winner = entry.get("winner")
    if how == "void":
        for key in ("penalties", "payments"):
            for pid, v in (entry.get(key) or {}).items():
                if v:
                    raise _Inconsistent(at + pointer(key, pid), VOID_NO_SCORE_NO_PAYMENT,
                                        "a void hand scores no penalty and pays nothing")
        zero = tuple((pid, 0) for pid in active)
        result = HandResult("void", None, zero, zero, tuple((p.id, p.score) for p in game.active))
    else:
        if winner not in [p.id for p in game.players]:
            raise MalformedInput(Problem(at + "/winner", f"{winner!r} is not a player"))
        if winner not in active:
            raise _Inconsistent(at + "/winner", STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER,
                                f"{winner} is out of the game and cannot win a hand")
        penalties = _penalties(variant, game, entry, at, winner, active, how)
        stake = game.stake("kalookie" if how == "kalookie" else "call_up")
        losers = [pid for pid in active if pid != winner]
        payments = {pid: (stake * len(losers) if pid == winner else -stake) for pid in active}
        recorded = entry.get("payments")
        if recorded is not None:
            if sum(recorded.values()) != 0:
                raise _Inconsistent(at + "/payments", STAKES_LEDGER_BALANCES,
                                    f"the recorded payments sum to {sum(recorded.values())}, not 0")
            for pid in [p.id for p in game.players]:
                got, want = int(recorded.get(pid, 0)), payments.get(pid, 0)
                if got != want:
                    clause = (KALOOKIE_PAYS_KALOOKIE_STAKE if how == "kalookie"
                              else STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER)
                    raise _Inconsistent(at + pointer("payments", pid), clause,
                                        f"{pid} should have {'received' if want > 0 else 'paid'} {abs(want)}, not {got}")
        result = HandResult(how, winner, tuple((pid, penalties[pid]) for pid in active),
                            tuple((pid, payments[pid]) for pid in active),
                            tuple((p.id, p.score + penalties[p.id]) for p in game.active))
    game = replace(game, phase="hand")
    game = settle_hand(variant, game, result, events)
    decisions = dict(entry.get("buy_ins") or {})
    while game.phase == "buy_in":
        pid = game.buy_in_queue[0]
        if pid not in decisions:
            raise _Inconsistent(at + "/buy_ins", BUYIN_DECISION_ORDER,
                                f"{pid} is over the limit and must decide whether to buy in (in order: "
                                f"{', '.join(game.buy_in_queue)})")
        choice = decisions.pop(pid)
        game = _decide(variant, game, pid, choice, at, events)
    for pid, choice in decisions.items():
        try:
            _game_action(variant, game, {"type": "buy_in" if choice else "decline", "player": pid}, [])
        except Illegal as exc:
            raise _Inconsistent(at + pointer("buy_ins", pid), exc.violation.clause, exc.violation.message) from None
        except MalformedInput as exc:
            raise _Inconsistent(at + pointer("buy_ins", pid), BUYIN_DECISION_ORDER, exc.problems[0].detail) from None
    recorded_ledger = entry.get("ledger")
    if recorded_ledger is not None:
        if sum(int(v) for v in recorded_ledger.values()) != 0:
            raise _Inconsistent(at + "/ledger", STAKES_LEDGER_BALANCES,
                                f"the recorded running payments sum to {sum(recorded_ledger.values())}, not 0")
        for pid, value in recorded_ledger.items():
            if pid not in [p.id for p in game.players]:
                raise MalformedInput(Problem(at + pointer("ledger", pid), f"{pid!r} is not a player"))
            actual = game.player(pid).payments
            if int(value) != actual:
                clause = KALOOKIE_PAYS_KALOOKIE_STAKE if how == "kalookie" else STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER
                raise _Inconsistent(at + pointer("ledger", pid), clause,
                                    f"{pid}'s running payments after this hand are {actual}, not {int(value)}")
    recorded_scores = entry.get("scores")
    if recorded_scores is not None:
        for pid, value in recorded_scores.items():
            if pid not in [p.id for p in game.players]:
                raise MalformedInput(Problem(at + pointer("scores", pid), f"{pid!r} is not a player"))
            actual = game.player(pid).score
            if int(value) != actual:
                clause = (BUYIN_SCORE_RESET_TO_HIGHEST_SURVIVOR if decisions.get(pid) is True
                          or (entry.get("buy_ins") or {}).get(pid) is True else SCORE_PENALTY_POINTS_CUMULATIVE)
                raise _Inconsistent(at + pointer("scores", pid), clause,
                                    f"{pid}'s total after this hand is {actual}, not {int(value)}")
    return game


def _decide(variant: Variant, game: Game, pid: str, choice: bool, at: str, events: list[dict]) -> Game:
    try:
        return _game_action(variant, game, {"type": "buy_in" if choice else "decline", "player": pid}, events)
    except Illegal as exc:
        raise _Inconsistent(at + pointer("buy_ins", pid), exc.violation.clause, exc.violation.message) from None


def _penalties(variant: Variant, game: Game, entry: Mapping, at: str, winner: str, active: list[str],
               how: str) -> dict[str, int]:
    given = dict(entry.get("penalties") or {})
    cards = dict(entry.get("hands") or {})
    multiplier = variant.rules.kalookie.penalty_multiplier if how == "kalookie" else 1
    recorded = dict(entry.get("scores") or {})
    buying_in = dict(entry.get("buy_ins") or {})
    out: dict[str, int] = {}
    for pid in list(given) + list(cards):
        if pid not in [p.id for p in game.players]:
            raise MalformedInput(Problem(at + pointer("penalties", pid), f"{pid!r} is not a player"))
        if pid not in active:
            raise _Inconsistent(at + pointer("penalties", pid), STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER,
                                f"{pid} is out of the game and plays no more hands")
    for pid in active:
        if pid in cards:
            value = sum(card_penalty(parse_card(c), variant) for c in cards[pid]) * multiplier
            if pid in given and int(given[pid]) != value:
                raise _Inconsistent(at + pointer("penalties", pid), SCORE_PENALTY_POINTS_CUMULATIVE,
                                    f"{pid}'s cards are worth {value}, not {given[pid]}")
            out[pid] = value
        elif pid in given:
            out[pid] = int(given[pid])
        elif pid == winner:
            out[pid] = 0
        elif pid in recorded and not buying_in.get(pid):
            # only the running total was written down: the penalty is the difference, never negative
            before = game.player(pid).score
            if int(recorded[pid]) < before:
                raise _Inconsistent(at + pointer("scores", pid), SCORE_PENALTY_POINTS_CUMULATIVE,
                                    f"{pid}'s total cannot fall from {before} to {int(recorded[pid])}: "
                                    "penalty points only ever accumulate")
            out[pid] = int(recorded[pid]) - before
        else:
            raise _Inconsistent(at + pointer("penalties", pid), SCORE_PENALTY_POINTS_CUMULATIVE,
                                f"the penalty of {pid}, who lost the hand, is missing")
        if out[pid] < 0:
            raise _Inconsistent(at + pointer("penalties", pid), SCORE_PENALTY_POINTS_CUMULATIVE,
                                "a penalty cannot be negative")
    if out.get(winner, 0) != 0:
        raise _Inconsistent(at + pointer("penalties", winner), GO_OUT_WINNER_SCORES_NOTHING,
                            f"{winner} won the hand and scores no penalty")
    return out
