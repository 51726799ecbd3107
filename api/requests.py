"""Requests as typed values: each body, already checked against its openapi.yaml component (see
``api.wire.decode``), is turned into the rules core's values here, once, by the wire's readers
that trust the shape (``state_from_valid``, ...).  Problems the core finds while
building them (an impossible state, an unknown variant or house rule) keep their JSON pointers,
placed under the request field they came from.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, TypeVar

from kalooki_referee.rules import Action, State, Variant, load_variant, state_from_dict
from kalooki_referee.rules.errors import MalformedInput, Problem, RefereeInputError, UnknownVariant
from kalooki_referee.rules.deal import ReportedCut
from kalooki_referee.rules.wire.actions import action_from_valid
from kalooki_referee.rules.wire.deal import cut_from_valid
from kalooki_referee.rules.game import Game, GameAction, StakesChoice
from kalooki_referee.rules.wire.notation import NotationError
from kalooki_referee.rules.scoresheet import SheetEntry
from kalooki_referee.rules.wire.notation import read as read_notation
from kalooki_referee.rules.tournament import Tournament, TournamentEvent, tournament_rules
from kalooki_referee.rules.wire.game import read_game, read_game_action, read_stakes
from kalooki_referee.rules.wire.scoresheet import read_entries
from kalooki_referee.rules.wire.state import state_from_valid
from kalooki_referee.rules.wire.tournament import read_tournament, read_tournament_event

T = TypeVar("T")


def _under(prefix: str, fn: Callable[..., T], *args: Any) -> T:
    try:
        return fn(*args)
    except RefereeInputError as exc:
        raise exc.prefixed(prefix) from None


def _variant(body: Mapping[str, Any], rules: Mapping[str, Any] | None = None) -> Variant:
    return load_variant(body["variant"], body.get("rules") if rules is None else rules)


def _seed(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@dataclass(frozen=True)
class HandRequest:
    variant: Variant
    state: State
    action: Action


@dataclass(frozen=True)
class GameRequest:
    variant: Variant                   # the house rules other than the stakes
    game: Game
    action: Action | GameAction        # a hand action, or a game action (buy_in, decline, next_hand)
    stakes_override: Mapping[str, Any] | None


def adjudicate_request(body: Mapping[str, Any]) -> HandRequest | GameRequest:
    if body.get("game") is not None:
        rules = body.get("rules") or {}
        variant = _variant(body, {k: v for k, v in rules.items() if k != "stakes"})
        return GameRequest(variant, _under("/game", read_game, body["game"], variant),
                           _under("/action", read_game_action, body["action"]), rules.get("stakes"))
    variant = _variant(body)
    return HandRequest(variant, _under("/state", state_from_valid, body["state"], variant),
                       _under("/action", action_from_valid, body["action"]))   # an object, or a move's text


@dataclass(frozen=True)
class LegalActionsRequest:
    variant: Variant
    state: State
    cap: int


def legal_actions_request(body: Mapping[str, Any]) -> LegalActionsRequest:
    variant = _variant(body)
    return LegalActionsRequest(variant, _under("/state", state_from_valid, body["state"], variant),
                               int(body.get("cap") or 400))


@dataclass(frozen=True)
class DealRequest:
    variant: Variant
    players: list[str]
    seed: Any
    dealer: str | None
    hand: int | None = None
    cut: ReportedCut | None = None


def deal_request(body: Mapping[str, Any]) -> DealRequest:
    players = body["players"]
    if isinstance(players, (int, float)) and not isinstance(players, bool):
        players = [f"P{i}" for i in range(1, int(players) + 1)]
    hand = body.get("hand")
    return DealRequest(_variant(body), list(players), _seed(body["seed"]), body.get("dealer"),
                       None if hand is None else int(hand), cut_from_valid(body.get("cut")))


@dataclass(frozen=True)
class GameStartRequest:
    variant: Variant
    players: list[str]
    seed: Any
    stakes: StakesChoice
    cut: ReportedCut | None = None


def game_start_request(body: Mapping[str, Any]) -> GameStartRequest:
    return GameStartRequest(_variant(body), list(body["players"]), _seed(body["seed"]), read_stakes(body.get("stakes")),
                            cut_from_valid(body.get("cut")))


@dataclass(frozen=True)
class ScoreSheetRequest:
    variant: Variant
    players: list[str]
    entries: list[SheetEntry]
    stakes: StakesChoice
    dealer: str | None


def score_sheet_request(body: Mapping[str, Any]) -> ScoreSheetRequest:
    return ScoreSheetRequest(_variant(body), list(body["players"]), read_entries(body["hands"]),
                             read_stakes(body.get("stakes")), body.get("dealer"))


@dataclass(frozen=True)
class MeldCheckRequest:
    variant: Variant
    cards: list[str]
    kind: str | None
    jokers: list[str]


def meld_check_request(body: Mapping[str, Any]) -> MeldCheckRequest:
    declarations = body.get("declarations") or {}
    return MeldCheckRequest(_variant(body), list(body["cards"]), declarations.get("kind"),
                            list(declarations.get("jokers") or ()))


@dataclass(frozen=True)
class ReplayRequest:
    variant: Variant
    start: Mapping[str, Any]
    actions: list[Any]
    hashes: list[str] | None
    start_hash: str | None
    stakes_override: Mapping[str, Any] | None


def replay_request(body: Mapping[str, Any]) -> ReplayRequest:
    variant = _variant(body)  # every house rule, stakes included, is validated here
    rules = dict(body.get("rules") or {})
    stakes = None
    start = body["start"]
    if "game" in start or "new_game" in start:
        stakes = rules.pop("stakes", None)  # a game's stakes were agreed when it started
    if stakes is not None:
        variant = _variant(body, rules)
    return ReplayRequest(variant, start, list(body["actions"]), body.get("hashes"), body.get("start_hash"), stakes)


@dataclass(frozen=True)
class TournamentRequest:
    variant: Variant
    tournament: Tournament
    event: TournamentEvent


def tournament_request(body: Mapping[str, Any]) -> TournamentRequest:
    variant = _variant(body)
    tournament_rules(variant)  # a variant with no tournament format: a problem at /variant
    return TournamentRequest(variant, _under("/tournament", read_tournament, body["tournament"], variant),
                             _under("/event", read_tournament_event, body["event"]))


@dataclass(frozen=True)
class ViewRequest:
    variant: Variant
    state: State
    seat: str
    salt: str | None


def view_request(body: Mapping[str, Any]) -> ViewRequest:
    """A seat's view is made from the whole position: a state with unseen cards is refused (its
    counts named), and so is a seat that is not one of its players."""
    variant = _variant(body)
    state = _under("/state", state_from_valid, body["state"], variant)
    if state.partial:
        raise MalformedInput([Problem("/state" + p, "a view is made from the whole position: list every card")
                              for p in state.hidden_pointers()])
    seat = body["seat"]
    if seat not in {p.id for p in state.players}:
        raise MalformedInput(Problem("/seat", f"{seat[:64]!r} is not a player in the state"))
    return ViewRequest(variant, state, seat, body.get("salt"))


@dataclass(frozen=True)
class NotationRequest:
    variant_id: str
    variant: Variant
    state: State


def notation_request(body: Mapping[str, Any]) -> NotationRequest:
    """A position sent as a state (``variant``, ``state``) or as its notation (``notation``, which
    names its variant); either way checked as any state, under the house rules sent.  A notation
    that does not read is refused at ``/notation``, naming the character where reading stopped."""
    if "notation" in body:
        try:
            position = read_notation(body["notation"])
        except NotationError as exc:
            raise MalformedInput(Problem("/notation", exc.problems[0].detail)) from None
        try:
            variant = load_variant(position.variant, body.get("rules"))
        except UnknownVariant as exc:  # (the notation names the variant)
            raise UnknownVariant([Problem("/notation", p.detail) for p in exc.problems]) from None
        if body.get("variant", position.variant) != position.variant:
            raise MalformedInput(Problem("/variant", f"the notation is a position of {position.variant[:64]!r}"))
        # (the state the notation reads into was not in the body the decoder checked: the reader checks it)
        return NotationRequest(position.variant, variant,
                               _under("/notation", state_from_dict, position.state, variant))
    variant = _variant(body)
    return NotationRequest(body["variant"], variant, _under("/state", state_from_valid, body["state"], variant))
