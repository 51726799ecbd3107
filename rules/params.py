"""A variant's parameters as one typed, frozen value: ``Rules``.

marshmallow does the one job it is made for here: it turns a variant file's ``parameters`` block
(with any house rules merged over it) into ``Rules``, refusing an unknown key or a value of the
wrong type or range with the path of the field.  The engine then reads ``rules.draw.taken_discard``
rather than string paths, so a misspelt parameter is an attribute error caught by mypy, not a
``KeyError`` at run time.  Choices are ``StrEnum`` members: they compare equal to their wire
strings and serialise as them.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate

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

# -- the typed parameters -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Players:
    min: int
    max: int


@dataclass(frozen=True, slots=True)
class PackSize:
    decks: int
    jokers: int


@dataclass(frozen=True, slots=True)
class Pack:
    decks: int
    jokers: int
    by_players: Mapping[int, PackSize] | None = None   # another pack at a table of that many players

    @property
    def size(self) -> int:
        return 52 * self.decks + self.jokers

    def for_players(self, players: int) -> "Pack":
        """The pack a table of ``players`` plays with (``by_players``, else ``decks`` and ``jokers``)."""
        other = self.by_players.get(players) if self.by_players is not None else None
        return self if other is None else Pack(other.decks, other.jokers)


@dataclass(frozen=True, slots=True)
class Deal:
    cards_each: int
    cards_by_players: Mapping[int, int] | None   # cards each by table size, where it depends on it
    packets: tuple[int, ...] | None              # the deal in rounds of packets (None: one at a time)
    upcard: bool
    joker_on_cut: bool
    dealer_cut_bonus: int | None = None          # points to a dealer whose cut is exactly the cards dealt

    def cards_for(self, players: int) -> int:
        """Cards dealt to each player at a table of ``players``."""
        if self.cards_by_players is not None and players in self.cards_by_players:
            return self.cards_by_players[players]
        return self.cards_each


@dataclass(frozen=True, slots=True)
class Values:
    ace: int
    picture: int
    joker_in_hand: int
    low_ace_in_meld: int
    joker_set_each: int
    red_ace: int | None = None   # a red ace (AH, AD) left in hand, where it differs from ``ace``


@dataclass(frozen=True, slots=True)
class SetRules:
    min: int
    max: int
    distinct_suits: bool
    identical_triples: bool
    all_jokers: bool
    min_naturals: int = 1        # natural cards a set needs at least (with ``all_jokers``: none)


@dataclass(frozen=True, slots=True)
class RunRules:
    min: int
    ace: AcePlace
    joker_declaration: JokerDeclaration
    adjacent_jokers: bool = True   # two jokers may stand side by side in a run


@dataclass(frozen=True, slots=True)
class Melds:
    set: SetRules
    run: RunRules


@dataclass(frozen=True, slots=True)
class Draw:
    first_play_free_upcard: bool
    free_discard_first_round: bool
    discard_before_opening: DiscardBeforeOpening
    taken_discard: TakenDiscard
    dealer_upcard_option: bool
    discard_after_opening: bool = True   # a player who has opened may still take the discard


@dataclass(frozen=True, slots=True)
class Opening:
    minimum: int
    kalookie_exempt: bool
    counts_builds: bool


@dataclass(frozen=True, slots=True)
class Building:
    requires_opening: bool
    max_per_run_end_per_turn: int | None
    max_per_run_per_turn: int | None
    jokers_on_others: bool = True   # a joker may be added to another player's meld


@dataclass(frozen=True, slots=True)
class JokerReuse:
    allowed: bool
    requires_opening: bool
    run_joker_position: RunJokerPosition
    set_exchange: SetExchange
    full_set_joker: FullSetJoker
    released_into: ReleasedInto
    move_up: bool = False   # a joker in one's own run may be moved up by the holder of its natural


@dataclass(frozen=True, slots=True)
class GoingOut:
    final_discard: bool


@dataclass(frozen=True, slots=True)
class Kalookie:
    penalty_multiplier: int
    payment_multiplier: int
    first_down_only: bool = False   # only the first player to lay, going out on that turn (the bend)


@dataclass(frozen=True, slots=True)
class Discarding:
    joker: bool = True   # a joker may be discarded


@dataclass(frozen=True, slots=True)
class Calling:
    per_hand: int = 0        # calls out of turn a player may make in a deal (0: no calling)
    penalty_cards: int = 1   # cards a caller whose call is allowed draws from the stock besides the discard


class Overcall(StrEnum):
    POINTS = "points"   # penalty points for each call beyond the limit
    BAR = "bar"         # barred from laying until every other player has laid


@dataclass(frozen=True, slots=True)
class Penalties:
    points: int = 0                               # points a penalty costs
    infractions: tuple[str, ...] = ()             # infractions a table may report for a penalty
    overcall: Overcall = Overcall.POINTS          # the sanction of an over-call found by a challenge


@dataclass(frozen=True, slots=True)
class ContractHand:
    """One hand of a contract game: the cards dealt and the melds its contract asks for."""
    cards: int
    sets: int
    runs: int


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract in place of an opening minimum: hands ``first`` to ``last`` of ``hands`` are
    played, each opening being exactly that hand's sets and runs laid at once."""
    first: int
    last: int
    hands: Mapping[int, ContractHand]
    distinct: bool                    # one player's sets are of different ranks, their runs of different suits
    full_suit_for_runs: int | None    # a complete suit stands for this many runs, where the contract asks for them
    later_melds: bool                 # new melds may be laid after the contract (else only tacking)

    def hand(self, number: int) -> ContractHand:
        return self.hands[number]


@dataclass(frozen=True, slots=True)
class Warning:
    announce_at_most: int


@dataclass(frozen=True, slots=True)
class Stock:
    reshuffles: int


@dataclass(frozen=True, slots=True)
class Scoring:
    model: ScoringModel
    per_card: int
    per_joker: int


@dataclass(frozen=True, slots=True)
class Stakes:
    call_up: int
    kalookie: int
    initial: int
    buy_in: int

    def as_pairs(self) -> tuple[tuple[str, int], ...]:
        return (("call_up", self.call_up), ("kalookie", self.kalookie), ("initial", self.initial),
                ("buy_in", self.buy_in))


@dataclass(frozen=True, slots=True)
class GameRules:
    limit: int | None
    buy_ins_max: int | None
    buy_in_min_survivors: int
    seating_order: SeatingOrder
    buy_in_moves_to_new_table: bool   # a buy-in takes the player away to a new table (a tournament's)


@dataclass(frozen=True, slots=True)
class TournamentRules:
    """A tournament of tables (rules/tournament.py): how many sit at a table, how many qualifying
    tables may exist in all, how many semi-final tables there are and how many go through from each."""
    table_seats: int
    tables_max: int
    semi_finals: int
    advance_per_semi_final: int


@dataclass(frozen=True, slots=True)
class Rules:
    players: Players
    pack: Pack
    deal: Deal
    values: Values
    melds: Melds
    draw: Draw
    opening: Opening
    building: Building
    joker_reuse: JokerReuse
    going_out: GoingOut
    kalookie: Kalookie
    warning: Warning
    stock: Stock
    scoring: Scoring
    stakes: Stakes
    stake_presets: Mapping[str, Stakes]
    game: GameRules
    tournament: TournamentRules | None   # None: the variant has no tournament format
    discarding: Discarding = Discarding()
    calling: Calling = Calling()
    penalties: Penalties = Penalties()
    contract: Contract | None = None    # a contract game (hands numbered, each with its contract)

    def pack_for(self, players: int) -> Pack:
        """The pack of a table of ``players``."""
        return self.pack.for_players(players)

    def cards_for(self, players: int, hand: int = 0) -> int:
        """Cards dealt to each of ``players`` in hand number ``hand`` (a contract game's schedule;
        0 where hands are not numbered)."""
        if self.contract is not None and hand:
            return self.contract.hand(hand).cards
        return self.deal.cards_for(players)


# -- marshmallow schemas: the parameters' shape, loaded into the types above --------------------

class _Int(fields.Integer):
    """An integer; JSON's 2.0 is the integer 2, a boolean is not a number."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            raise self.make_error("invalid")
        return int(value)


class _Bool(fields.Boolean):
    """true or false only (no "yes", no 1)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


def _int(lo: int, hi: int | None = None, allow_none: bool = False) -> fields.Integer:
    return _Int(required=True, allow_none=allow_none, validate=validate.Range(min=lo, max=hi))


def _bool() -> fields.Boolean:
    return _Bool(required=True)


def _choice(enum: type[StrEnum]) -> fields.Enum[StrEnum]:
    return fields.Enum(enum, by_value=True, required=True)


class _Group(Schema):
    class Meta:
        unknown = RAISE

    type_: type = object

    @post_load
    def _build(self, data: dict[str, Any], **_: Any) -> Any:
        return self.type_(**data)


def _group(type_: type, **spec: fields.Field[Any]) -> fields.Nested:
    schema = type(type_.__name__ + "Schema", (_Group,), {"type_": type_, **spec})
    return fields.Nested(schema, required=True)


def _optional(default: Any = None, **spec: Any) -> dict[str, Any]:
    """A field a variant file may leave out (then ``default``): the later parameters, so that the
    files written before them read as before."""
    return dict(required=False, load_default=default, **spec)


class _ByNumber(fields.Dict):
    """A table keyed by a number written as a string ("5": ...): read with integer keys."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if value is None:
            return None
        entries: Callable[..., dict[str, Any]] = super()._deserialize  # unannotated in marshmallow
        out = entries(value, attr, data, **kwargs)
        return MappingProxyType({int(k): v for k, v in out.items()})


class _Packets(fields.List[int]):
    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        return tuple(super()._deserialize(value, attr, data, **kwargs))


class _Names(fields.List[str]):
    """A list of names, read as a tuple."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        return tuple(super()._deserialize(value, attr, data, **kwargs))


_STAKES = dict(call_up=_int(0, 1_000_000), kalookie=_int(0, 1_000_000), initial=_int(0, 1_000_000),
               buy_in=_int(0, 1_000_000))
StakesSchema = type("StakesSchema", (_Group,), {"type_": Stakes, **_STAKES})


class _Presets(fields.Dict):
    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        presets: Callable[..., dict[str, Stakes]] = super()._deserialize  # unannotated in marshmallow
        return MappingProxyType(dict(presets(value, attr, data, **kwargs)))


class RulesSchema(_Group):
    type_ = Rules
    players = _group(Players, min=_int(2, 8), max=_int(2, 8))
    pack = _group(Pack, decks=_int(1, 4), jokers=_int(0, 12),
                  by_players=_ByNumber(keys=fields.String(validate=validate.Regexp(r"^[2-8]\Z")),
                                       values=fields.Nested(type("PackSizeSchema", (_Group,), {
                                           "type_": PackSize, "decks": _int(1, 4), "jokers": _int(0, 12)})),
                                       **_optional(allow_none=True)))
    deal = _group(
        Deal, cards_each=_int(1, 20),
        cards_by_players=_ByNumber(keys=fields.String(validate=validate.Regexp(r"^[2-8]\Z")),
                                         values=_Int(validate=validate.Range(min=1, max=20)),
                                         required=True, allow_none=True),
        packets=_Packets(_Int(validate=validate.Range(min=1, max=20)), required=True, allow_none=True,
                         validate=validate.Length(min=1, max=20)),
        upcard=_bool(), joker_on_cut=_bool(),
        dealer_cut_bonus=_Int(validate=validate.Range(min=-1000, max=1000), **_optional(allow_none=True)))
    values = _group(Values, ace=_int(0, 100), picture=_int(0, 100), joker_in_hand=_int(0, 100),
                    low_ace_in_meld=_int(0, 100), joker_set_each=_int(0, 100),
                    red_ace=_Int(validate=validate.Range(min=0, max=100), **_optional(allow_none=True)))
    melds = fields.Nested(type("MeldsSchema", (_Group,), {
        "type_": Melds,
        "set": _group(SetRules, min=_int(2, 4), max=_int(3, 30), distinct_suits=_bool(),
                      identical_triples=_bool(), all_jokers=_bool(),
                      min_naturals=_Int(validate=validate.Range(min=1, max=4), **_optional(1))),
        "run": _group(RunRules, min=_int(2, 5), ace=_choice(AcePlace),
                      joker_declaration=_choice(JokerDeclaration),
                      adjacent_jokers=_Bool(**_optional(True))),
    }), required=True)
    draw = _group(Draw, first_play_free_upcard=_bool(), free_discard_first_round=_bool(),
                  discard_before_opening=_choice(DiscardBeforeOpening), taken_discard=_choice(TakenDiscard),
                  dealer_upcard_option=_bool(), discard_after_opening=_Bool(**_optional(True)))
    opening = _group(Opening, minimum=_int(0, 500), kalookie_exempt=_bool(), counts_builds=_bool())
    building = _group(Building, requires_opening=_bool(), max_per_run_end_per_turn=_int(1, None, True),
                      max_per_run_per_turn=_int(1, None, True), jokers_on_others=_Bool(**_optional(True)))
    joker_reuse = _group(JokerReuse, allowed=_bool(), requires_opening=_bool(),
                         run_joker_position=_choice(RunJokerPosition), set_exchange=_choice(SetExchange),
                         full_set_joker=_choice(FullSetJoker), released_into=_choice(ReleasedInto),
                         move_up=_Bool(**_optional(False)))
    going_out = _group(GoingOut, final_discard=_Bool(required=True, validate=validate.Equal(True)))
    kalookie = _group(Kalookie, penalty_multiplier=_int(1, 4), payment_multiplier=_int(1, 4),
                      first_down_only=_Bool(**_optional(False)))
    warning = _group(Warning, announce_at_most=_int(0, 20))
    stock = _group(Stock, reshuffles=_int(0, 5))
    scoring = _group(Scoring, model=_choice(ScoringModel), per_card=_int(0, 1_000_000),
                     per_joker=_int(0, 1_000_000))
    stakes = fields.Nested(StakesSchema, required=True)
    stake_presets = _Presets(keys=fields.String(validate=validate.Length(min=1, max=64)),
                             values=fields.Nested(StakesSchema), required=True,
                             validate=validate.Length(max=10))
    game = _group(GameRules, limit=_int(1, 100_000, True), buy_ins_max=_int(0, 10, True),
                  buy_in_min_survivors=_int(1, 8), seating_order=_choice(SeatingOrder),
                  buy_in_moves_to_new_table=_bool())
    tournament = fields.Nested(type("TournamentRulesSchema", (_Group,), {
        "type_": TournamentRules, "table_seats": _int(2, 8), "tables_max": _int(1, 64),
        "semi_finals": _int(1, 16), "advance_per_semi_final": _int(1, 8),
    }), required=True, allow_none=True)
    discarding = fields.Nested(type("DiscardingSchema", (_Group,), {"type_": Discarding, "joker": _bool()}),
                               **_optional(Discarding()))
    calling = fields.Nested(type("CallingSchema", (_Group,), {"type_": Calling, "per_hand": _int(0, 20),
                                                             "penalty_cards": _int(0, 5)}),
                            **_optional(Calling()))
    penalties = fields.Nested(type("PenaltiesSchema", (_Group,), {
        "type_": Penalties, "points": _int(0, 1000),
        "infractions": _Names(fields.String(validate=validate.OneOf(INFRACTIONS)), required=True,
                                validate=validate.Length(max=len(INFRACTIONS))),
        "overcall": _choice(Overcall)}), **_optional(Penalties()))
    contract = fields.Nested(type("ContractSchema", (_Group,), {
        "type_": Contract, "first": _int(1, 20), "last": _int(1, 20),
        "hands": _ByNumber(keys=fields.String(validate=validate.Regexp(r"^([1-9]|1[0-9]|20)\Z")),
                           values=fields.Nested(type("ContractHandSchema", (_Group,), {
                               "type_": ContractHand, "cards": _int(1, 20), "sets": _int(0, 6),
                               "runs": _int(0, 6)})),
                           required=True, validate=validate.Length(min=1, max=20)),
        "distinct": _bool(), "full_suit_for_runs": _int(1, 6, True), "later_melds": _bool(),
    }), **_optional(allow_none=True))


RULES_SCHEMA = RulesSchema()


def load_rules(params: Mapping[str, Any]) -> tuple[Rules | None, list[tuple[tuple[str, ...], str]]]:
    """``params`` as ``Rules``, or the problems found: (path of the field, what is wrong)."""
    try:
        return RULES_SCHEMA.load(params), []
    except ValidationError as exc:
        return None, list(_walk(exc.messages, ()))


def _walk(messages: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key in ("key", "value", "_schema") and path:  # a mapping's entry; a whole object
                yield from _walk(value, path)
            else:
                yield from _walk(value, path + (str(key),))
    else:
        for m in (messages if isinstance(messages, list) else [messages]):
            if isinstance(m, (dict, list)):
                yield from _walk(m, path)
            else:
                yield path, str(m)
