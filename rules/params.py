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


# -- the typed parameters -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Players:
    min: int
    max: int


@dataclass(frozen=True, slots=True)
class Pack:
    decks: int
    jokers: int

    @property
    def size(self) -> int:
        return 52 * self.decks + self.jokers


@dataclass(frozen=True, slots=True)
class Deal:
    cards_each: int
    cards_by_players: Mapping[int, int] | None   # cards each by table size, where it depends on it
    packets: tuple[int, ...] | None              # the deal in rounds of packets (None: one at a time)
    upcard: bool
    joker_on_cut: bool

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


@dataclass(frozen=True, slots=True)
class SetRules:
    min: int
    max: int
    distinct_suits: bool
    identical_triples: bool
    all_jokers: bool


@dataclass(frozen=True, slots=True)
class RunRules:
    min: int
    ace: AcePlace
    joker_declaration: JokerDeclaration


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


@dataclass(frozen=True, slots=True)
class JokerReuse:
    allowed: bool
    requires_opening: bool
    run_joker_position: RunJokerPosition
    set_exchange: SetExchange
    full_set_joker: FullSetJoker
    released_into: ReleasedInto


@dataclass(frozen=True, slots=True)
class GoingOut:
    final_discard: bool


@dataclass(frozen=True, slots=True)
class Kalookie:
    penalty_multiplier: int
    payment_multiplier: int


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


class _CardsByPlayers(fields.Dict):
    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if value is None:
            return None
        entries: Callable[..., dict[str, int]] = super()._deserialize  # unannotated in marshmallow
        out = entries(value, attr, data, **kwargs)
        return MappingProxyType({int(k): v for k, v in out.items()})


class _Packets(fields.List[int]):
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
    pack = _group(Pack, decks=_int(1, 4), jokers=_int(0, 12))
    deal = _group(
        Deal, cards_each=_int(1, 20),
        cards_by_players=_CardsByPlayers(keys=fields.String(validate=validate.Regexp(r"^[2-8]\Z")),
                                         values=_Int(validate=validate.Range(min=1, max=20)),
                                         required=True, allow_none=True),
        packets=_Packets(_Int(validate=validate.Range(min=1, max=20)), required=True, allow_none=True,
                         validate=validate.Length(min=1, max=20)),
        upcard=_bool(), joker_on_cut=_bool())
    values = _group(Values, ace=_int(0, 100), picture=_int(0, 100), joker_in_hand=_int(0, 100),
                    low_ace_in_meld=_int(0, 100), joker_set_each=_int(0, 100))
    melds = fields.Nested(type("MeldsSchema", (_Group,), {
        "type_": Melds,
        "set": _group(SetRules, min=_int(2, 4), max=_int(3, 8), distinct_suits=_bool(),
                      identical_triples=_bool(), all_jokers=_bool()),
        "run": _group(RunRules, min=_int(2, 5), ace=_choice(AcePlace),
                      joker_declaration=_choice(JokerDeclaration)),
    }), required=True)
    draw = _group(Draw, first_play_free_upcard=_bool(), free_discard_first_round=_bool(),
                  discard_before_opening=_choice(DiscardBeforeOpening), taken_discard=_choice(TakenDiscard),
                  dealer_upcard_option=_bool())
    opening = _group(Opening, minimum=_int(0, 500), kalookie_exempt=_bool(), counts_builds=_bool())
    building = _group(Building, requires_opening=_bool(), max_per_run_end_per_turn=_int(1, None, True),
                      max_per_run_per_turn=_int(1, None, True))
    joker_reuse = _group(JokerReuse, allowed=_bool(), requires_opening=_bool(),
                         run_joker_position=_choice(RunJokerPosition), set_exchange=_choice(SetExchange),
                         full_set_joker=_choice(FullSetJoker), released_into=_choice(ReleasedInto))
    going_out = _group(GoingOut, final_discard=_Bool(required=True, validate=validate.Equal(True)))
    kalookie = _group(Kalookie, penalty_multiplier=_int(1, 4), payment_multiplier=_int(1, 4))
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
