"""Settling a game after the fact from its score sheet.

A club sends the stakes, the seats and the list of hand results (winner, call-up or kalookie or
void, the cards left in each loser's hand or the figures it wrote down for them, the buy-in
decisions, and optionally the totals it recorded); the referee replays the sheet with the game rules
and answers the full penalty and payments sheet, the pool, every buy-in and elimination, the winner
and the final settlement, and the first entry that does not agree with the rules, with its clause.

Every entry is settled by ``rules/settlement.py`` under the variant's scoring model, as the hand
engine settles a hand that is played out; what an entry must give is ruled there (and in
``_apply_entry``; decision dec.sheet_figures_in_place_of_cards): the losers' cards, or the figures
the model takes from them (penalties, payments that count cards, the winner's credit).  An entry
that gives neither is refused (422, with the pointer of the missing item).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence, cast

from .cards import Card
from .clause_ids import (BUYIN_DECISION_ORDER, BUYIN_SCORE_RESET_TO_HIGHEST_SURVIVOR, CUT_DEALER_EXACT_COUNT_BONUS,
                         ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR, STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER,
                         TURN_JAMAICAN_MISSING_PLUCK_OR_DISCARD_PENALTY, VOID_NO_SCORE_NO_PAYMENT)
from .engine import Illegal
from . import events as ev
from .errors import MalformedInput, Problem, pointer
from .invariants import player_list_problems
from .game import Game, GamePlayer, StakesChoice, apply_game_action, resolve_stakes, settle_hand
from .params import ScoringModel, Stakes
from .settlement import (PAYMENTS_BALANCE, Impossible, Seat, Unsettled, game_settlement, rule_of, settle_void,
                         settle_won)
from .state import HandResult
from .variant import Variant

@dataclass(frozen=True)
class SheetEntry:
    """One hand of a score sheet as the core's value (openapi.yaml's ``HandEntry``, read by
    rules/wire/scoresheet.py): how it ended and who won it, the figures the sheet wrote down for it
    (each player's, by id), the cards the losers were left with, the buy-in decisions, the dealer's
    exact cut and the infractions reported during it.  A table not written down is empty, except the
    payments: written down (even empty) every player's payment is compared, else none is."""
    how: str                                        # call_up | kalookie | void
    winner: str | None = None
    penalties: Mapping[str, int] = field(default_factory=dict)
    payments: Mapping[str, int] | None = None
    credits: Mapping[str, int] = field(default_factory=dict)
    scores: Mapping[str, int] = field(default_factory=dict)
    ledger: Mapping[str, int] = field(default_factory=dict)
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    buy_ins: Mapping[str, bool] = field(default_factory=dict)
    cut_bonus: bool = False
    infractions: Mapping[str, int] = field(default_factory=dict)

    def table(self, key: str) -> Mapping[str, int]:
        """A figure's table by name (``penalties``, ``payments``, ``credits``, ``infractions``), empty where not written down."""
        return cast("Mapping[str, int] | None", getattr(self, key)) or {}


@dataclass(frozen=True)
class Inconsistency:
    """The first figure of a sheet that does not agree with the rules: the hand (counted from 1), the
    pointer of the figure in the request, why, and the clause of the rule it breaks."""
    hand: int
    pointer: str
    message: str
    clause: str


@dataclass(frozen=True)
class SettledSheet:
    """A score sheet settled by the rules up to its first inconsistency: the game it leaves (its
    sheet's rows, players, pool and phase), what happened, the final settlement of a game it ends."""
    game: Game
    events: tuple[ev.Event, ...]
    settlement: dict[str, int] | None
    inconsistency: Inconsistency | None


class _Inconsistent(Exception):
    def __init__(self, where: str, clause: str, message: str):
        super().__init__(message)
        self.where, self.clause, self.message = where, clause, message


def _entry_problems(entries: Sequence[SheetEntry]) -> list[Problem]:
    """A hand someone won names its winner (openapi.yaml's ``HandEntry`` admits a null one)."""
    return [Problem(pointer("hands", i, "winner"), "a won hand names its winner")
            for i, e in enumerate(entries) if e.how != "void" and e.winner is None]


def settle_sheet(variant: Variant, players: list[str], entries: Sequence[SheetEntry], stakes: StakesChoice = None,
                 dealer: str | None = None) -> SettledSheet:
    """Replay a score sheet with the game rules: the players (seated as listed, ``dealer`` dealing the
    first hand, else the first player), the stakes and the hands' entries; the game it leaves and its
    first inconsistency.  The players' list and the entries' winners are checked first (``MalformedInput``)."""
    problems = player_list_problems(players, variant)
    if dealer is not None and dealer not in players:
        problems.append(Problem("/dealer", f"{dealer!r} is not a player"))
    if problems:
        raise MalformedInput(problems)
    problems = _entry_problems(entries)
    if problems:
        raise MalformedInput(problems)
    agreed = resolve_stakes(variant, stakes)
    initial = dict(agreed)["initial"]
    game = Game(tuple(GamePlayer(p, paid_to_pool=initial) for p in players), dealer or players[0], agreed,
                initial * len(players), "between")
    inconsistency = None
    events: list[ev.Event] = []
    for i, entry in enumerate(entries):
        try:
            game = _apply_entry(variant, game, i, entry, events)
        except _Inconsistent as exc:
            inconsistency = Inconsistency(i + 1, exc.where, exc.message, exc.clause)
            break
    return SettledSheet(game, tuple(events),
                        game_settlement(game.players, game.pool, game.winner) if game.winner else None, inconsistency)


FIGURES = ("penalties", "payments", "credits")


def _apply_entry(variant: Variant, game: Game, i: int, entry: SheetEntry, events: list[ev.Event]) -> Game:
    """Settle one entry (rules/settlement.py, as every hand is settled) and compare what the sheet
    wrote down with what the rules give.  A loser's cards (``hands``) settle every figure; without
    them, the figures the variant's scoring model takes from the cards are read from the sheet (the
    penalty or running total under ``penalty``, the payments where payments count cards, the winner's
    credit or running total under ``winner_collects``).  An entry that gives neither cannot be
    settled: 422 with the pointer of the missing item.  A figure the rules do not give (penalty
    points under a model that keeps none, a wrong payment or credit) is the sheet's inconsistency,
    citing the clause of the variant's own scoring rule."""
    at = pointer("hands", i)
    if game.phase == "over":
        raise _Inconsistent(at, ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR,
                            f"the game ended with {game.winner} the only player within the limit; no hand follows")
    if game.phase == "buy_in":  # pragma: no cover - the previous entry raised unless every owed decision was given (the loop below)
        raise _Inconsistent(at, BUYIN_DECISION_ORDER, "buy-in decisions are still owed")
    ids = [p.id for p in game.players]
    active = [p.id for p in game.active]
    for key in FIGURES + ("hands", "infractions"):
        for pid in entry.hands if key == "hands" else entry.table(key):
            if pid not in ids:
                raise MalformedInput(Problem(at + pointer(key, pid), f"{pid!r} is not a player"))
    game = _adjusted(variant, game, entry, at, events)
    result = _entry_result(variant, game, entry, at, ids, active)
    _compare(variant, game, entry, result, at)
    game = replace(game, phase="hand")
    settled = settle_hand(variant, game, result, events)
    game = _entry_buy_ins(variant, settled, entry, at, events)
    _check_totals(game, settled, entry, at, ids)
    return game


def _entry_result(variant: Variant, game: Game, entry: SheetEntry, at: str, ids: list[str],
                  active: list[str]) -> HandResult:
    """The hand's settlement from what the entry gives (a void hand's, or the winner's with the
    losers' cards or the figures the sheet wrote in their place)."""
    how, winner = entry.how, entry.winner
    if how == "void":
        result = settle_void([Seat(p.id, p.score) for p in game.active])
    else:
        if winner not in ids:
            raise MalformedInput(Problem(at + "/winner", f"{winner!r} is not a player"))
        if winner not in active:
            raise _Inconsistent(at + "/winner", STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER,
                                f"{winner} is out of the game and cannot win a hand")
        for key in ("penalties", "hands"):
            for pid in entry.hands if key == "hands" else entry.penalties:
                if pid not in active:
                    raise _Inconsistent(at + pointer(key, pid), STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER,
                                        f"{pid} is out of the game and plays no more hands")
        recorded = entry.payments
        if recorded is not None and sum(recorded.values()) != 0:
            raise _Inconsistent(at + "/payments", PAYMENTS_BALANCE,
                                f"the recorded payments sum to {sum(recorded.values())}, not 0")
        stakes = dict(game.stakes)
        try:
            result = settle_won(variant.rules, winner, how == "kalookie", _seats(game, entry),
                                Stakes(stakes["call_up"], stakes["kalookie"], stakes["initial"], stakes["buy_in"]))
        except Unsettled as exc:
            raise MalformedInput(Problem(at + pointer(exc.field, exc.player), exc.message)) from None
        except Impossible as exc:
            raise _Inconsistent(at + pointer(exc.field, exc.player), exc.slot, exc.message) from None
    return result


def _entry_buy_ins(variant: Variant, game: Game, entry: SheetEntry, at: str, events: list[ev.Event]) -> Game:
    """The buy-in decisions the entry records, taken in the order they are owed; a decision that is
    not owed is the sheet's inconsistency."""
    decisions = dict(entry.buy_ins)
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
            apply_game_action(variant, game, {"type": "buy_in" if choice else "decline", "player": pid}, [])
        except Illegal as exc:
            raise _Inconsistent(at + pointer("buy_ins", pid), exc.violation.clause, exc.violation.message) from None
        except MalformedInput as exc:
            raise _Inconsistent(at + pointer("buy_ins", pid), BUYIN_DECISION_ORDER, exc.problems[0].detail) from None
    return game


def _check_totals(game: Game, settled: Game, entry: SheetEntry, at: str, ids: list[str]) -> None:
    """The running payments and totals the sheet wrote after the hand, against the rules' (the
    clause of the figure that differs).  A player who buys back in after the hand may be written
    down at the total the hand left them with (``settled``: the total the table writes before
    crossing it out) or at the total they rejoin at (``game``)."""
    how, winner = entry.how, entry.winner
    recorded_ledger = entry.ledger
    if recorded_ledger:
        if sum(recorded_ledger.values()) != 0:
            raise _Inconsistent(at + "/ledger", PAYMENTS_BALANCE,
                                f"the recorded running payments sum to {sum(recorded_ledger.values())}, not 0")
        for pid, value in recorded_ledger.items():
            if pid not in ids:
                raise MalformedInput(Problem(at + pointer("ledger", pid), f"{pid!r} is not a player"))
            actual = game.player(pid).payments
            if value != actual:
                raise _Inconsistent(at + pointer("ledger", pid), rule_of("payments", how, pid == winner),
                                    f"{pid}'s running payments after this hand are {actual}, not {value}")
    recorded_scores = entry.scores
    if recorded_scores:
        for pid, value in recorded_scores.items():
            if pid not in ids:
                raise MalformedInput(Problem(at + pointer("scores", pid), f"{pid!r} is not a player"))
            actual = game.player(pid).score
            bought_in = entry.buy_ins.get(pid) is True
            if value != actual and not (bought_in and value == settled.player(pid).score):
                clause = (BUYIN_SCORE_RESET_TO_HIGHEST_SURVIVOR if bought_in
                          else rule_of("scores", how, pid == winner))
                raise _Inconsistent(at + pointer("scores", pid), clause,
                                    f"{pid}'s total after this hand is {actual}, not {value}")


def _adjusted(variant: Variant, game: Game, entry: SheetEntry, at: str, events: list[ev.Event]) -> Game:
    """``game`` with the points an entry adds to running totals besides the hand's settlement, as
    ``/v1/games`` adds them: the dealer's exact cut (``cut_bonus``: ``deal.dealer_cut_bonus``, given
    at the deal, so it stands if the hand then goes void) and the infractions reported during the
    hand (``infractions``: a player's points, ``penalties.points`` each, which stand on the hand's
    score and are thrown in with a void hand)."""
    if entry.cut_bonus:
        bonus = variant.rules.deal.dealer_cut_bonus
        if not bonus:
            raise _Inconsistent(at + "/cut_bonus", CUT_DEALER_EXACT_COUNT_BONUS,
                                "this table gives no bonus for the dealer's cut")
        game = game.with_player(game.dealer, score=game.player(game.dealer).score + bonus)
        events.append(ev.Penalized(game.dealer, "exact_cut_bonus", bonus))
    points = variant.rules.penalties.points
    for pid, value in entry.infractions.items():
        where = at + pointer("infractions", pid)
        if entry.how == "void" and value:
            raise _Inconsistent(where, VOID_NO_SCORE_NO_PAYMENT,
                                "a void hand is thrown in with the penalties reported during it")
        if value and not points:
            raise _Inconsistent(where, TURN_JAMAICAN_MISSING_PLUCK_OR_DISCARD_PENALTY,
                                "this table charges no points for an infraction")
        if value < 0 or (points and value % points):
            raise _Inconsistent(where, TURN_JAMAICAN_MISSING_PLUCK_OR_DISCARD_PENALTY,
                                f"an infraction costs {points} points, so a hand's infractions cost a multiple of "
                                f"{points}, not {value}")
        if pid not in [p.id for p in game.active]:
            raise _Inconsistent(where, STAKES_WINNER_PAID_BY_EACH_ACTIVE_PLAYER,
                                f"{pid} is out of the game and plays no more hands")
        if value:
            game = game.with_player(pid, score=game.player(pid).score + value)
            events.append(ev.Penalized(pid, "reported_infractions", value))
    return game


def _seats(game: Game, entry: SheetEntry) -> list[Seat]:
    """The players of the hand with what the entry says of them (see ``_apply_entry``)."""
    hands, penalties, credits, payments = entry.hands, entry.penalties, entry.credits, entry.payments
    totals, buying_in = entry.scores, entry.buy_ins
    seats = []
    for p in game.active:
        seats.append(Seat(
            p.id, p.score,
            cards=hands.get(p.id),
            penalty=penalties.get(p.id),
            payment=payments.get(p.id, 0) if payments is not None else None,
            credit=credits.get(p.id),
            # a player buying back in is written down at the total they rejoin at
            total=totals[p.id] if p.id in totals and not buying_in.get(p.id) else None))
    return seats


def _compare(variant: Variant, game: Game, entry: SheetEntry, result: HandResult, at: str) -> None:
    """The first figure the entry wrote down that differs from ``result``, as the inconsistency."""
    model = variant.rules.scoring.model
    given_cards = entry.hands
    for figure in ("penalties", "credits"):
        table = dict((result.credits or ()) if figure == "credits" else result.penalties)
        for pid, got in entry.table(figure).items():
            want = table.get(pid, 0)
            if got == want:
                continue
            if result.how == "void":
                message = "a void hand scores no penalty and pays nothing"
            elif figure == "penalties" and pid == result.winner:
                message = f"{pid} won the hand and scores no penalty"
            elif figure == "penalties" and model != ScoringModel.PENALTY:
                message = (f"{pid} takes no penalty points under this variant's scoring ("
                           + ("the winner is credited with the cards left in the other hands"
                              if model == ScoringModel.WINNER_COLLECTS else "each hand is paid off card by card")
                           + f"), not {got}")
            elif figure == "penalties":
                what = "cards are worth" if pid in given_cards else "penalty is"
                message = f"{pid}'s {what} {want}, not {got}"
            elif model != ScoringModel.WINNER_COLLECTS:
                message = f"no one is credited with points under this variant's scoring, not {pid} with {got}"
            elif pid == result.winner:
                message = f"{pid} is credited with the cards left in the other hands, {want}, not {got}"
            else:
                message = f"only the winner is credited with points, not {pid} with {got}"
            raise _Inconsistent(at + pointer(figure, pid), rule_of(figure, result.how, pid == result.winner),
                                message)
    recorded = entry.payments
    if recorded is not None:
        payments = dict(result.payments)
        for pid in [p.id for p in game.players]:
            got, want = recorded.get(pid, 0), payments.get(pid, 0)
            if got != want:
                if result.how == "void":
                    message = "a void hand scores no penalty and pays nothing"
                else:
                    moved = (f"received {want}" if want > 0 else f"paid {-want}" if want < 0
                             else "neither paid nor received anything")
                    message = f"{pid} should have {moved} in this hand; the sheet has {got}"
                raise _Inconsistent(at + pointer("payments", pid),
                                    rule_of("payments", result.how, pid == result.winner), message)

def _decide(variant: Variant, game: Game, pid: str, choice: bool, at: str, events: list[ev.Event]) -> Game:
    try:
        return apply_game_action(variant, game, {"type": "buy_in" if choice else "decline", "player": pid}, events)
    except Illegal as exc:
        raise _Inconsistent(at + pointer("buy_ins", pid), exc.violation.clause, exc.violation.message) from None
