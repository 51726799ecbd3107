"""The position check: every reason a hand's state cannot occur, as a table of named invariants.

In the manner of python-chess's ``Board.status()`` flags, each invariant is one small function with
a stable ``code`` (what a client may match on: it reaches the wire as the ``code`` of each item of a
422's ``errors``) and the clause it rests on (a constant of ``clause_ids``).  ``INVARIANTS`` lists
them; ``check_state`` runs the table in its order, which is the order of the answers, and reports
every problem at once.  A check answers a sequence of ``(pointer, detail)`` pairs (pointers
relative to the state), empty where it finds nothing (the common case: the check answers it first,
as cheaply as it can); the table puts its code on what is found.  The facts several checks read
(the seats, the conservation count, the cards dealt...) are computed once, on ``Position``.  A row
may also name ``where`` its check can find anything (melds on the table, calls recorded...): the
neighbours sharing such a guard form a family, and ``check_state`` asks the guard once for it.

The rules on a list of players (each id once, as many as the variant seats) are written here once,
for a state, a deal, a game and a score sheet alike (``player_list_problems``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import groupby
from operator import attrgetter

from .cards import CANONICAL, JOKER_CODE, UNSEEN, Card, pack, pack_order
from .clause_ids import (CALL_ALLOWED_CALL_EFFECTS, CALL_ELIGIBILITY, CALL_NOT_BEFORE_CARD_LANDS,
                         CONTRACT_JAMAICAN_SCHEDULE, DEAL_SINGLY_THIRTEEN_EACH, DEAL_UPCARD_STARTS_DISCARD_PILE,
                         DRAW_DEALER_UPCARD_OPTION, DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                         GAME_EACH_HAND_SETTLED_SEPARATELY, GO_OUT_FINAL_DISCARD_REQUIRED,
                         PENALTY_JAMAICAN_INCORRECT_LAY_AFTER_DISCARD, PLAYERS_COUNT_TWO_TO_FIVE,
                         REFEREE_CARDS_CONSERVED, REFEREE_HAND_SIZES, REFEREE_POSITION_PROGRESS, REFEREE_POSITION_REFERENCES,
                         STOCK_RESHUFFLE_ONCE, TURN_DRAW_MELD_DISCARD, TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE,
                         WARNING_ANNOUNCE_ONE_TO_THREE_CARDS)
from .errors import ImpossibleState, Problem, pointer
from .state import Phase, Source, State, listed_cards, places_of
from .variant import Variant

Found = Sequence[tuple[str, str]]   # what a check answers: (pointer, detail) for each problem
NONE: Found = ()

# -- the players' list, in one place --------------------------------------------------------------


def player_count_problem(count: int, variant: Variant, at: str = "/players") -> Problem | None:
    """``count`` players outside the variant's bounds (``players.min`` to ``players.max``)."""
    lo, hi = variant.rules.players.min, variant.rules.players.max
    if lo <= count <= hi:
        return None
    return Problem(at, f"{count} players; this variant is for {lo} to {hi} ({variant.cite(PLAYERS_COUNT_TWO_TO_FIVE)})",
                   "PLAYER_COUNT")


def repeated_ids(ids: Sequence[str], at: str = "/players", item: str | None = None) -> list[Problem]:
    """Each entry of ``ids`` that repeats an earlier one: pointed at (``at``/index/``item``) where the
    entries are objects holding the id in ``item``, else at the list (``at``), as answered before."""
    if len(set(ids)) == len(ids):
        return []
    seen: set[str] = set()
    found = []
    for i, pid in enumerate(ids):
        if pid in seen:
            where = f"{at}{pointer(i, item)}" if item else at
            found.append(Problem(where, f"player id {pid!r} is used twice", "PLAYER_ID_REPEATED"))
        seen.add(pid)
    return found


def player_list_problems(ids: Sequence[str], variant: Variant, at: str = "/players",
                         item: str | None = None) -> list[Problem]:
    """What is wrong with a list of players under ``variant``: a repeated id (``item``: the field of
    an entry holding the id, where the entries are objects), a count outside the variant's bounds."""
    count = player_count_problem(len(ids), variant, at)
    return ([] if count is None else [count]) + repeated_ids(ids, at, item)


# -- the invariants -------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def pack_in_order(decks: int, jokers: int) -> list[Card]:
    """The cards of a pack in the canonical order (shared, read-only: computed once for each pack)."""
    return sorted(pack_order(decks, jokers), key=CANONICAL)


class Position:
    """A state under a variant, with what several invariants read computed once."""

    def __init__(self, state: State, variant: Variant) -> None:
        self.state, self.variant, self.rules = state, variant, variant.rules
        self.ids = [p.id for p in state.players]
        self.seats = set(self.ids)   # the ids of the players
        self.hands = [p.hand for p in state.players]
        # the dealer and the player to act are players (several checks ask it)
        self.seated = state.dealer in self.seats and state.to_act in self.seats
        self.playing = state.phase != Phase.ENDED
        # before the first play, nothing drawn or laid yet: every hand is as dealt (DEALT_COUNT)
        self.as_dealt = state.first_play and state.phase == Phase.DRAW
        # (read by most positions: computed at once, not as cached properties, which take a lock in 3.11)
        self.conservation = self._conservation()
        self.dealt = self._cards_dealt()

    def _conservation(self) -> tuple[int, Mapping[str, int], Mapping[str, int]]:
        """(unseen cards, the pack's count of each code, the state's count of each listed code);
        both maps empty when the state holds exactly the pack (the common case, found cheaply)."""
        table_pack = self.rules.pack_for(len(self.ids))
        # The common case, found cheaply: the state's cards in the canonical order are the pack's (a
        # card's order is its own, cards being interned).  Sorting runs in C, where a Counter's
        # making and updating are Python code: 0.4 of a parse less on the first-turn request.
        held = listed_cards(self.state)
        held.sort(key=CANONICAL)
        if held == pack_in_order(table_pack.decks, table_pack.jokers):
            return 0, {}, {}
        return held.count(UNSEEN), pack(table_pack.decks, table_pack.jokers), self.state.card_counts()

    @cached_property
    def codes_off(self) -> list[str]:
        """The card codes whose count differs from the pack's, jokers last."""
        _, expected, counts = self.conservation
        if not expected:   # exactly the pack
            return []
        return [c for c in sorted(set(expected) | set(counts), key=lambda c: (c == JOKER_CODE, c))
                if counts.get(c, 0) != expected.get(c, 0)]

    def _cards_dealt(self) -> int | None:
        """The cards dealt to each player of the position's hand (None where its number is wrong)."""
        return None if _hand_number(self) else self.rules.cards_for(len(self.ids), self.state.hand_number)

    @cached_property
    def counting(self) -> int | None:
        """The cards dealt to each player, where the hand sizes are to be counted (asked for, the hand
        going on, its number right and the pack conserved), else None."""
        asked = self.rules.positions
        if not (asked.counted or asked.hand_limit) or not self.playing:
            return None
        hidden, expected, counts = self.conservation
        # (with unseen cards, a card listed less often than the pack holds it is one of them)
        if any(counts.get(c, 0) > expected.get(c, 0) or not hidden for c in self.codes_off):
            return None
        if hidden and sum(counts.values()) + hidden != sum(expected.values()):
            return None
        return self.dealt


Check = Callable[[Position], Found]
Guard = Callable[[Position], bool]


@dataclass(frozen=True)
class Invariant:
    """One rule a position must keep: its stable ``code``, the ``clause`` it rests on, its check, and
    ``where`` it can find something at all: a guard shared by a family of checks next to each other
    in the table (no melds on the table, no melds to check), asked once for the family (None: in any
    position)."""
    code: str
    clause: str
    check: Check
    where: Guard | None = None

    def problems(self, found: Found) -> list[Problem]:
        """What this invariant's check found, as problems carrying its code."""
        return [Problem(where, detail, self.code) for where, detail in found]


def seating_amiss(pos: Position) -> bool:
    """Whether the players' list or the names of the dealer and the player to act can be wrong: one
    test for the four checks below, which find nothing in almost every position."""
    players = pos.rules.players
    return not (pos.seated and len(pos.seats) == len(pos.ids) and players.min <= len(pos.ids) <= players.max)


def _player_count(pos: Position) -> Found:
    found = player_count_problem(len(pos.ids), pos.variant)
    return NONE if found is None else [(found.pointer, found.detail)]


def _player_ids(pos: Position) -> Found:
    if len(pos.seats) == len(pos.ids):
        return NONE
    return [(p.pointer, p.detail) for p in repeated_ids(pos.ids, item="id")]


def _dealer_named(pos: Position) -> Found:
    dealer = pos.state.dealer
    return NONE if dealer in pos.seats else [("/dealer", f"dealer {dealer!r} is not a player")]


def _to_act_named(pos: Position) -> Found:
    to_act = pos.state.to_act
    return NONE if to_act in pos.seats else [("/to_act", f"to_act {to_act!r} is not a player")]


# Conservation of cards.  A state with unseen cards (counts in place of listed cards) must list no
# card more often than the pack holds it, and its listed cards and counts together make the pack.

def off_the_pack(pos: Position) -> bool:
    """Whether the state holds anything but exactly the pack (unseen cards included)."""
    return bool(pos.conservation[1])


def _unseen_count(pos: Position) -> Found:
    hidden, expected, counts = pos.conservation
    if not hidden:
        return NONE
    listed, size = sum(counts.values()), sum(expected.values())
    off = listed + hidden - size
    if not off:
        return NONE
    detail = (f"the {listed} listed cards and the {hidden} unseen ones make {listed + hidden}; the pack has {size}: "
              f"{abs(off)} too {'many' if off > 0 else 'few'}")
    return [(place, detail) for place in pos.state.hidden_pointers()]


def _card_missing(pos: Position) -> Found:
    hidden, expected, counts = pos.conservation
    if hidden:  # with unseen cards, a card not listed is one of them
        return NONE
    return [("", f"card {code} is missing: the pack has {expected.get(code, 0)}, the state holds {counts.get(code, 0)}")
            for code in pos.codes_off if counts.get(code, 0) < expected.get(code, 0)]


def _card_excess(pos: Position) -> Found:
    _, expected, counts = pos.conservation
    found: list[tuple[str, str]] = []
    for code in pos.codes_off:
        have, want = counts.get(code, 0), expected.get(code, 0)
        if have > want:
            places = places_of(pos.state, code)
            where = f"found in {', '.join(places)}" if places else "found among the melds or released jokers"
            extra = "is not in this variant's pack" if want == 0 else f"appears {have} times but the pack has {want}"
            found += [(place, f"card {code} {extra} ({where})") for place in places or [""]]
    return found


# Melds on the table.

def melds_on_table(pos: Position) -> bool:
    return bool(pos.state.melds)


def _meld_ids(pos: Position) -> Found:
    seen: set[str] = set()
    found = []
    for i, m in enumerate(pos.state.melds):
        if m.id in seen:
            found.append((pointer("melds", i, "id"), f"meld id {m.id!r} is used twice"))
        seen.add(m.id)
    return found


def _meld_owner_named(pos: Position) -> Found:
    return [(pointer("melds", i, "owner"), f"owner {m.owner!r} is not a player")
            for i, m in enumerate(pos.state.melds) if m.owner not in pos.seats]


def _meld_owner_opened(pos: Position) -> Found:
    opened: dict[str, bool] = {}   # (each id's first seat, as ``State.player`` finds it)
    for p in pos.state.players:
        opened.setdefault(p.id, p.opened)
    return [(pointer("melds", i, "owner"), f"{m.owner} has a meld on the table but is not marked as opened")
            for i, m in enumerate(pos.state.melds) if not opened.get(m.owner, True)]


# Phase and turn record.

def turn_under_way(pos: Position) -> bool:
    """Whether the player to act has drawn, or the turn record holds anything."""
    return pos.state.phase == Phase.PLAY or not pos.state.turn.is_fresh


def _draw_turn_empty(pos: Position) -> Found:
    state = pos.state
    if state.phase == Phase.DRAW and not state.turn.is_fresh:
        return [("/turn", "in the draw phase the turn record must be empty (nothing drawn or laid yet)")]
    return NONE


def _play_turn_drawn(pos: Position) -> Found:
    state, t = pos.state, pos.state.turn
    if state.phase != Phase.PLAY:
        return NONE
    # a card drawn unseen from the stock is null on the wire (in a position with unseen cards)
    unseen_draw = t.drawn is None and t.source == Source.STOCK and state.partial
    if (t.drawn is None and not unseen_draw) or t.source is None:
        return [("/turn", "in the play phase the turn record names the card drawn and its source")]
    return NONE


def _owed_after_discard(pos: Position) -> Found:
    state, t = pos.state, pos.state.turn
    if state.phase != Phase.PLAY or t.source == Source.DISCARD:
        return NONE
    found = []
    if t.must_open:
        found.append(("/turn/must_open", "must_open is only owed after taking the discard"))
    if t.must_use is not None:
        found.append(("/turn/must_use", "must_use is only owed after taking the discard"))
    return found


def _opened_this_turn(pos: Position) -> Found:
    state = pos.state
    if (state.phase == Phase.PLAY and state.turn.opened_this_turn and state.to_act in pos.seats
            and not state.current.opened):
        return [("/turn/opened_this_turn", "opened_this_turn is set but the player to act has not opened")]
    return NONE


def _builds_on_runs(pos: Position) -> Found:
    if not pos.state.turn.builds:
        return NONE
    found = []
    for mid, _, _ in pos.state.turn.builds:
        built = pos.state.meld(mid)
        if built is None or built.meld.kind != "run":
            found.append((pointer("turn", "builds", mid), f"builds names {mid!r}, which is not a run on the table"))
    return found


def _result_when_ended(pos: Position) -> Found:
    state = pos.state
    if state.phase == Phase.ENDED:
        if state.result is None and not state.partial:  # unseen cards left in hands: not settled
            return [("/result", "an ended hand carries its result")]
    elif state.result is not None:
        return [("/result", "only an ended hand carries a result")]
    return NONE


def _hands_until_end(pos: Position) -> Found:
    state = pos.state
    if not pos.playing or all(pos.hands):
        return NONE
    return [(pointer("players", i, "hand"), f"{p.id} has no cards but the hand has not ended")
            for i, p in enumerate(state.players) if not p.hand]


def _stock_at_draw(pos: Position) -> Found:
    state = pos.state
    if state.phase == Phase.DRAW and not state.stock:
        return [("/stock", "the stock is empty at the start of a turn: it should have been reshuffled or the hand voided")]
    return NONE


def _upcard(pos: Position) -> Found:
    state = pos.state
    if state.discard == () and state.phase == Phase.DRAW and state.first_play and pos.rules.deal.upcard:
        return [("/discard", "the first play of a deal starts with the upcard on the discard pile")]
    return NONE


def _first_round(pos: Position) -> Found:
    if pos.state.first_round and not pos.rules.draw.free_discard_first_round:
        return [("/first_round", "this variant gives no free discard in the first round")]
    return NONE


def _dealer_option(pos: Position) -> Found:
    state = pos.state
    if not state.dealer_option:
        return NONE
    if not pos.rules.draw.dealer_upcard_option:
        return [("/dealer_option", "this variant gives the dealer no upcard option")]
    if not state.first_play or state.phase == Phase.ENDED or state.to_act != state.dealer:
        return [("/dealer_option",
                 "the dealer's upcard option is open only before the first play, with the dealer to act")]
    return NONE


def _first_play_seat(pos: Position) -> Found:
    state = pos.state
    if not state.first_play or state.dealer_option or not pos.playing or not pos.seated:
        return NONE
    ids = pos.ids
    if state.to_act != ids[(ids.index(state.dealer) + 1) % len(ids)]:   # (State.left_of, on the list of ids)
        return [("/to_act", "on the first play the player on the dealer's left is to act")]
    return NONE


def _no_melds_before_first_play(pos: Position) -> Found:
    state = pos.state
    if not state.dealer_option and state.first_play and state.phase == Phase.DRAW and state.melds:
        return [("/melds", "no melds can be on the table before the first play")]
    return NONE


def _hand_number(pos: Position) -> Found:
    contract, number = pos.rules.contract, pos.state.hand_number
    if contract is not None and not contract.first <= number <= contract.last:
        return [("/hand_number", f"a hand of this contract game is numbered {contract.first} to {contract.last}"
                 + (f", not {number}" if number else ": give hand_number"))]
    if contract is None and number:
        return [("/hand_number", "this variant does not number its hands (it has no contracts)")]
    return NONE


def _dealt(pos: Position) -> Found:
    if not pos.as_dealt:
        return NONE
    state, dealt = pos.state, pos.dealt
    if dealt is None or set(map(len, pos.hands)) == {dealt}:   # (every hand holds what was dealt)
        return NONE
    # nothing has been drawn or laid yet: every hand holds what the deal gave it (a cutter who
    # kept the joker shown on the cut was dealt one card fewer)
    return [(pointer("players", i, "hand"),
             f"before the first play every player holds the {dealt} cards dealt; {p.id} holds {len(p.hand)}")
            for i, p in enumerate(state.players) if len(p.hand) != dealt]


def announced(pos: Position) -> bool:
    return pos.state.announcement is not None


def _announcer_named(pos: Position) -> Found:
    a = pos.state.announcement
    if a is None or a.player in pos.seats:
        return NONE
    return [("/announcement/player", f"{a.player!r} is not a player")]


def _announcement(pos: Position) -> Found:
    state, a = pos.state, pos.state.announcement
    if a is None or a.player not in pos.seats:
        return NONE
    if state.phase != Phase.DRAW or a.player == state.to_act:
        return [("/announcement", "an announcement is owed only between a player's discard and the next player's draw")]
    held = len(state.player(a.player).hand)
    if held != a.count:
        return [("/announcement/count", f"{a.player} holds {held} cards, not {a.count}")]
    return NONE


# Calls out of turn (the contract game).
# (more calls than the limit is an over-call nobody stopped, which a challenge settles)

def calling(pos: Position) -> bool:
    """Whether the state records any call, a pluck owed after one, or a player barred from laying."""
    state = pos.state
    return bool(state.calls or state.stock_owed or any([p.calls or p.lay_barred for p in state.players]))


def _calls_in_variant(pos: Position) -> Found:
    if pos.rules.calling.per_hand:
        return NONE
    return [(pointer("players", i, "calls"), "this variant has no calls out of turn")
            for i, p in enumerate(pos.state.players) if p.calls]


def _lay_barred(pos: Position) -> Found:
    return [(pointer("players", i, "lay_barred"), f"{p.id} is barred from laying but has laid")
            for i, p in enumerate(pos.state.players) if p.lay_barred and p.opened]


def _call_window(pos: Position) -> Found:
    state = pos.state
    if state.calls and (state.phase != Phase.DRAW or state.first_play):
        return [("/calls", "a call waits only between a player's discard and the next player's pluck")]
    return NONE


def _call_once(pos: Position) -> Found:
    calls = pos.state.calls
    return [("/calls", "a player calls a discard once")] if calls and len(set(calls)) < len(calls) else NONE


def _callers(pos: Position) -> Found:
    state = pos.state
    if not state.calls:
        return NONE
    return [(pointer("calls", j),
             f"{caller!r} cannot be calling: a caller is a player who is not to act and has not laid down")
            for j, caller in enumerate(state.calls)
            if caller not in pos.seats or caller == state.to_act or state.player(caller).opened]


def _stock_owed(pos: Position) -> Found:
    state = pos.state
    if state.stock_owed and (state.phase != Phase.DRAW or state.calls):
        return [("/stock_owed", "a pluck from the stock is owed only in the draw phase, after a call was allowed")]
    return NONE


def _reshuffles(pos: Position) -> Found:
    most, done = pos.rules.stock.reshuffles, pos.state.reshuffles
    return [("/reshuffles", f"{done} reshuffles; this variant allows {most}")] if done > most else NONE


# Hand sizes: the cards a position holds add up (/positions/counted, on by default), and no hand is
# over what the deal, the calls and the draw give it (/positions/hand_limit, which alone bounds a
# composed position).  Between turns a hand holds the cards dealt (a cutter who kept the cut's joker
# was dealt one fewer and holds it; a dealer who took the upcard gave a card for it), plus the discard
# and the penalty cards of each allowed call, less what it has laid on the table; the player to act
# holds one more once they have drawn.  So the hands and the table together hold what the deal, the
# draws and the calls gave the seats, and the stock and the discard pile the rest of the pack.
# Which seat laid a card is not on record (a card added to another's meld counts in that meld, and
# an incorrect contract is picked up with what others added to it), so the sum is what is exact;
# where it is off, each seat whose hand and melds do not make its share is named.  A seat that
# cannot have laid anything (not opened, where laying waits for the opening) is counted exactly on
# its own.  An over-call settled by a challenge leaves ``calls`` at the limit while the hand keeps
# the cards: a table with one is not summed.  A missing pluck or discard is refused by the referee
# (an action it refuses never happened at the table): a position left one card off by one played
# elsewhere is sent as composed (counted false), where only the hand limit holds, less what the
# table's reported infractions and picked-up lays explain.

def _owed(pos: Position, i: int, dealt: int) -> int:
    """What seat ``i`` holds before laying anything: the deal, what its allowed calls brought, and the
    card drawn where it is playing its turn."""
    state, p = pos.state, pos.state.players[i]
    drawn = 1 if state.phase == Phase.PLAY and p.id == state.to_act else 0
    return dealt + p.calls * (1 + pos.rules.calling.penalty_cards) + drawn


def _calls_settled(pos: Position, calls: int) -> bool:
    """Whether a player's ``calls`` may stand for more calls than were made (an over-call a challenge
    settled leaves the count at the limit; the cards stay)."""
    per_hand = pos.rules.calling.per_hand
    return bool(per_hand) and calls >= per_hand


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _share(pos: Position, i: int, dealt: int, laid: int) -> str:
    """Seat ``i``'s count in words: what it should hold, and from what (the deal, the calls, the card
    drawn, the cards laid)."""
    state, p = pos.state, pos.state.players[i]
    owed = _owed(pos, i, dealt)
    parts = [f"{dealt} dealt"]
    if p.calls:
        parts.append(f"{p.calls * (1 + pos.rules.calling.penalty_cards)} from {_plural(p.calls, 'call')}")
    if state.phase == Phase.PLAY and p.id == state.to_act:
        parts.append("1 drawn")
    if laid > owed:   # (cards others added to this seat's melds: its melds alone hold more than it was given)
        return (f"{p.id} holds {len(p.hand)} cards and has {laid} in melds on the table, more than the {owed} "
                f"the deal and the turns gave ({', '.join(parts)})")
    if laid:
        parts.append(f"{laid} laid")
    return f"{p.id} should hold {_plural(owed - laid, 'card')}: {', '.join(parts)}; {p.id} holds {len(p.hand)}"


def _laid_by_owner(pos: Position) -> list[int]:
    """The cards of the melds each seat owns (the released jokers still to place counted with the
    player to act's)."""
    state = pos.state
    laid = dict.fromkeys(pos.ids, 0)
    for m in state.melds:
        if m.owner in laid:
            laid[m.owner] += len(m.meld.cards)
    if state.turn.pending_jokers and state.to_act in laid:
        laid[state.to_act] += state.turn.pending_jokers
    return [laid[pid] for pid in pos.ids]


def _table_summed(pos: Position) -> bool:
    """Whether the hands and the table are summed (counted asked for, and no over-call settled)."""
    return pos.rules.positions.counted and not any(_calls_settled(pos, p.calls) for p in pos.state.players)


def _off_by(pos: Position, dealt: int) -> int:
    """How many cards the hands and the table hold over (or under) what the deal, the draws and the
    calls gave the seats."""
    state = pos.state
    table = sum([len(m.meld.slots) for m in state.melds]) + state.turn.pending_jokers
    return sum(map(len, pos.hands)) + table - sum([_owed(pos, i, dealt) for i in range(len(pos.ids))])


def _hand_sizes(pos: Position) -> Found:
    if pos.as_dealt:   # (DEALT_COUNT says it)
        return NONE
    dealt = pos.counting
    if dealt is None:
        return NONE
    rules = pos.rules
    counted = rules.positions.counted
    reported = () if counted else rules.penalties.infractions
    picked_up = rules.contract is not None   # an incorrect contract is picked up, with what others added
    may_lay_unopened = not rules.building.requires_opening or (rules.joker_reuse.allowed
                                                               and not rules.joker_reuse.requires_opening)
    found = []
    for i, p in enumerate(pos.state.players):
        owed, held = _owed(pos, i, dealt), len(p.hand)
        over = held > owed and not (p.lay_barred or picked_up or _calls_settled(pos, p.calls)
                                    or "missing_discard" in reported)
        under = counted and held < owed and not (p.opened or p.lay_barred or picked_up or may_lay_unopened)
        if over or under:
            where = pointer("players", i, "hidden" if p.hidden else "hand")
            if counted and not p.opened:
                found.append((where, _share(pos, i, dealt, 0)))
            else:
                found.append((where, f"{p.id} holds {held} cards; the deal, the turns and the calls leave them "
                                     f"at most {owed}"))
    if found or not _table_summed(pos):
        return found
    off = _off_by(pos, dealt)
    if not off:
        return NONE
    # the sum is off: each seat whose hand and melds are off the same way is named
    laid = _laid_by_owner(pos)
    for i, p in enumerate(pos.state.players):
        d = len(p.hand) + laid[i] - _owed(pos, i, dealt)
        if d and (d > 0) == (off > 0):
            found.append((pointer("players", i, "hidden" if p.hidden else "hand"),
                          f"{_share(pos, i, dealt, laid[i])} ({_plural(abs(d), 'card')} too "
                          f"{'many' if d > 0 else 'few'})"))
    return found


def _piles(pos: Position) -> Found:
    """The stock and the discard pile, where the sum is off: they hold the rest of the pack."""
    if pos.as_dealt or not _table_summed(pos) or (dealt := pos.counting) is None:
        return NONE
    off = _off_by(pos, dealt)
    if not off:
        return NONE
    piles = len(pos.state.stock) + len(pos.state.discard)
    size = sum(pos.conservation[1].values()) or pos.rules.pack_for(len(pos.ids)).size
    return [("/stock", f"the stock and the discard pile hold {piles} cards; the deal, the turns and the calls leave "
                       f"{piles + off} there (the hands and the table hold {size - piles}, the deal and the draws "
                       f"{size - piles - off})")]


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("PLAYER_COUNT", PLAYERS_COUNT_TWO_TO_FIVE, _player_count, seating_amiss),
    Invariant("PLAYER_ID_REPEATED", REFEREE_POSITION_REFERENCES, _player_ids, seating_amiss),
    Invariant("DEALER_UNKNOWN", REFEREE_POSITION_REFERENCES, _dealer_named, seating_amiss),
    Invariant("TO_ACT_UNKNOWN", REFEREE_POSITION_REFERENCES, _to_act_named, seating_amiss),
    Invariant("UNSEEN_COUNT", REFEREE_CARDS_CONSERVED, _unseen_count, off_the_pack),
    Invariant("CARD_MISSING", REFEREE_CARDS_CONSERVED, _card_missing, off_the_pack),
    Invariant("CARD_EXCESS", REFEREE_CARDS_CONSERVED, _card_excess, off_the_pack),
    Invariant("MELD_ID_REPEATED", REFEREE_POSITION_REFERENCES, _meld_ids, melds_on_table),
    Invariant("MELD_OWNER_UNKNOWN", REFEREE_POSITION_REFERENCES, _meld_owner_named, melds_on_table),
    Invariant("MELD_OWNER_NOT_OPENED", REFEREE_POSITION_PROGRESS, _meld_owner_opened, melds_on_table),
    Invariant("TURN_NOT_EMPTY", TURN_DRAW_MELD_DISCARD, _draw_turn_empty, turn_under_way),
    Invariant("TURN_DRAW_UNRECORDED", TURN_DRAW_MELD_DISCARD, _play_turn_drawn, turn_under_way),
    Invariant("OWED_WITHOUT_DISCARD", DRAW_DISCARD_ONLY_WITH_INITIAL_MELD, _owed_after_discard, turn_under_way),
    Invariant("OPENED_THIS_TURN_UNOPENED", REFEREE_POSITION_PROGRESS, _opened_this_turn, turn_under_way),
    Invariant("BUILD_NOT_A_RUN", REFEREE_POSITION_REFERENCES, _builds_on_runs, turn_under_way),
    Invariant("RESULT_MISPLACED", GAME_EACH_HAND_SETTLED_SEPARATELY, _result_when_ended),
    Invariant("HAND_EMPTY", GO_OUT_FINAL_DISCARD_REQUIRED, _hands_until_end),
    Invariant("STOCK_EMPTY", STOCK_RESHUFFLE_ONCE, _stock_at_draw),
    Invariant("UPCARD_MISSING", DEAL_UPCARD_STARTS_DISCARD_PILE, _upcard),
    Invariant("FIRST_ROUND_UNPLAYED", REFEREE_POSITION_PROGRESS, _first_round),
    Invariant("DEALER_OPTION", DRAW_DEALER_UPCARD_OPTION, _dealer_option),
    Invariant("FIRST_PLAY_SEAT", TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE, _first_play_seat),
    Invariant("MELDS_BEFORE_FIRST_PLAY", REFEREE_POSITION_PROGRESS, _no_melds_before_first_play),
    Invariant("HAND_NUMBER", CONTRACT_JAMAICAN_SCHEDULE, _hand_number),
    Invariant("DEALT_COUNT", DEAL_SINGLY_THIRTEEN_EACH, _dealt),
    Invariant("ANNOUNCER_UNKNOWN", REFEREE_POSITION_REFERENCES, _announcer_named, announced),
    Invariant("ANNOUNCEMENT", WARNING_ANNOUNCE_ONE_TO_THREE_CARDS, _announcement, announced),
    Invariant("CALLS_UNPLAYED", CALL_ELIGIBILITY, _calls_in_variant, calling),
    Invariant("LAY_BARRED_OPENED", PENALTY_JAMAICAN_INCORRECT_LAY_AFTER_DISCARD, _lay_barred, calling),
    Invariant("CALL_WINDOW", CALL_NOT_BEFORE_CARD_LANDS, _call_window, calling),
    Invariant("CALL_REPEATED", CALL_ELIGIBILITY, _call_once, calling),
    Invariant("CALLER_INELIGIBLE", CALL_ELIGIBILITY, _callers, calling),
    Invariant("STOCK_OWED", CALL_ALLOWED_CALL_EFFECTS, _stock_owed, calling),
    Invariant("RESHUFFLES", STOCK_RESHUFFLE_ONCE, _reshuffles),
    Invariant("HAND_SIZE", REFEREE_HAND_SIZES, _hand_sizes),
    Invariant("PILE_SIZE", REFEREE_HAND_SIZES, _piles),
)


# The table as runs of neighbours sharing a guard, in its order: each guard is asked once per run
# (None: the run is checked in any position).
FAMILIES: tuple[tuple[Guard | None, tuple[Invariant, ...]], ...] = tuple(
    (where, tuple(run)) for where, run in groupby(INVARIANTS, key=attrgetter("where")))


def check_state(state: State, variant: Variant) -> list[Problem]:
    """Every reason ``state`` cannot occur under ``variant`` (empty when it can), in the table's order."""
    position = Position(state, variant)
    problems: list[Problem] = []
    for where, family in FAMILIES:
        if where is None or where(position):
            for invariant in family:
                found = invariant.check(position)
                if found:   # (most find nothing: problems are built only for what is found)
                    problems += invariant.problems(found)
    return problems
