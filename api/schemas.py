"""Marshmallow schemas: they turn a request that already matches ``openapi.yaml`` into the rules
core's objects.  Domain errors keep their JSON pointers, placed under the request field."""
from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, post_load, validate

from rules import action_from_dict, load_variant, state_from_dict
from rules.errors import RefereeInputError
from rules.game import game_action_from_dict, game_from_dict


def _under(prefix: str, fn, *args):
    try:
        return fn(*args)
    except RefereeInputError as exc:
        raise exc.prefixed(prefix) from None


class _Base(Schema):
    class Meta:
        unknown = EXCLUDE  # unknown fields were already refused by the OpenAPI validation

    variant = fields.String(required=True)
    # The bodies' shapes were checked against openapi.yaml already: the large objects are taken as
    # they are (Raw), and the rules core reads them into its own value types.
    rules = fields.Raw(load_default=None, allow_none=True)

    def _variant(self, data):
        return load_variant(data["variant"], data.get("rules"))


class AdjudicateRequest(_Base):
    state = fields.Raw(load_default=None)
    game = fields.Raw(load_default=None)
    action = fields.Raw(required=True)

    @post_load
    def build(self, data, **_):
        variant = self._variant(data)
        if data.get("game") is not None:
            rules = data.get("rules") or {}
            base = load_variant(data["variant"], {k: v for k, v in rules.items() if k != "stakes"})
            return {
                "variant": base,
                "game": _under("/game", game_from_dict, data["game"], base),
                "action": _under("/action", game_action_from_dict, data["action"]),
                "stakes_override": rules.get("stakes"),
            }
        return {
            "variant": variant,
            "state": _under("/state", state_from_dict, data["state"], variant),
            "action": _under("/action", action_from_dict, data["action"]),
        }


class GameStartRequest(_Base):
    players = fields.List(fields.String(), required=True)
    seed = fields.Raw(required=True)
    stakes = fields.Raw(load_default=None)

    @post_load
    def build(self, data, **_):
        return {"variant": self._variant(data), "players": data["players"], "seed": _seed(data["seed"]),
                "stakes": data.get("stakes")}


class ScoreSheetRequest(_Base):
    players = fields.List(fields.String(), required=True)
    hands = fields.List(fields.Dict(), required=True)
    stakes = fields.Raw(load_default=None)
    dealer = fields.String(load_default=None, allow_none=True)

    @post_load
    def build(self, data, **_):
        return {"variant": self._variant(data), "players": data["players"], "hands": data["hands"],
                "stakes": data.get("stakes"), "dealer": data.get("dealer")}


def _seed(value):
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value


class DealRequest(_Base):
    players = fields.Raw(required=True)
    seed = fields.Raw(required=True)
    dealer = fields.String(load_default=None, allow_none=True)

    @post_load
    def build(self, data, **_):
        players = data["players"]
        if isinstance(players, (int, float)) and not isinstance(players, bool):
            players = [f"P{i}" for i in range(1, int(players) + 1)]
        return {"variant": self._variant(data), "players": list(players), "seed": _seed(data["seed"]),
                "dealer": data.get("dealer")}


class Declarations(Schema):
    class Meta:
        unknown = EXCLUDE

    kind = fields.String(load_default=None, validate=validate.OneOf(["set", "run"]), allow_none=True)
    jokers = fields.List(fields.String(), load_default=list)


class MeldCheckRequest(_Base):
    cards = fields.List(fields.String(), required=True)
    declarations = fields.Nested(Declarations, load_default=None, allow_none=True)

    @post_load
    def build(self, data, **_):
        return {"variant": self._variant(data), "cards": data["cards"],
                "declarations": data.get("declarations") or {"kind": None, "jokers": []}}


class ReplayRequest(_Base):
    start = fields.Dict(required=True)
    actions = fields.List(fields.Raw(), required=True)
    hashes = fields.List(fields.String(), load_default=None)
    start_hash = fields.String(load_default=None)

    @post_load
    def build(self, data, **_):
        variant = self._variant(data)  # every house rule, stakes included, is validated here
        rules = dict(data.get("rules") or {})
        stakes = None
        if "game" in data["start"] or "new_game" in data["start"]:
            stakes = rules.pop("stakes", None)  # a game's stakes were agreed when it started
        if stakes is not None:
            variant = load_variant(data["variant"], rules)
        return {"variant": variant, "start": data["start"], "actions": data["actions"],
                "hashes": data.get("hashes"), "start_hash": data.get("start_hash"), "stakes_override": stakes}


class LegalActionsRequest(_Base):
    state = fields.Dict(required=True)
    cap = fields.Integer(load_default=400, strict=False)

    @post_load
    def build(self, data, **_):
        variant = self._variant(data)
        return {"variant": variant, "state": _under("/state", state_from_dict, data["state"], variant),
                "cap": int(data.get("cap") or 400)}
