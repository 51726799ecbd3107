"""Settling a hand, and a game: the one place where the referee does the arithmetic of a hand's end.

Every finished hand is settled here, whoever asks: the hand engine when a player goes out (it knows
every loser's cards), the score sheet for each entry (it may know only the figures a club wrote
down), and the game when the last player is left.

A won hand, under the variant's scoring model (``rules.scoring.model``):

* ``penalty`` - each loser scores the value of the cards left in hand (``rules.values``), times
  ``kalookie.penalty_multiplier`` after a kalookie; the winner scores nothing;
* ``winner_collects`` - nobody scores a penalty; the winner is credited with the value of every card
  left in the other hands (the ``credits`` of the result);
* ``per_card`` - nobody scores points at all: each hand is paid off in money.

Under every model each loser pays the winner the stake of how the hand ended (``stakes.call_up`` or
``stakes.kalookie``: the game's agreed stakes where a game is played) plus ``scoring.per_card`` for
each natural and ``scoring.per_joker`` for each joker still held, that per-card part times
``kalookie.payment_multiplier`` after a kalookie.  A void hand scores nothing and moves nothing.

What must be known to settle a won hand (the score sheet's rule, decided as a neutral referee): a
loser's cards settle every figure.  Where they are not given, a figure the model takes from them may
be given as written on the sheet instead, and is then taken as written if the rules allow it:

* a loser's penalty under ``penalty`` - the penalty as written (any kalookie multiplier already
  applied), or else the running total after the hand (the penalty is the difference,
  dec.sheet_totals_as_penalties);
* a loser's payment where payments count cards (``per_card`` or ``per_joker`` above 0) - what the
  sheet records the loser paying; it must be the stake plus some whole number of cards and jokers
  (at least one card) at the variant's rates;
* the winner's credit under ``winner_collects`` - the credit, or else the winner's running total;
  without every loser's cards only the winner's figure can say what the losers held.

A figure that is needed and is neither computable from cards nor written down leaves the hand
unsettled (``Unsettled``: the score sheet answers 422 with a pointer to the loser's missing
``hands`` entry, or to the missing penalty).  Penalty points written down for a loser under a model
that has none (``winner_collects``, ``per_card``) are not read as cards: they are figures the rules
do not give, and the score sheet reports them as its inconsistency, citing the variant's own
scoring clause.  A written figure the rules cannot produce (a negative penalty, a payment no hand
can cost) is ``Impossible``.

Which rule a figure comes from, for a citation, is a *slot* (``rule_of``); the clause a slot cites
is a referee clause (``referee.settlement_*``) that each variant maps to its own statement of the rule
(its ``clause_map``, applied by ``Variant.cite``).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from .cards import Card
from .clause_ids import (REFEREE_SETTLEMENT_HAND_PAYMENT, REFEREE_SETTLEMENT_HAND_PENALTY,
                         REFEREE_SETTLEMENT_KALOOKIE_PAYMENT, REFEREE_SETTLEMENT_KALOOKIE_PENALTY,
                         REFEREE_SETTLEMENT_PAYMENTS_BALANCE, REFEREE_SETTLEMENT_RUNNING_TOTAL,
                         REFEREE_SETTLEMENT_VOID_PAYMENT, REFEREE_SETTLEMENT_VOID_PENALTY,
                         REFEREE_SETTLEMENT_WINNER_POINTS)
from .params import Rules, Scoring, ScoringModel, Stakes, Values
from .state import HandResult
from .clause_ids import (VALUES_ACE11_PICTURES10_PIPS, VALUES_GRIFFIN_JOKER_IN_HAND_25,
                         VALUES_JOKER_IN_HAND_15, VALUES_NORTH_AMERICAN_ACE15_JOKER25)
from .clauses import enforces

Figure = Literal["penalties", "payments", "credits", "scores"]

# The rules a hand's figures come from: referee clauses each variant maps to its own statement.
HAND_PENALTY = REFEREE_SETTLEMENT_HAND_PENALTY          # a loser's penalty after a call-up
KALOOKIE_PENALTY = REFEREE_SETTLEMENT_KALOOKIE_PENALTY  # a loser's penalty after a kalookie
WINNER_POINTS = REFEREE_SETTLEMENT_WINNER_POINTS        # the winner's points: no penalty, or the credit collected
RUNNING_TOTAL = REFEREE_SETTLEMENT_RUNNING_TOTAL        # a running total after the hand
HAND_PAYMENT = REFEREE_SETTLEMENT_HAND_PAYMENT          # what a loser pays the winner after a call-up
KALOOKIE_PAYMENT = REFEREE_SETTLEMENT_KALOOKIE_PAYMENT  # ... after a kalookie
PAYMENTS_BALANCE = REFEREE_SETTLEMENT_PAYMENTS_BALANCE  # a hand's payments add up to nothing
VOID_PENALTY = REFEREE_SETTLEMENT_VOID_PENALTY          # a void hand scores nothing
VOID_PAYMENT = REFEREE_SETTLEMENT_VOID_PAYMENT          # a void hand moves no stake
SLOTS = (HAND_PENALTY, KALOOKIE_PENALTY, WINNER_POINTS, RUNNING_TOTAL, HAND_PAYMENT, KALOOKIE_PAYMENT,
         PAYMENTS_BALANCE, VOID_PENALTY, VOID_PAYMENT)


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at the end of a hand (the seats are given in seating order).

    ``score`` is the running total before the hand.  ``cards`` are the cards left in hand (the
    winner's are empty), or None where they are not known.  The other fields are the figures a score
    sheet wrote down for the hand, with the sheet's signs (a loser's payment negative); they settle
    the hand only where the cards are not known and the model needs them (see the module's text)."""
    id: str
    score: int = 0
    cards: tuple[Card, ...] | None = None
    penalty: int | None = None
    payment: int | None = None
    credit: int | None = None
    total: int | None = None
    hidden: int = 0     # cards held beside ``cards`` that nobody listed (``settle_open``)


class Unsettled(Exception):
    """The hand cannot be settled from what is known: a figure the scoring model takes from
    ``player``'s cards is neither computable (the cards are not given) nor written down.  ``field``
    is the score-sheet entry field where the missing item belongs."""

    def __init__(self, player: str, field: str, message: str) -> None:
        super().__init__(message)
        self.player, self.field, self.message = player, field, message


class Impossible(Exception):
    """A figure written down in place of the cards cannot occur under the rules.  ``field`` is the
    entry field holding it, ``slot`` the rule it breaks (resolve it with ``cite``)."""

    def __init__(self, player: str, field: str, slot: str, message: str) -> None:
        super().__init__(message)
        self.player, self.field, self.slot, self.message = player, field, slot, message


class Account(Protocol):
    """A player's game accounts, as the end-of-game settlement reads them."""

    @property
    def id(self) -> str: ...

    @property
    def payments(self) -> int: ...

    @property
    def paid_to_pool(self) -> int: ...


# -- what cards are worth -----------------------------------------------------------------------

@enforces(VALUES_ACE11_PICTURES10_PIPS, VALUES_JOKER_IN_HAND_15, VALUES_GRIFFIN_JOKER_IN_HAND_25,
          VALUES_NORTH_AMERICAN_ACE15_JOKER25)
def card_points(card: Card, values: Values) -> int:
    """What a card left in a loser's hand is worth (``values``: the joker, the ace (a red ace
    ``red_ace`` where given), the pictures; a pip card its rank)."""
    if card.is_joker:
        return values.joker_in_hand
    if card.rank == 14:
        return values.red_ace if values.red_ace is not None and card.suit in "HD" else values.ace
    if card.rank >= 10:
        return values.picture
    return card.rank


def hand_points(cards: Iterable[Card], values: Values) -> int:
    return sum(card_points(c, values) for c in cards)


def card_payment(cards: Sequence[Card], scoring: Scoring) -> int:
    """The per-card part of a loser's payment, before any kalookie multiplier."""
    jokers = sum(1 for c in cards if c.is_joker)
    return (len(cards) - jokers) * scoring.per_card + jokers * scoring.per_joker


def counts_cards(scoring: Scoring) -> bool:
    """Whether a loser's payment depends on the cards held."""
    return bool(scoring.per_card or scoring.per_joker)


# -- settling a hand ----------------------------------------------------------------------------

def settle_void(seats: Sequence[Seat]) -> HandResult:
    """A void hand: no penalty, no payment, every total as it was."""
    zero = tuple((s.id, 0) for s in seats)
    return HandResult("void", None, zero, zero, tuple((s.id, s.score) for s in seats))


def settle_won(rules: Rules, winner: str, kalookie: bool, seats: Sequence[Seat],
               stakes: Stakes | None = None) -> HandResult:
    """The result of a hand ``winner`` won (``kalookie``: by a kalookie), under ``rules``.

    ``seats`` are every player of the hand in seating order; ``stakes`` the game's agreed stakes
    where they differ from the variant's.  Raises ``Unsettled`` when a figure the model needs can be
    neither computed nor read, ``Impossible`` when a figure read in place of cards cannot occur."""
    model = rules.scoring.model
    agreed = stakes if stakes is not None else rules.stakes
    stake = agreed.kalookie if kalookie else agreed.call_up
    penalty_multiplier = rules.kalookie.penalty_multiplier if kalookie else 1
    payment_multiplier = rules.kalookie.payment_multiplier if kalookie else 1
    penalty_slot = KALOOKIE_PENALTY if kalookie else HAND_PENALTY
    payment_slot = KALOOKIE_PAYMENT if kalookie else HAND_PAYMENT
    losers = [s for s in seats if s.id != winner]
    champion = next(s for s in seats if s.id == winner)
    if champion.cards:
        raise Impossible(winner, "hands", WINNER_POINTS, f"{winner} went out and holds no cards")

    penalties: dict[str, int] = {}
    owed: dict[str, int] = {}
    for s in losers:
        penalties[s.id] = (_penalty(s, rules.values, penalty_multiplier, penalty_slot)
                           if model == ScoringModel.PENALTY else 0)
        if not counts_cards(rules.scoring):
            owed[s.id] = stake
        elif s.cards is not None:
            owed[s.id] = stake + card_payment(s.cards, rules.scoring) * payment_multiplier
        elif s.payment is not None:
            _check_payment(s, -s.payment, stake, payment_multiplier, rules, len(seats), payment_slot)
            owed[s.id] = -s.payment
        else:
            raise Unsettled(s.id, "hands", f"{s.id}'s payment counts the cards left in hand: give them "
                                           f"(hands/{s.id}) or the payments recorded (payments)")
    credit = _credit(champion, losers, rules.values) if model == ScoringModel.WINNER_COLLECTS else 0

    result_penalties = tuple((s.id, penalties.get(s.id, 0)) for s in seats)
    payments = tuple((s.id, sum(owed.values()) if s.id == winner else -owed[s.id]) for s in seats)
    scores = tuple((s.id, s.score + (credit if s.id == winner else penalties[s.id])) for s in seats)
    credits = (tuple((s.id, credit if s.id == winner else 0) for s in seats)
               if model == ScoringModel.WINNER_COLLECTS else None)
    return HandResult("kalookie" if kalookie else "call_up", winner, result_penalties, payments, scores, credits)


def _penalty(s: Seat, values: Values, multiplier: int, slot: str) -> int:
    if s.cards is not None:
        return hand_points(s.cards, values) * multiplier
    if s.penalty is not None:
        if s.penalty < 0:
            raise Impossible(s.id, "penalties", slot, "a penalty cannot be negative")
        return s.penalty
    if s.total is not None:
        if s.total < s.score:
            raise Impossible(s.id, "scores", RUNNING_TOTAL, f"{s.id}'s total cannot fall from {s.score} to "
                                                            f"{s.total}: penalty points only ever accumulate")
        return _penalty(Seat(s.id, s.score, penalty=s.total - s.score), values, multiplier, slot)
    raise Unsettled(s.id, "penalties", f"{s.id} lost the hand: give the penalty (penalties/{s.id}), the running "
                                       f"total after the hand (scores/{s.id}) or the cards left (hands/{s.id})")


def _credit(champion: Seat, losers: Sequence[Seat], values: Values) -> int:
    unknown = [s for s in losers if s.cards is None]
    if not unknown:
        return sum(hand_points(s.cards or (), values) for s in losers)
    if champion.credit is not None:
        if champion.credit < 0:
            raise Impossible(champion.id, "credits", WINNER_POINTS, "a credit cannot be negative")
        return champion.credit
    if champion.total is not None:
        if champion.total < champion.score:
            raise Impossible(champion.id, "scores", RUNNING_TOTAL,
                             f"{champion.id}'s total cannot fall from {champion.score} to {champion.total}: "
                             "the winner is credited with the cards left in the other hands")
        return champion.total - champion.score
    first = unknown[0].id
    raise Unsettled(first, "hands", f"{champion.id} is credited with the cards left in the other hands: give "
                                    f"{first}'s cards (hands/{first}), or {champion.id}'s credit (credits) "
                                    "or running total (scores)")


def _check_payment(s: Seat, paid: int, stake: int, multiplier: int, rules: Rules, players: int, slot: str) -> None:
    """A loser's payment read from a sheet: the stake plus, for at least one card, a whole number of
    naturals and jokers at the variant's rates (times the kalookie multiplier), no more jokers and no
    more naturals than the table's pack holds of each."""
    per_card, per_joker = rules.scoring.per_card, rules.scoring.per_joker
    table = rules.pack_for(players)
    extra, naturals = paid - stake, table.size - table.jokers
    possible = False
    if extra >= 0 and extra % multiplier == 0:
        units = extra // multiplier
        for jokers in range(table.jokers + 1):
            rest = units - jokers * per_joker
            if rest < 0:
                break
            if per_card == 0:
                possible = rest == 0
            else:
                possible = rest % per_card == 0 and rest // per_card <= naturals and jokers + rest // per_card >= 1
            if possible:
                break
    if not possible:
        rate = f"{stake} and " if stake else ""
        doubled = f", times {multiplier}" if multiplier != 1 else ""
        raise Impossible(s.id, "payments", slot,
                         f"{s.id} is written down as paying {paid}: a loser pays {rate}{per_card} a card and "
                         f"{per_joker} a joker left in hand{doubled}, and holds at least one card")


# -- settling a hand some of whose cards are unseen ---------------------------------------------
# A hand is won while other hands (or the stock) hold cards nobody listed (docs/wire-format.md,
# "Unseen cards").  Each unseen card is one of the cards the listing leaves unaccounted for (the
# ``pool``), so a figure taken from a loser's cards lies between what its unseen cards would be worth
# if they were the pool's cheapest cards and what they would be worth if they were its dearest.
# Where those are equal (no figure read from the cards, or every card of the pool worth the same, as
# when every joker of the pack is seen and a payment counts cards) the figure is decided; otherwise it
# is undetermined, bounded, and names the counts that would have to be seen.

@dataclass(frozen=True, slots=True)
class Amount:
    """One figure of a hand's settlement: at least ``low`` and at most ``high`` (equal: decided);
    ``needs`` are the pointers of the counts of unseen cards it depends on (undecided figures only)."""
    low: int
    high: int
    needs: tuple[str, ...] = ()

    @property
    def decided(self) -> bool:
        return self.low == self.high

    def shifted(self, by: int, times: int = 1) -> "Amount":
        """``by`` plus ``times`` this amount (``times`` negative turns the bounds round)."""
        ends = sorted((by + self.low * times, by + self.high * times))
        return Amount(ends[0], ends[1], self.needs)


def _exact(value: int) -> Amount:
    return Amount(value, value)


@dataclass(frozen=True)
class OpenSettlement:
    """A won hand's settlement figure by figure (``HandResult``'s figures, each an ``Amount``)."""
    how: str
    winner: str
    penalties: tuple[tuple[str, Amount], ...]
    payments: tuple[tuple[str, Amount], ...]
    scores: tuple[tuple[str, Amount], ...]
    credits: tuple[tuple[str, Amount], ...] | None = None

    def _figures(self) -> list[tuple[tuple[str, Amount], ...]]:
        return [self.penalties, self.payments, self.scores] + ([self.credits] if self.credits is not None else [])

    @property
    def decided(self) -> bool:
        return all(a.decided for figure in self._figures() for _, a in figure)

    def needs(self) -> tuple[str, ...]:
        """Every count some figure depends on, in the order of the seats."""
        return tuple(sorted({n for figure in self._figures() for _, a in figure for n in a.needs}, key=_pointer_key))

    def open_rule(self) -> str:
        """The slot of the rule of the first figure left undetermined (penalties, then payments, then
        the winner's credit): what an answer cites for the settlement it cannot decide."""
        named: list[tuple[Figure, tuple[tuple[str, Amount], ...] | None]] = [
            ("penalties", self.penalties), ("payments", self.payments), ("credits", self.credits)]
        for figure, table in named:
            for pid, a in table or ():
                if not a.decided:
                    return rule_of(figure, self.how, pid == self.winner)
        return rule_of("penalties", self.how, False)  # pragma: no cover - a score is open only with its penalty or credit

    def result(self) -> HandResult:
        """The settlement as a hand's result, every figure decided (see ``decided``)."""
        def values(figure: tuple[tuple[str, Amount], ...]) -> tuple[tuple[str, int], ...]:
            return tuple((pid, a.low) for pid, a in figure)
        return HandResult(self.how, self.winner, values(self.penalties), values(self.payments), values(self.scores),
                          values(self.credits) if self.credits is not None else None)


def _pointer_key(p: str) -> tuple[Any, ...]:
    return tuple((0, int(x), "") if x.isdigit() else (1, 0, x) for x in p.split("/"))


def _between(seen: int, hidden: int, worths: Sequence[int], needs: tuple[str, ...]) -> Amount:
    """What ``seen`` plus ``hidden`` unseen cards come to, ``worths`` the sorted worth of each card of
    the pool they are drawn from."""
    low, high = seen + sum(worths[:hidden]), seen + sum(worths[len(worths) - hidden:])
    return Amount(low, high, needs if low != high else ())


def settle_open(rules: Rules, winner: str, kalookie: bool, seats: Sequence[Seat], pool: Counter[Card],
                where: Mapping[str, str], stakes: Stakes | None = None) -> OpenSettlement:
    """The settlement of a hand ``winner`` won (``kalookie``: by a kalookie) where some seats hold
    unseen cards: each ``Seat``'s ``cards`` are its seen cards, ``hidden`` how many more it holds;
    ``pool`` the cards the listing leaves unaccounted for (what the unseen ones may be), ``where``
    each seat's pointer to its count.  Every figure is bounded by the pool; a figure whose bounds
    meet is decided."""
    model, agreed = rules.scoring.model, stakes if stakes is not None else rules.stakes
    stake = agreed.kalookie if kalookie else agreed.call_up
    penalty_times = rules.kalookie.penalty_multiplier if kalookie else 1
    payment_times = rules.kalookie.payment_multiplier if kalookie else 1
    points = sorted(card_points(c, rules.values) for c in pool.elements())
    rates = sorted(card_payment((c,), rules.scoring) for c in pool.elements())
    losers = [s for s in seats if s.id != winner]

    def held(group: Sequence[Seat], worths: Sequence[int], worth: Callable[[Sequence[Card]], int]) -> Amount:
        needs = tuple(where[s.id] for s in group if s.hidden)
        return _between(sum(worth(s.cards or ()) for s in group), sum(s.hidden for s in group), worths, needs)

    def points_of(group: Sequence[Seat]) -> Amount:
        return held(group, points, lambda c: hand_points(c, rules.values))

    def owed(group: Sequence[Seat]) -> Amount:
        if not counts_cards(rules.scoring):
            return _exact(stake * len(group))
        return held(group, rates, lambda c: card_payment(c, rules.scoring)).shifted(stake * len(group), payment_times)

    credit = points_of(losers) if model == ScoringModel.WINNER_COLLECTS else _exact(0)
    penalties = {s.id: points_of([s]).shifted(0, penalty_times) if model == ScoringModel.PENALTY else _exact(0)
                 for s in losers}
    penalties[winner] = _exact(0)
    payments = {s.id: owed([s]).shifted(0, -1) for s in losers}
    payments[winner] = owed(losers)
    scores = {s.id: penalties[s.id].shifted(s.score) if s.id != winner else credit.shifted(s.score) for s in seats}
    order = [s.id for s in seats]
    return OpenSettlement("kalookie" if kalookie else "call_up", winner,
                          tuple((pid, penalties[pid]) for pid in order), tuple((pid, payments[pid]) for pid in order),
                          tuple((pid, scores[pid]) for pid in order),
                          tuple((pid, credit if pid == winner else _exact(0)) for pid in order)
                          if model == ScoringModel.WINNER_COLLECTS else None)


# -- citing the rule a figure comes from --------------------------------------------------------

def rule_of(figure: Figure, how: str, is_winner: bool) -> str:
    """The slot of the rule that gives ``figure`` of a hand that ended ``how`` (call_up, kalookie or
    void) for the winner or a loser: what a score sheet cites where its figure differs."""
    if figure == "scores":
        return RUNNING_TOTAL
    if figure == "payments":
        return VOID_PAYMENT if how == "void" else KALOOKIE_PAYMENT if how == "kalookie" else HAND_PAYMENT
    if how == "void":
        return VOID_PENALTY
    if is_winner:
        return WINNER_POINTS
    return KALOOKIE_PENALTY if how == "kalookie" else HAND_PENALTY


# -- the game's accounts ------------------------------------------------------------------------

def carried(result: HandResult, player: str, payments: int) -> tuple[int, int]:
    """``player``'s running total and payments account after the hand ``result`` settled, from the
    payments account before it."""
    return dict(result.scores)[player], payments + dict(result.payments).get(player, 0)


def game_settlement(accounts: Iterable[Account], pool: int, winner: str | None) -> dict[str, int]:
    """What each player takes from (or owes to) the table when the game ends: their hand payments,
    less the initial stake and buy-ins they paid into the pool, and the pool to the winner (to no
    one where a game read back has no survivor and no last winner)."""
    return {a.id: a.payments - a.paid_to_pool + (pool if a.id == winner else 0) for a in accounts}
