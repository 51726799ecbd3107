"""A variant's parameters as one typed, frozen value: ``Rules``.

The wire (rules/wire/params.py) reads a variant file's ``parameters`` block (with any house rules
merged over it) into ``Rules``, with marshmallow schemas derived from the declarations here, refusing
an unknown key or a value of the wrong type or range with the path of the field.  The engine then
reads ``rules.draw.taken_discard`` rather than string paths, so a misspelt parameter is an attribute
error caught by mypy, not a ``KeyError`` at run time.  Choices are ``StrEnum`` members: they compare equal to their wire
strings and serialise as them.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field
from dataclasses import fields as dataclass_fields
from enum import StrEnum
from types import UnionType
from typing import Any, Mapping, Union, get_args, get_origin, get_type_hints

from .clause_ids import (DEAL_BABY_EIGHT_EVERY_HAND, DEAL_BABY_SIX_SEVEN_EIGHT, DEAL_JAMAICAN_CARDS_PER_HAND,
                         DEAL_JAMAICAN_TWELVE_IN_FIRST_THREE_HANDS, DEAL_NORTH_AMERICAN_COUNT_BY_PLAYERS,
                         DECK_JAMAICAN_PACKS_BY_PLAYERS)
from .clauses import enforces

# -- choices ------------------------------------------------------------------------------------


class AcePlace(StrEnum):
    HIGH = "high"
    LOW = "low"
    HIGH_OR_LOW = "high_or_low"


class JokerDeclaration(StrEnum):
    WHEN_AMBIGUOUS = "when_ambiguous"
    ALWAYS = "always"


class DiscardBeforeOpening(StrEnum):
    ONLY_WHEN_OPENING_THIS_TURN = "only_when_opening_this_turn"
    IN_OPENING = "in_opening"
    FREE = "free"                     # taken before opening with no obligation (the contract game)


class TakenDiscard(StrEnum):
    KEEP = "keep"
    MELD_OR_BUILD = "meld_or_build"
    NEW_MELD = "new_meld"


class RunJokerPosition(StrEnum):
    ANY = "any"
    INTERIOR = "interior"


class SetExchange(StrEnum):
    FILL = "fill"
    ONE_NATURAL = "one_natural"


class FullSetJoker(StrEnum):
    AS_SET_EXCHANGE = "as_set_exchange"
    LAST_NATURAL = "last_natural"


class OnlyJokers(StrEnum):
    """What a player holding nothing but jokers does to end a turn where a joker is never discarded."""
    PASS = "pass"          # the turn ends without a discard
    DISCARD = "discard"    # one joker may then be discarded


class ReleasedInto(StrEnum):
    MELD_OR_BUILD = "meld_or_build"
    NEW_MELD = "new_meld"


class ScoringModel(StrEnum):
    PENALTY = "penalty"
    WINNER_COLLECTS = "winner_collects"
    PER_CARD = "per_card"


class SeatingOrder(StrEnum):
    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


# the infractions a table may report for a penalty (``penalties.infractions``): a turn begun without
# a pluck or ended without a discard, and the house rules' cards rested on the table, cards exposed
# other than by laying, and an attempt to discard a joker
INFRACTIONS = ("missing_pluck", "missing_discard", "rested_cards", "exposed_cards", "joker_discard")

# -- the typed parameters ----------------------------------------------------------------------
#
# Each parameter is declared once, here: its type is the field's annotation, and ``param`` gives its
# meaning, its range and its default (a field with a default is one a variant file may leave out, for
# the files written before it).  ``None`` in the type is a parameter the wire may set to null.  From
# these declarations come the marshmallow schema of rules/wire/params.py (which loads a variant's ``parameters`` and a
# request's house rules into ``Rules``), the JSON Schema of the parameters in rules/variant.schema.yaml,
# openapi.yaml's ``Rules`` and docs/parameters.md (``python -m tools.params --write`` writes the last
# three; tests/rules/test_params.py checks them equal to what the declarations give).

_NO_DEFAULT: Any = object()


@dataclass(frozen=True, slots=True)
class Spec:
    """What a parameter's declaration says besides its type (``param``'s arguments but the default)."""
    doc: str
    lo: int | None = None
    hi: int | None = None
    const: bool | None = None
    keys: str | tuple[int, int] | None = None
    size: tuple[int | None, int | None] | None = None
    choices: tuple[str, ...] | None = None

    @property
    def key_pattern(self) -> str:
        """The pattern of a table's number keys."""
        if not isinstance(self.keys, str):  # pragma: no cover - a declaration error
            raise TypeError(f"{self.doc!r}: its keys are not a pattern")
        return self.keys

    @property
    def name_length(self) -> tuple[int, int]:
        """The shortest and longest of a table's name keys."""
        if not isinstance(self.keys, tuple):  # pragma: no cover - a declaration error
            raise TypeError(f"{self.doc!r}: its keys are not names")
        return self.keys


def param(doc: str, *, lo: int | None = None, hi: int | None = None, default: Any = _NO_DEFAULT,
          const: bool | None = None, keys: str | tuple[int, int] | None = None,
          size: tuple[int | None, int | None] | None = None, choices: tuple[str, ...] | None = None) -> Any:
    """A parameter's declaration: ``doc``, what it means; ``lo`` and ``hi``, the range of an integer (or
    of the integers of a list or a table); ``default``, the value of a parameter a file leaves out;
    ``const``, the only value allowed; ``keys``, the pattern of a table's number keys (or the length of
    its name keys); ``size``, the fewest and most entries of a list or table; ``choices``, the names a
    list may hold."""
    meta = {"spec": Spec(doc, lo, hi, const, keys, size, choices)}
    if default is _NO_DEFAULT:
        return field(metadata=meta)
    return field(default=default, metadata=meta)


_SEATS = r"^[2-8]\Z"                  # a table size, as a key ("5")
_HANDS = r"^([1-9]|1[0-9]|20)\Z"      # a hand number of a contract game, as a key ("3")
_MONEY = 1_000_000                    # the most units a stake or payment may be


@dataclass(frozen=True, slots=True)
class Players:
    min: int = param("fewest players at a table", lo=2, hi=8)
    max: int = param("most players at a table", lo=2, hi=8)


@dataclass(frozen=True, slots=True)
class PackSize:
    decks: int = param("52-card packs shuffled together", lo=1, hi=4)
    jokers: int = param("jokers added to them", lo=0, hi=12)


@dataclass(frozen=True, slots=True)
class Pack:
    decks: int = param("52-card packs shuffled together", lo=1, hi=4)
    jokers: int = param("jokers added to them", lo=0, hi=12)
    by_players: Mapping[int, PackSize] | None = param(
        "another pack (decks, jokers) at a table of that many players, keyed by the player count", keys=_SEATS,
        default=None)

    @property
    def size(self) -> int:
        return 52 * self.decks + self.jokers

    @enforces(DECK_JAMAICAN_PACKS_BY_PLAYERS)
    def for_players(self, players: int) -> "Pack":
        """The pack a table of ``players`` plays with (``by_players``, else ``decks`` and ``jokers``)."""
        other = self.by_players.get(players) if self.by_players is not None else None
        return self if other is None else Pack(other.decks, other.jokers)


@dataclass(frozen=True, slots=True)
class Deal:
    cards_each: int = param("cards dealt to each player", lo=1, hi=20)
    cards_by_players: Mapping[int, int] | None = param(
        "cards dealt to each by table size, keyed by the player count, where it depends on it (null: cards_each "
        "at every size)", keys=_SEATS, lo=1, hi=20)
    packets: tuple[int, ...] | None = param(
        "the deal in rounds of packets of these sizes, adding up to the cards each (null: one card at a time)",
        lo=1, hi=20, size=(1, 20))
    upcard: bool = param("the card after the deal is turned face up to start the discard pile")
    joker_on_cut: bool = param("a joker shown on the cut is kept by the cutter")
    dealer_cut_bonus: int | None = param(
        "points to a dealer whose cut is exactly the cards dealt (null: none)", lo=-1000, hi=1000, default=None)

    @enforces(DEAL_NORTH_AMERICAN_COUNT_BY_PLAYERS)
    def cards_for(self, players: int) -> int:
        """Cards dealt to each player at a table of ``players``."""
        if self.cards_by_players is not None and players in self.cards_by_players:
            return self.cards_by_players[players]
        return self.cards_each


@dataclass(frozen=True, slots=True)
class Values:
    ace: int = param("an ace, in a meld (high) or left in hand", lo=0, hi=100)
    picture: int = param("a king, queen or jack", lo=0, hi=100)
    joker_in_hand: int = param("a joker left in hand", lo=0, hi=100)
    low_ace_in_meld: int = param("an ace laid low in a run (below the two)", lo=0, hi=100)
    joker_set_each: int = param("each joker of a set of jokers only", lo=0, hi=100)
    red_ace: int | None = param("a red ace (AH, AD) left in hand, where it differs from ace (null: as ace)",
                                lo=0, hi=100, default=None)


@dataclass(frozen=True, slots=True)
class SetRules:
    min: int = param("fewest cards in a set", lo=2, hi=4)
    max: int = param("most cards in a set", lo=3, hi=30)
    distinct_suits: bool = param("the cards of a set are of different suits")
    identical_triples: bool = param("three identical cards (same rank and suit) also make a set")
    all_jokers: bool = param("a set may be made of jokers only")
    min_naturals: int = param("natural cards a set needs at least (with all_jokers: none)", lo=1, hi=4, default=1)


@dataclass(frozen=True, slots=True)
class RunRules:
    min: int = param("fewest cards in a run", lo=2, hi=5)
    ace: AcePlace = param("where an ace goes in a run: above the king, below the two, or either (never both)")
    joker_declaration: JokerDeclaration = param(
        "when the card a run's joker stands for must be declared: only where the meld reads more than one way, "
        "or always")
    adjacent_jokers: bool = param("two jokers may stand side by side in a run", default=True)


@dataclass(frozen=True, slots=True)
class Melds:
    set: SetRules = param("sets: cards of one rank")
    run: RunRules = param("runs: cards in sequence in one suit")


@dataclass(frozen=True, slots=True)
class Draw:
    first_play_free_upcard: bool = param("the first play of a deal may take the upcard with nothing owed")
    free_discard_first_round: bool = param("every player's first turn of a deal may take the discard with nothing "
                                           "owed")
    discard_before_opening: DiscardBeforeOpening = param(
        "what taking the discard before opening obliges: opening that turn, opening with that card, or nothing")
    taken_discard: TakenDiscard = param(
        "what a taken discard must become: nothing (kept), part of a meld or build that turn, or part of a new "
        "meld that turn")
    dealer_upcard_option: bool = param("the dealer may take the upcard before the first player plays")
    discard_after_opening: bool = param("a player who has opened may still take the discard", default=True)


@dataclass(frozen=True, slots=True)
class Opening:
    minimum: int = param("points the new melds of a player's first lay must reach at least", lo=0, hi=500)
    kalookie_exempt: bool = param("a first lay that leaves only the card to discard (a kalookie) need not reach "
                                  "the minimum")
    counts_builds: bool = param("cards laid off onto melds in the opening turn count toward the minimum")


@dataclass(frozen=True, slots=True)
class Building:
    requires_opening: bool = param("a player builds onto melds only after opening")
    max_per_run_end_per_turn: int | None = param("most cards one player adds to one end of a run in a turn "
                                                 "(null: no limit)", lo=1)
    max_per_run_per_turn: int | None = param("most cards one player adds to one run in a turn, both ends together "
                                             "(null: no limit)", lo=1)
    jokers_on_others: bool = param("a joker may be added to another player's meld", default=True)


@dataclass(frozen=True, slots=True)
class JokerReuse:
    allowed: bool = param("a joker on the table may be taken in exchange for the card it stands for")
    requires_opening: bool = param("only a player who has opened may exchange")
    run_joker_position: RunJokerPosition = param("which run jokers may be taken: any, or only those between "
                                                 "natural cards")
    set_exchange: SetExchange = param("what frees a set's joker: every missing natural added (fill), or one "
                                      "natural of a suit the set lacks")
    full_set_joker: FullSetJoker = param("a full set's joker: as set_exchange says (closed under fill), or freed "
                                         "by the last missing natural")
    released_into: ReleasedInto = param("where a freed joker must go at once: a meld or a build, or a new meld")
    move_up: bool = param("the holder of the natural a joker stands for in their own run may put it in the "
                          "joker's place and the joker on above the run's top (a swap_joker with a place)",
                          default=False)


@dataclass(frozen=True, slots=True)
class GoingOut:
    final_discard: bool = param("going out takes a final discard (always true)", const=True)


@dataclass(frozen=True, slots=True)
class Kalookie:
    penalty_multiplier: int = param("times the losers' penalty points count when a hand ends in a kalookie",
                                    lo=1, hi=4)
    payment_multiplier: int = param("times the payments count when a hand ends in a kalookie", lo=1, hi=4)
    first_down_only: bool = param("only the first player to lay, going out on that turn, makes a kalookie (the "
                                  "Jamaican bend)", default=False)


@dataclass(frozen=True, slots=True)
class Discarding:
    joker: bool = param("a joker may be discarded")
    only_jokers: OnlyJokers = param("where a joker may not be discarded, how a player holding nothing but jokers "
                                    "ends a turn: pass (no discard) or discard (one joker)", default=OnlyJokers.PASS)


@dataclass(frozen=True, slots=True)
class Calling:
    per_hand: int = param("calls out of turn a player may make in a deal (0: no calling)", lo=0, hi=20)
    penalty_cards: int = param("cards a caller whose call is allowed draws from the stock besides the discard",
                               lo=0, hi=5)


class Overcall(StrEnum):
    POINTS = "points"   # penalty points for each call beyond the limit
    BAR = "bar"         # barred from laying until every other player has laid


@dataclass(frozen=True, slots=True)
class Penalties:
    points: int = param("points a penalty costs", lo=0, hi=1000)
    infractions: tuple[str, ...] = param("the infractions a table may report for a penalty", choices=INFRACTIONS,
                                         size=(None, len(INFRACTIONS)))
    overcall: Overcall = param("the sanction of an over-call found by a challenge: penalty points, or barred from "
                               "laying until every other player has laid")


@dataclass(frozen=True, slots=True)
class ContractHand:
    """One hand of a contract game: the cards dealt and the melds its contract asks for."""
    cards: int = param("cards dealt to each player in this hand", lo=1, hi=20)
    sets: int = param("sets (3s) the contract asks for", lo=0, hi=6)
    runs: int = param("runs (4s) the contract asks for", lo=0, hi=6)


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract in place of an opening minimum: hands ``first`` to ``last`` of ``hands`` are
    played, each opening being exactly that hand's sets and runs laid at once."""
    first: int = param("the first hand played", lo=1, hi=20)
    last: int = param("the last hand played", lo=1, hi=20)
    hands: Mapping[int, ContractHand] = param("the contract of each hand, keyed by the hand's number", keys=_HANDS,
                                              size=(1, 20))
    distinct: bool = param("one player's sets are of different ranks, their runs of different suits")
    full_suit_for_runs: int | None = param("runs a complete suit stands for, where the contract asks for them "
                                           "(null: none)", lo=1, hi=6)
    later_melds: bool = param("new melds may be laid after the contract (else only tacking)")

    def hand(self, number: int) -> ContractHand:
        return self.hands[number]


@dataclass(frozen=True, slots=True)
class Warning:
    announce_at_most: int = param("a player left with this many cards or fewer after discarding must say so "
                                  "(0: never)", lo=0, hi=20)


@dataclass(frozen=True, slots=True)
class Stock:
    reshuffles: int = param("times the discard pile is turned into a new stock; the next exhaustion voids the hand",
                            lo=0, hi=5)


@dataclass(frozen=True, slots=True)
class Scoring:
    model: ScoringModel = param("how a hand is scored: penalty points to the losers, the winner collecting the "
                                "points left, or payments per card")
    per_card: int = param("units each card left in a loser's hand pays (per_card scoring)", lo=0, hi=_MONEY)
    per_joker: int = param("units each joker left in a loser's hand pays (per_card scoring)", lo=0, hi=_MONEY)


@dataclass(frozen=True, slots=True)
class Stakes:
    call_up: int = param("units each other player pays the winner of a hand", lo=0, hi=_MONEY)
    kalookie: int = param("units each other player pays the winner of a hand won with a kalookie", lo=0, hi=_MONEY)
    initial: int = param("units each player puts into the pool at the start", lo=0, hi=_MONEY)
    buy_in: int = param("units a buy-in costs, paid into the pool", lo=0, hi=_MONEY)

    def as_pairs(self) -> tuple[tuple[str, int], ...]:
        return (("call_up", self.call_up), ("kalookie", self.kalookie), ("initial", self.initial),
                ("buy_in", self.buy_in))


@dataclass(frozen=True, slots=True)
class GameRules:
    limit: int | None = param("penalty points above which a player is out (null: no limit)", lo=1, hi=100_000)
    buy_ins_max: int | None = param("buy-ins a player may make in a game (null: no limit)", lo=0, hi=10)
    buy_in_min_survivors: int = param("players still within the limit needed for a buy-in", lo=1, hi=8)
    seating_order: SeatingOrder = param("the way play and the deal go round the table")
    buy_in_moves_to_new_table: bool = param("a buy-in takes the player away to a new table (a tournament's) "
                                            "instead of back into the game")


@dataclass(frozen=True, slots=True)
class TournamentRules:
    """A tournament of tables (rules/tournament.py): how many sit at a table, how many qualifying
    tables may exist in all, how many semi-final tables there are and how many go through from each."""
    table_seats: int = param("players at a qualifying table", lo=2, hi=8)
    tables_max: int = param("most qualifying tables in all", lo=1, hi=64)
    semi_finals: int = param("semi-final tables", lo=1, hi=16)
    advance_per_semi_final: int = param("players who go through from each semi-final", lo=1, hi=8)


@dataclass(frozen=True, slots=True)
class Positions:
    counted: bool = param("a position's cards add up: the hands and the table hold what the deal, the draws and the "
                          "calls gave the seats, and the stock and the discard pile the rest of the pack (false: the "
                          "position is composed, as a puzzle or a dispute told from memory, and only the hand limit "
                          "holds)", default=True)
    hand_limit: bool = param("in a composed position too (counted false), no hand may hold more cards than the deal, the "
                             "allowed calls and the card drawn give it (false: a composed position may give a hand as "
                             "many as it needs)",
                             default=True)


@dataclass(frozen=True, slots=True)
class Rules:
    players: Players = param("how many play")
    pack: Pack = param("the cards")
    deal: Deal = param("the deal")
    values: Values = param("what cards count, in a meld and left in hand")
    melds: Melds = param("what a meld is")
    draw: Draw = param("taking the upcard and the discard")
    opening: Opening = param("a player's first lay")
    building: Building = param("adding cards to melds on the table")
    joker_reuse: JokerReuse = param("taking a joker from the table")
    going_out: GoingOut = param("going out")
    kalookie: Kalookie = param("a hand won in one lay (a kalookie)")
    warning: Warning = param("announcing the cards left")
    stock: Stock = param("the stock running out")
    scoring: Scoring = param("a hand's scoring")
    stakes: Stakes = param("the stakes")
    stake_presets: Mapping[str, Stakes] = param("named stake schemes a game may choose, by name", keys=(1, 64),
                                                size=(None, 10))
    game: GameRules = param("the game of several hands")
    tournament: TournamentRules | None = param("a tournament of tables (null: the variant has none)")
    discarding: Discarding = param("discarding", default=Discarding(joker=True))
    calling: Calling = param("calls out of turn", default=Calling(per_hand=0, penalty_cards=1))
    penalties: Penalties = param("penalties a table reports",
                                 default=Penalties(points=0, infractions=(), overcall=Overcall.POINTS))
    contract: Contract | None = param("a contract game: hands numbered, each with its contract (null: none)",
                                      default=None)
    positions: Positions = param("what the referee asks of a position it is given", default=Positions(counted=True, hand_limit=True))

    def pack_for(self, players: int) -> Pack:
        """The pack of a table of ``players``."""
        return self.pack.for_players(players)

    # DEAL_JAMAICAN_CARDS_PER_HAND: the cards dealt are the hand's row of the variant's contract table, the
    #   hand number carried by the state
    # DEAL_JAMAICAN_TWELVE_IN_FIRST_THREE_HANDS: the cards dealt are the hand's row of the variant's contract
    #   table, the hand number carried by the state
    # DEAL_BABY_SIX_SEVEN_EIGHT: the cards dealt are the hand's row of the variant's contract table, the hand
    #   number carried by the state
    # DEAL_BABY_EIGHT_EVERY_HAND: the cards dealt are the hand's row of the variant's contract table, the
    #   hand number carried by the state
    @enforces(DEAL_JAMAICAN_CARDS_PER_HAND, DEAL_JAMAICAN_TWELVE_IN_FIRST_THREE_HANDS,
              DEAL_BABY_SIX_SEVEN_EIGHT, DEAL_BABY_EIGHT_EVERY_HAND)
    def cards_for(self, players: int, hand: int = 0) -> int:
        """Cards dealt to each of ``players`` in hand number ``hand`` (a contract game's schedule;
        0 where hands are not numbered)."""
        if self.contract is not None and hand:
            return self.contract.hand(hand).cards
        return self.deal.cards_for(players)


# -- the declarations, read back (by the wire's schemas and tools/params.py) ---------------------

@dataclass(frozen=True)
class Declared:
    """One parameter as declared: its name, its type (``None`` taken out: ``nullable``), what its
    declaration says (``param``'s ``Spec``) and its default (``_NO_DEFAULT`` where it is required)."""
    name: str
    kind: Any
    nullable: bool
    meta: Spec
    default: Any

    @property
    def required(self) -> bool:
        return self.default is _NO_DEFAULT


def declared(group: type) -> list[Declared]:
    """The parameters of a group (a dataclass above), in their order."""
    hints = get_type_hints(group)
    out = []
    for f in dataclass_fields(group):
        kind, nullable = hints[f.name], False
        if get_origin(kind) in (Union, UnionType):
            present = [a for a in get_args(kind) if a is not type(None)]
            kind, nullable = present[0], len(present) < len(get_args(kind))
        default = _NO_DEFAULT if f.default is MISSING else f.default
        out.append(Declared(f.name, kind, nullable, f.metadata["spec"], default))
    return out
