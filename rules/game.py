"""The game level: a series of hands from the seating draw to the pool.

A game wraps the current hand's state with what lasts between hands: the seats, the dealer, the
agreed stakes, the cumulative penalty sheet, the payments ledger, the pool, the buy-ins each player
has used and who is out.  Hand actions are adjudicated by the hand engine; when a hand ends the game
settles it (penalties, payments, eliminations, buy-in offers).  ``buy_in``, ``decline`` and
``next_hand`` are the game's own actions.  Every figure comes from the variant's parameters
(``game``, ``stakes``, ``stake_presets``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any, Callable, Literal, Mapping, Required, TypedDict

from .actions import Action
from .clause_ids import (BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE, BUYIN_DECISION_ORDER, BUYIN_MAX_TWO_PER_GAME, BUYIN_NEEDS_TWO_SURVIVORS,
                         BUYIN_NONE_NORTH_AMERICA, DEALER_ROTATION_LEFT,
                         ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR, ELIMINATION_OVER_150,
                         STAKES_AGREED_IN_ADVANCE, STAKES_INITIAL_STAKE_TO_POOL,
                         STAKES_LEDGER_BALANCES, TURN_DRAW_MELD_DISCARD)
from .deal import ReportedCut, deal
from .engine import Illegal, Verdict, Violation, adjudicate
from . import events as ev
from .errors import ImpossibleState, MalformedInput, Problem, pointer
from .settlement import Amount, OpenSettlement, carried, game_settlement
from .shuffle import seed_text, shuffled
from .invariants import player_list_problems, repeated_ids
from .state import HandResult, Phase, State
from .params import Stakes
from .variant import Variant
from .clause_ids import (BUYIN_STAKE_PAID_TO_POOL, BUYIN_UK_STAKE_HALF_MAIN, DEALER_ROTATION_JAMAICAN,
                         GAME_BABY_THREE_HANDS, GAME_EACH_HAND_SETTLED_SEPARATELY,
                         GAME_ELIMINATION_LAST_SURVIVOR_WINS, GAME_JAMAICAN_KALOOKI_HANDS_1_4,
                         GAME_JAMAICAN_NINE_HANDS_LOWEST_TOTAL, GAME_JAMAICAN_SUPER_KALOOKI_HANDS_5_9,
                         GAME_NORTH_AMERICAN_WINNER_COLLECTS_POINTS, SEATING_ACE_TO_N_DRAW,
                         STAKES_BRITISH_SCHEMES, STAKES_POOL_TO_LAST_SURVIVOR, STAKES_SWEDISH_RATIO,
                         STOCK_JAMAICAN_REDEAL_SAME_CONTRACT, STOCK_NO_RESHUFFLE_VARIANT,
                         STOCK_SECOND_EXHAUSTION_VOIDS_HAND)
from .clauses import enforces

GAME_PHASES = ("hand", "buy_in", "between", "over")
STAKE_KEYS = ("call_up", "kalookie", "initial", "buy_in")


class SheetRow(TypedDict, total=False):
    """One row of the game's sheet, as ``settle_hand`` writes it (openapi.yaml's SheetRow); a row
    read back (``_sheet_row``) holds the fields it was sent."""
    hand: int
    dealer: str
    how: str                    # call_up | kalookie | void
    winner: str | None
    penalties: dict[str, int]
    payments: dict[str, int]
    credits: dict[str, int]
    scores: dict[str, int]
    ledger: dict[str, int]
    pool: int
    buy_ins: dict[str, bool]
    eliminated: list[str]
    game_winner: str | None
    settlement: dict[str, int]


class GameAction(TypedDict, total=False):
    """A game-level action (read by ``wire.game.read_game_action``): ``next_hand`` with its ``seed``, or
    ``buy_in`` / ``decline`` with the ``player`` deciding."""
    type: Required[Literal["buy_in", "decline", "next_hand"]]
    player: str
    seed: str | int
    cut: ReportedCut | None     # next_hand: the dealer's cut as the table reports it (else the seed's)


@dataclass(frozen=True)
class GamePlayer:
    id: str
    score: int = 0          # cumulative penalty points
    payments: int = 0       # cumulative hand payments (the payments account)
    paid_to_pool: int = 0   # initial stake and buy-ins paid so far
    buy_ins: int = 0
    out: bool = False


@dataclass(frozen=True)
class Game:
    players: tuple[GamePlayer, ...]     # seats, clockwise
    dealer: str                         # dealer of the current hand (or of the next, between hands)
    stakes: tuple[tuple[str, int], ...]
    pool: int
    phase: str
    hand: State | None = None
    hands_played: int = 0
    last_hand: str | None = None        # how the last hand ended: call_up, kalookie or void
    last_winner: str | None = None
    buy_in_queue: tuple[str, ...] = ()
    buy_in_score: int | None = None
    winner: str | None = None
    sheet: tuple[SheetRow, ...] = ()    # one row per hand, for the record

    def stake(self, key: str) -> int:
        return dict(self.stakes)[key]

    def player(self, pid: str) -> GamePlayer:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)  # pragma: no cover - only ids of the game's players are looked up (check_game has checked the dealer)

    def with_player(self, pid: str, **changes: Any) -> "Game":
        return replace(self, players=tuple(replace(p, **changes) if p.id == pid else p for p in self.players))

    @property
    def active(self) -> list[GamePlayer]:
        return [p for p in self.players if not p.out]

    def next_active_left_of(self, pid: str) -> str:
        ids = [p.id for p in self.players]
        i = ids.index(pid)
        for k in range(1, len(ids) + 1):
            cand = self.players[(i + k) % len(ids)]
            if not cand.out:
                return cand.id
        return pid  # pragma: no cover - called only while two or more players are still in the game


@dataclass(frozen=True)
class GameVerdict:
    legal: bool
    violations: tuple[Violation, ...]
    game: Game
    events: tuple[ev.Event, ...]
    hand: State | None = None  # the hand's state after the action, also when it ended and was settled
    open: OpenHand | None = None  # a hand won whose settlement waits on unseen cards


@dataclass(frozen=True)
class Fact:
    """One answer of a game's standing after a hand won with figures open: ``value`` where the seen
    cards and the counts decide it, else ``needs``, the counts (pointers) it waits on."""
    value: bool | str | None
    needs: tuple[str, ...] = ()

    @property
    def decided(self) -> bool:
        return not self.needs


@dataclass(frozen=True)
class OpenHand:
    """A game's hand won while other hands hold unseen cards, with figures the seen cards leave open:
    what is undetermined, the settlement figure by figure, each player's standing (over the limit,
    eliminated, offered a buy-in) and the game's (over, its winner, what each player takes from the
    table), each decided where every total the hand can leave gives the same answer."""
    undetermined: tuple[Violation, ...]
    settlement: OpenSettlement
    over_limit: tuple[tuple[str, Amount], ...]   # 1: over the limit, 0: within it
    eliminated: tuple[tuple[str, Fact], ...] = ()
    buy_in: tuple[tuple[str, Fact], ...] | None = None    # None: the variant has no buy-ins
    over: Fact = Fact(False)
    winner: Fact = Fact(None)
    payout: tuple[tuple[str, Amount], ...] | None = None  # only where the game is decided over


def open_hand(variant: Variant, game: Game, verdict: Verdict) -> OpenHand:
    """The standing of a game whose hand ``verdict`` won with figures left open: a player is over the
    limit where even the least total after the hand exceeds it, within it where even the most does not;
    the rest is the game's own settling of the hand (``settle_hand``) at every corner of the totals."""
    assert verdict.settlement is not None  # called only for a hand won with its settlement open
    settlement, limit = verdict.settlement, variant.rules.game.limit
    over = []
    for pid, total in settlement.scores:
        if game.player(pid).out:
            continue  # pragma: no cover - a hand is played by the players still in the game (check_game)
        low, high = (int(limit is not None and total.low > limit), int(limit is not None and total.high > limit))
        over.append((pid, Amount(low, high, total.needs if low != high else ())))
    axes, corners = _corners(variant, game, settlement)
    ids = [pid for pid, _ in over]
    has_buy_ins = limit is not None and variant.rules.game.buy_ins_max != 0
    ended = _fact(axes, corners, lambda c: c.over)
    winner = _fact(axes, corners, lambda c: c.winner)
    return OpenHand(verdict.undetermined, settlement, tuple(over),
                    tuple((pid, _fact(axes, corners, _among("eliminated", pid))) for pid in ids),
                    tuple((pid, _fact(axes, corners, _among("offered", pid))) for pid in ids) if has_buy_ins else None,
                    ended, winner,
                    _payout(game, settlement, winner, {c.winner for c in corners.values()}) if ended.value is True else None)


@dataclass(frozen=True)
class _Corner:
    """What the game makes of its open hand (``settle_hand``) at one choice of the totals."""
    eliminated: frozenset[str]
    offered: frozenset[str]
    over: bool
    winner: str | None


Axes = tuple[tuple[str, Amount], ...]


def _among(field: Literal["eliminated", "offered"], pid: str) -> Callable[[_Corner], bool]:
    """Whether ``pid`` is eliminated (or offered a buy-in) at a corner."""
    return lambda c: pid in (c.eliminated if field == "eliminated" else c.offered)


def _corners(variant: Variant, game: Game, settlement: OpenSettlement) -> tuple[Axes, dict[tuple[bool, ...], _Corner]]:
    """The game settled at every corner of the totals the hand can leave: each open total at its least
    (False) or its most (True).  Every rule the game applies to the totals reads, for each player,
    which side of the limit they are on, or which total is the lowest; a rule that gives one answer at
    every corner gives it for every total between (a lowest total that wins at the corner least
    favourable to it wins everywhere), so the corners decide what is decided."""
    axes = tuple((pid, a) for pid, a in settlement.scores if not a.decided)
    corners = {}
    for bits in itertools.product((False, True), repeat=len(axes)):
        ends = {pid: (a.high if b else a.low) for (pid, a), b in zip(axes, bits)}
        scores = tuple((pid, ends.get(pid, a.low)) for pid, a in settlement.scores)
        result = HandResult(settlement.how, settlement.winner, (), tuple((pid, a.low) for pid, a in settlement.payments),
                            scores)
        after = settle_hand(variant, game, result, [])
        corners[bits] = _Corner(frozenset(p.id for p in after.players if p.out and not game.player(p.id).out),
                                frozenset(after.buy_in_queue), after.phase == "over", after.winner)
    return axes, corners


def _fact(axes: Axes, corners: dict[tuple[bool, ...], _Corner], read: Callable[[_Corner], bool | str | None]) -> Fact:
    """``read`` decided where it gives one answer at every corner; else undetermined, needing the
    counts of each total whose moving from its least to its most changes the answer somewhere."""
    answers = {bits: read(c) for bits, c in corners.items()}
    first = answers[(False,) * len(axes)]
    if all(a == first for a in answers.values()):
        return Fact(first)
    needs: list[str] = []
    for i, (_, total) in enumerate(axes):
        if any(answers[b] != answers[b[:i] + (True,) + b[i + 1:]] for b in answers if not b[i]):
            needs += [n for n in total.needs if n not in needs]
    return Fact(None, tuple(needs))


def _payout(game: Game, settlement: OpenSettlement, winner: Fact, winners: set[str | None]) -> tuple[tuple[str, Amount], ...]:
    """What each player takes from the table when the hand ends the game (``game_settlement``): the
    payments account after the hand at its least and its most, and the pool to whoever may win it."""
    paid = dict(settlement.payments)

    def accounts(most: bool) -> list[GamePlayer]:
        return [replace(p, payments=p.payments + (paid[p.id].high if most else paid[p.id].low)) if p.id in paid else p
                for p in game.players]
    lows, highs = game_settlement(accounts(False), 0, None), game_settlement(accounts(True), 0, None)
    out = []
    for p in game.players:
        sure, maybe = winner.decided and winner.value == p.id, p.id in winners
        low, high = lows[p.id] + (game.pool if sure else 0), highs[p.id] + (game.pool if maybe else 0)
        needs = paid[p.id].needs if p.id in paid else ()
        needs += tuple(n for n in (winner.needs if maybe and not sure else ()) if n not in needs)
        out.append((p.id, Amount(low, high, needs if low != high else ())))
    return tuple(out)


# -- starting a game ----------------------------------------------------------------------------

StakesChoice = str | Mapping[str, int] | None
"""The stakes a game is started with: a preset of the variant by name, the four stakes themselves
(``STAKE_KEYS``), or None for the variant's own."""


@enforces(STAKES_BRITISH_SCHEMES, STAKES_SWEDISH_RATIO)
def resolve_stakes(variant: Variant, stakes: StakesChoice, at: str = "/stakes") -> tuple[tuple[str, int], ...]:
    """The stakes agreed, in the order of ``STAKE_KEYS``: a preset the variant does not have is refused."""
    if stakes is None:
        chosen = dict(variant.rules.stakes.as_pairs())
    elif isinstance(stakes, str):
        presets = variant.rules.stake_presets
        if stakes not in presets:
            raise MalformedInput(Problem(at, f"no stake preset {stakes!r}; known: {', '.join(sorted(presets))}"))
        chosen = dict(presets[stakes].as_pairs())
    else:
        chosen = dict(stakes)
    return tuple((k, chosen[k]) for k in STAKE_KEYS)


@enforces(SEATING_ACE_TO_N_DRAW)
def seating_draw(players: list[str], seed: str, order: str = "clockwise") -> tuple[list[str], dict[str, str]]:
    """Deal one card each from ace up to the number of players (shuffled from ``seed`` with the
    purpose ``seating``): the ace holder deals first; the holders of 2, 3, ... sit from the dealer in
    the variant's direction (``game.seating_order``).  Returns the seats clockwise starting with the
    dealer, and who drew what."""
    n = len(players)
    cards = shuffled(list(range(1, n + 1)), seed, "seating")
    drawn = dict(zip(players, cards))
    seats = sorted(players, key=lambda p: drawn[p])
    if order == "counterclockwise":
        seats = seats[:1] + seats[:0:-1]
    names = {1: "A"}
    return seats, {p: names.get(c, str(c)) for p, c in drawn.items()}


@dataclass(frozen=True)
class GameStart:
    """How a game started (``start_game``): who drew what at the seating draw, the seats clockwise
    from the first dealer, that dealer, and what happened at the first deal."""
    seating: tuple[tuple[str, str], ...]    # each player (in the order given) and the card drawn
    seats: tuple[str, ...]
    dealer: str
    events: tuple[ev.Event, ...]


def start_game(variant: Variant, players: list[str], seed: str | int, stakes: StakesChoice = None,
               cut: ReportedCut | None = None) -> tuple[Game, GameStart]:
    """Seat the players by the seating draw and deal the first hand (``cut``: its cut as the table
    reports it, else drawn from the seed)."""
    seed = seed_text(seed)
    problems = player_list_problems(players, variant)
    if problems:
        raise MalformedInput(problems)
    agreed = resolve_stakes(variant, stakes)
    seats, drawn = seating_draw(players, seed, variant.rules.game.seating_order)
    initial = dict(agreed)["initial"]
    game = Game(tuple(GamePlayer(p, paid_to_pool=initial) for p in seats), seats[0], agreed,
                initial * len(seats), "between")
    game, events = _deal_next(variant, game, f"{seed}/hand-1", cut)
    return game, GameStart(tuple(drawn.items()), tuple(seats), seats[0], tuple(events))


@enforces(GAME_JAMAICAN_NINE_HANDS_LOWEST_TOTAL, GAME_JAMAICAN_KALOOKI_HANDS_1_4,
          GAME_JAMAICAN_SUPER_KALOOKI_HANDS_5_9, GAME_BABY_THREE_HANDS, STOCK_JAMAICAN_REDEAL_SAME_CONTRACT)
def hands_won(game: Game) -> int:
    """Hands of the game that were played out (a void hand is dealt again: it does not count)."""
    return sum(1 for row in game.sheet if row.get("how") != "void")


def next_contract_hand(variant: Variant, game: Game) -> int | None:
    """The row of the contract table a contract game plays now (its current hand) or deals next: the
    first row, plus one for each hand its sheet shows played out (None: a game without contracts)."""
    contract = variant.rules.contract
    return contract.first + hands_won(game) if contract is not None else None


def _contract_problems(game: Game, variant: Variant) -> list[Problem]:
    """A contract game's sheet decides which hand of the table is played: it has one row per hand
    played, and the current hand is the row after the hands played out (a void one is dealt again)."""
    if variant.rules.contract is None:
        return []
    problems = []
    if len(game.sheet) != game.hands_played:
        problems.append(Problem("/sheet", f"a contract game's sheet has one row for each hand played "
                                          f"({game.hands_played}), not {len(game.sheet)}: it decides the hand "
                                          f"of the contract table that is played ({STOCK_JAMAICAN_REDEAL_SAME_CONTRACT})"))
    expected = next_contract_hand(variant, game)
    if game.hand is not None and game.hand.hand_number != expected:
        problems.append(Problem("/hand/hand_number", f"the sheet shows {hands_won(game)} hands played out, so the "
                                                     f"hand played is hand {expected} of the contract table, "
                                                     f"not {game.hand.hand_number}"))
    return problems


# STOCK_JAMAICAN_REDEAL_SAME_CONTRACT: a void hand does not count, so the next deal is the same row of the
#   contract table
@enforces(STOCK_JAMAICAN_REDEAL_SAME_CONTRACT)
def _deal_next(variant: Variant, game: Game, seed: str, cut: ReportedCut | None = None) -> tuple[Game, list[ev.Event]]:
    """Deal the game's next hand: in a contract game the next hand of the contract table (the same
    hand again after a void one), the dealer's exact cut (as reported, ``cut``, or drawn from the seed)
    earning its bonus (``deal.dealer_cut_bonus``)."""
    ids = [p.id for p in game.active]
    scores = {p.id: p.score for p in game.active}
    hand_variant = variant.with_stakes(Stakes(**dict(game.stakes)))
    state, record = deal(hand_variant, ids, seed, game.dealer, scores, hand=next_contract_hand(variant, game), cut=cut)
    events: list[ev.Event] = [ev.HandDealt(game.hands_played + 1, game.dealer, record["seed"])]
    bonus = record.get("dealer_cut_bonus", 0)   # earned by an exact cut (CUT_DEALER_EXACT_COUNT_BONUS, rules/deal.py)
    if bonus:
        total = game.player(game.dealer).score + bonus
        game = game.with_player(game.dealer, score=total)
        state = state.with_player(game.dealer, score=total)
        events.append(ev.Penalized(game.dealer, "exact_cut_bonus", bonus))
    return replace(game, hand=state, phase="hand"), events


# -- checking a game ------------------------------------------------------------------------------

def checked_game(game: Game, variant: Variant) -> Game:
    """``game`` if it can occur under ``variant`` (``check_game``), else ``ImpossibleState`` with every problem."""
    problems = check_game(game, variant)
    if problems:
        raise ImpossibleState(problems)
    return game


def check_game(game: Game, variant: Variant) -> list[Problem]:
    """Every reason ``game`` cannot occur under ``variant``: its players and accounts, its hand, its
    contract schedule, its buy-in phase and its end."""
    problems: list[Problem] = []
    ids = [p.id for p in game.players]
    problems += repeated_ids(ids)  # (a record may hold fewer players than a table starts with)
    if game.dealer not in ids:
        problems.append(Problem("/dealer", f"{game.dealer!r} is not a player"))
    elif game.player(game.dealer).out and game.phase != "over":
        problems.append(Problem("/dealer", "an eliminated player does not deal"))
    if sum(p.payments for p in game.players) != 0:
        problems.append(Problem("/players", f"the payments account does not balance: it must sum to 0 ({STAKES_LEDGER_BALANCES})"))
    if game.phase != "over" and game.pool != sum(p.paid_to_pool for p in game.players):
        problems.append(Problem("/pool", f"the pool must equal the initial stakes and buy-ins paid in ({STAKES_INITIAL_STAKE_TO_POOL})"))
    problems += _player_problems(game, variant)
    if game.phase == "hand":
        problems += _hand_problems(game, variant)
    elif game.hand is not None:  # a settled hand leaves the record (``settle_hand``): none is carried between hands
        problems.append(Problem("/hand", f"a game in the {game.phase.replace('_', '-')} phase carries no hand's "
                                         "state: only a hand under way is part of the record"))
    problems.extend(_contract_problems(game, variant))
    return problems + _phase_problems(game, variant, ids)


def _player_problems(game: Game, variant: Variant) -> list[Problem]:
    """Each player's stake paid, buy-ins within the variant's, score within the limit while in the game."""
    problems: list[Problem] = []
    limit = variant.rules.game.limit
    initial = game.stake("initial") if game.stakes else 0
    for i, p in enumerate(game.players):
        if p.paid_to_pool < initial:
            problems.append(Problem(pointer("players", i, "paid_to_pool"),
                                    f"{p.id} has not paid the initial stake of {initial} ({STAKES_INITIAL_STAKE_TO_POOL})"))
        if not _buy_in_left(variant, p.buy_ins - 1):
            problems.append(Problem(pointer("players", i, "buy_ins"), "more buy-ins than the variant allows"))
        if limit is not None and not p.out and p.score > limit and not (game.phase == "buy_in" and p.id in game.buy_in_queue):
            problems.append(Problem(pointer("players", i, "score"), f"{p.id} is over {limit} but still in the game"))
        if variant.rules.game.buy_in_moves_to_new_table and p.buy_ins > 0 and not p.out:
            problems.append(Problem(pointer("players", i, "buy_ins"),
                                    f"{p.id} bought in, so has moved to a new table and is no longer in this game "
                                    f"({BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE})"))
    return problems


def _hand_problems(game: Game, variant: Variant) -> list[Problem]:
    """A game in the hand phase: its hand is played by the players still in, dealt by the game's
    dealer, scored as the sheet (and the penalties told during the hand) say, and not yet ended."""
    if game.hand is None:
        return [Problem("/hand", "a game in the hand phase carries the hand's state")]
    problems: list[Problem] = []
    hand_ids = [p.id for p in game.hand.players]
    if hand_ids != [p.id for p in game.active]:
        problems.append(Problem("/hand/players", "the hand is played by the players still in the game, in seat order"))
    else:
        # penalties told to the referee during the hand (``penalties.points`` each, in a
        # variant that has them) stand on the hand's score until the hand is settled
        points = variant.rules.penalties.points
        for j, hp in enumerate(game.hand.players):
            gap = hp.score - game.player(hp.id).score
            if gap != 0 and not (points and gap > 0 and gap % points == 0):
                problems.append(Problem(pointer("hand", "players", j, "score"),
                                        "the hand's score differs from the game's penalty sheet"
                                        + (f" by other than penalties of {points}" if points else "")))
    if game.hand.dealer != game.dealer:
        problems.append(Problem("/hand/dealer", "the hand's dealer differs from the game's"))
    if game.hand.phase == Phase.ENDED and not (game.hand.partial and game.hand.result is None):
        problems.append(Problem("/hand/phase", "an ended hand is settled into the game at once"))
    return problems


def _phase_problems(game: Game, variant: Variant, ids: list[str]) -> list[Problem]:
    """The buy-in phase's queue and score to rejoin at; a finished game's winner."""
    problems: list[Problem] = []
    if game.phase == "buy_in":
        if not game.buy_in_queue or game.buy_in_score is None:
            problems.append(Problem("/buy_in_queue", "the buy-in phase needs players deciding and the score to rejoin at"))
        if game.last_hand not in ("call_up", "kalookie"):  # a void hand scores nothing, so puts no one over
            problems.append(Problem("/last_hand", "the buy-in phase follows a hand someone won, so the last hand "
                                                  f"was a call-up or a kalookie, not {game.last_hand or 'none'}"))
        problems += [Problem("/buy_in_queue", f"{q!r} is not a player") for q in game.buy_in_queue if q not in ids]
    elif game.buy_in_queue:
        problems.append(Problem("/buy_in_queue", "buy-in decisions are owed only in the buy-in phase"))
    if game.phase == "over":
        # a game of a fixed number of hands whose lowest total is shared ends with no single winner
        # (``_after_decisions``): such a game is over with its winner null
        lowest = [p.score for p in game.active]
        tied = (variant.rules.contract is not None and game.winner is None
                and len(lowest) > 1 and lowest.count(min(lowest)) > 1)
        if game.winner not in ids and not tied:
            problems.append(Problem("/winner", "a finished game names its winner"))
    elif game.winner is not None:
        problems.append(Problem("/winner", "only a finished game has a winner"))
    return problems


# -- actions ------------------------------------------------------------------------------------

GAME_ACTIONS = ("buy_in", "decline", "next_hand")


def adjudicate_game(variant: Variant, game: Game, action: GameAction | Action,
                    stakes_override: object = None) -> GameVerdict:
    """A game moved by ``action``; ``stakes_override``, the house rules' stakes sent with it (as sent),
    must be the stakes the game agreed (``STAKES_AGREED_IN_ADVANCE``)."""
    events: list[ev.Event] = []
    try:
        if stakes_override is not None and not isinstance(stakes_override, Mapping):
            raise MalformedInput(Problem("/rules/stakes", "stakes are an object of call_up, kalookie, initial, buy_in"))
        if stakes_override is not None and dict(stakes_override) != {k: v for k, v in game.stakes if k in stakes_override}:
            raise Illegal(STAKES_AGREED_IN_ADVANCE, "the stakes were agreed when the game started and cannot change")
        opened = None
        if isinstance(action, dict):
            new = apply_game_action(variant, game, action, events)
            hand = new.hand
        else:
            new, hand, opened = _hand_action(variant, game, action, events)
    except Illegal as exc:
        return GameVerdict(False, (exc.violation.cited_by(variant),), game, ())
    except _HandIllegal as exc:
        return GameVerdict(False, exc.verdict.violations, game, ())
    return GameVerdict(True, (), new, tuple(events), hand, opened)


class _HandIllegal(Exception):
    def __init__(self, verdict: Verdict):
        self.verdict = verdict


def _hand_action(variant: Variant, game: Game, action: Action,
                 events: list[ev.Event]) -> tuple[Game, State, OpenHand | None]:
    if game.phase == "over":
        raise Illegal(ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR, _over(game))
    if game.phase == "buy_in":
        raise Illegal(BUYIN_DECISION_ORDER, f"{game.buy_in_queue[0]} must first decide whether to buy in")
    if game.phase == "between" or game.hand is None:
        raise Illegal(DEALER_ROTATION_LEFT, "the hand is over: the next hand must be dealt first (next_hand)")
    hand_variant = variant.with_stakes(Stakes(**dict(game.stakes)))
    verdict = adjudicate(hand_variant, game.hand, action)
    if not verdict.legal:
        raise _HandIllegal(verdict)
    events.extend(verdict.events)
    game = replace(game, hand=verdict.state)
    if verdict.state.phase != Phase.ENDED:
        return game, verdict.state, None
    if verdict.state.result is None:
        # won with figures unseen cards leave open: the game keeps the ended hand until they are seen
        return game, verdict.state, open_hand(variant, game, verdict)
    return settle_hand(variant, game, verdict.state.result, events), verdict.state, None


@enforces(GAME_ELIMINATION_LAST_SURVIVOR_WINS, GAME_NORTH_AMERICAN_WINNER_COLLECTS_POINTS,
          GAME_EACH_HAND_SETTLED_SEPARATELY)
def settle_hand(variant: Variant, game: Game, result: HandResult, events: list[ev.Event]) -> Game:
    """Put a finished hand on the sheet: penalties, payments, eliminations and buy-in offers."""
    limit = variant.rules.game.limit
    number = game.hands_played + 1
    row: SheetRow = {"hand": number, "dealer": game.dealer, "how": result.how, "winner": result.winner,
                     "penalties": dict(result.penalties), "payments": dict(result.payments)}
    if result.credits is not None:
        row["credits"] = dict(result.credits)
    game = replace(game, hands_played=number, last_hand=result.how, last_winner=result.winner, hand=None)
    if result.how == "void":
        row.update({"scores": {p.id: p.score for p in game.players},
                    "ledger": {p.id: p.payments for p in game.players},
                    "pool": game.pool, "buy_ins": {}, "eliminated": []})
        return replace(game, phase="between", sheet=game.sheet + (row,))
    for p in game.active:
        score, payments = carried(result, p.id, p.payments)
        game = game.with_player(p.id, score=score, payments=payments)
    # a game without a limit (limit: null) eliminates no one: scores only accumulate
    survivors = [p for p in game.active if limit is None or p.score <= limit]
    eliminated: list[str] = []
    queue: list[str] = []
    if limit is not None:  # each player over it, from the winner's left, is offered a buy-in or is out
        assert result.winner is not None  # a hand that is not void has a winner
        allowed = len(survivors) >= variant.rules.game.buy_in_min_survivors
        order = _clockwise_from_left_of(game, result.winner)
        for pid in order:
            p = game.player(pid)
            if p.out or p.score <= limit:
                continue
            if allowed and _buy_in_left(variant, p.buy_ins):
                queue.append(pid)
            else:
                game = game.with_player(pid, out=True)
                eliminated.append(pid)
                events.append(ev.Eliminated(pid, p.score))
    row.update({"scores": {p.id: p.score for p in game.players}, "ledger": {p.id: p.payments for p in game.players},
                "pool": game.pool, "buy_ins": {}, "eliminated": eliminated})
    game = replace(game, sheet=game.sheet + (row,))
    if queue:
        events.append(ev.BuyInOffered(tuple(queue)))
        return replace(game, phase="buy_in", buy_in_queue=tuple(queue),
                       buy_in_score=max(p.score for p in survivors))
    return _after_decisions(variant, game, events)


def _buy_in_left(variant: Variant, used: int) -> bool:
    """Whether a player who has bought in ``used`` times may buy in again (``buy_ins_max`` null: always)."""
    most = variant.rules.game.buy_ins_max
    return most is None or used < most


def _clockwise_from_left_of(game: Game, pid: str) -> list[str]:
    ids = [p.id for p in game.players]
    i = ids.index(pid)
    return [ids[(i + k) % len(ids)] for k in range(1, len(ids) + 1)]


# DEALER_ROTATION_JAMAICAN: the deal passes to the left after a hand played out and stays with the dealer
#   after a void hand
@enforces(DEALER_ROTATION_JAMAICAN, GAME_ELIMINATION_LAST_SURVIVOR_WINS,
          GAME_JAMAICAN_NINE_HANDS_LOWEST_TOTAL, GAME_JAMAICAN_KALOOKI_HANDS_1_4,
          GAME_JAMAICAN_SUPER_KALOOKI_HANDS_5_9, GAME_BABY_THREE_HANDS, STOCK_SECOND_EXHAUSTION_VOIDS_HAND,
          STOCK_NO_RESHUFFLE_VARIANT, STAKES_POOL_TO_LAST_SURVIVOR)
def _after_decisions(variant: Variant, game: Game, events: list[ev.Event]) -> Game:
    active = game.active
    contract = variant.rules.contract
    if contract is not None and hands_won(game) >= contract.last - contract.first + 1:
        # a game of a fixed number of hands: the lowest total wins (a tie for it: no single winner)
        lowest = min(p.score for p in active)
        best = [p.id for p in active if p.score == lowest]
        return _game_over(game, best[0] if len(best) == 1 else None, events)
    if len(active) <= 1:
        return _game_over(game, active[0].id if active else game.last_winner, events)
    # reached only after a won hand (``settle_hand`` settles a void one itself, and a buy-in phase
    # follows a won hand: ``_phase_problems``), so the deal passes to the left
    dealer = game.next_active_left_of(game.dealer)
    return replace(game, phase="between", dealer=dealer, buy_in_queue=(), buy_in_score=None)


def _over(game: Game) -> str:
    """Why nothing more is played in a finished game (a tie for the lowest total has no winner)."""
    return (f"the game is over: {game.winner} has won" if game.winner is not None
            else "the game is over: the lowest total is shared, nobody won it outright")


def _game_over(game: Game, winner: str | None, events: list[ev.Event]) -> Game:
    """The game ends: ``winner`` (None where nobody won outright) takes the pool."""
    events.append(ev.GameWon(winner, game.pool))
    row: SheetRow = game.sheet[-1].copy() if game.sheet else {}
    row["game_winner"] = winner
    row["settlement"] = game_settlement(game.players, game.pool, winner)
    return replace(game, phase="over", winner=winner, buy_in_queue=(), buy_in_score=None,
                   sheet=game.sheet[:-1] + (row,) if game.sheet else game.sheet)


# BUYIN_UK_STAKE_HALF_MAIN: the buy-in costs /stakes/buy_in, 2 against an initial stake of 4 in the variant
#   file
@enforces(BUYIN_STAKE_PAID_TO_POOL, BUYIN_UK_STAKE_HALF_MAIN)
def apply_game_action(variant: Variant, game: Game, action: GameAction, events: list[ev.Event]) -> Game:
    """Apply a game-level action (``next_hand``, ``buy_in``, ``decline``); Illegal if refused."""
    kind = action["type"]
    if kind == "next_hand":
        if game.phase == "over":
            raise Illegal(ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR, _over(game))
        if game.phase == "buy_in":
            raise Illegal(BUYIN_DECISION_ORDER, f"{game.buy_in_queue[0]} must first decide whether to buy in")
        if game.phase == "hand":
            if game.hand is not None and game.hand.phase == Phase.ENDED:  # won with figures unseen cards leave open
                raise Illegal(TURN_DRAW_MELD_DISCARD, "the current hand is won but not settled: the figures its unseen "
                                                      "cards leave open must be seen (the hands shown) before the next deal")
            raise Illegal(TURN_DRAW_MELD_DISCARD, "the current hand is still being played")
        new, dealt = _deal_next(variant, game, seed_text(action["seed"]), action.get("cut"))
        events.extend(dealt)
        return new
    player = action["player"]
    _check_decision(variant, game, player)
    p = game.player(player)
    rest = game.buy_in_queue[1:]
    row: SheetRow = game.sheet[-1].copy() if game.sheet else {"buy_ins": {}}
    if kind == "buy_in":
        game = _buy_in(variant, game, p, row, events)
    else:
        game = game.with_player(player, out=True)
        events.append(ev.Eliminated(player, p.score))
        row["buy_ins"] = {**row.get("buy_ins", {}), player: False}
        row["eliminated"] = list(row.get("eliminated", [])) + [player]
    if game.sheet:
        game = replace(game, sheet=game.sheet[:-1] + (row,))
    game = replace(game, buy_in_queue=rest)
    if rest:
        return game
    return _after_decisions(variant, game, events)


def _check_decision(variant: Variant, game: Game, player: str) -> None:
    """Refuse a buy-in or a decline that is not ``player``'s to make now (the first owed decision)."""
    if player not in [p.id for p in game.players]:
        raise MalformedInput(Problem("/player", f"{player!r} is not a player in the game"))
    if game.phase == "over":
        raise Illegal(ELIMINATION_GAME_OVER_AT_ONE_SURVIVOR, _over(game) + ", no buy-ins")
    if variant.rules.game.limit is None:
        raise Illegal(BUYIN_NONE_NORTH_AMERICA, "this game has no elimination, no pool and no buying in")
    if game.phase != "buy_in" or player not in game.buy_in_queue:
        p = game.player(player)
        if variant.rules.game.buy_in_moves_to_new_table and p.out and p.buy_ins > 0:
            raise Illegal(BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE,
                          f"{player} bought in and moved to a new table; a buy-in never seats a player again here")
        if p.score <= variant.rules.game.limit and not p.out:
            raise Illegal(ELIMINATION_OVER_150, f"{player} is within the limit and has nothing to buy back")
        if not _buy_in_left(variant, p.buy_ins):
            raise Illegal(BUYIN_MAX_TWO_PER_GAME, f"{player} has used every buy-in allowed")
        raise Illegal(BUYIN_NEEDS_TWO_SURVIVORS, f"no buy-in is on offer to {player} now")
    if game.buy_in_queue[0] != player:
        raise Illegal(BUYIN_DECISION_ORDER, f"{game.buy_in_queue[0]} decides before {player}")


def _buy_in(variant: Variant, game: Game, p: GamePlayer, row: SheetRow, events: list[ev.Event]) -> Game:
    """``p`` buys in: pays the stake into the pool and rejoins at the buy-in score, or (where a buy-in
    moves to a new table) leaves this game; ``row``, the sheet's last row, records it."""
    price = game.stake("buy_in")
    row["buy_ins"] = {**row.get("buy_ins", {}), p.id: True}
    if variant.rules.game.buy_in_moves_to_new_table:
        game = game.with_player(p.id, out=True, buy_ins=p.buy_ins + 1, paid_to_pool=p.paid_to_pool + price)
        events.append(ev.MovedToNewTable(p.id, p.score, price, BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE))
    else:
        score = game.buy_in_score
        assert score is not None  # the buy-in phase carries the score to rejoin at (check_game)
        game = game.with_player(p.id, score=score, buy_ins=p.buy_ins + 1, paid_to_pool=p.paid_to_pool + price)
        events.append(ev.BoughtIn(p.id, score, price))
        row["scores"] = {**row.get("scores", {}), p.id: score}
    game = replace(game, pool=game.pool + price)
    row["pool"] = game.pool
    return game
