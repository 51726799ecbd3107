"""A hand is settled once (rules/settlement.py), whoever asks: for seeded hands of every variant,
played to their end by the wire-format bot, the finished hand sent to ``POST /v1/scoresheet`` as a
one-hand sheet (the losers' cards) is settled exactly as ``POST /v1/adjudicate`` settled it -
penalties, payments, running totals and credits.  The same hand is also settled as if it had ended
in a kalookie (the multipliers), sent with its figures written down (no inconsistency), with the
figures alone in place of the cards, and with one figure changed: the inconsistency then cites a
clause of the variant's own list."""
from __future__ import annotations

import random

import pytest

from kalooki_referee.rules import action_from_dict, adjudicate, deal, load_variant, variant_ids
from kalooki_referee.rules.legal import legal_actions
from kalooki_referee.rules.wire.legal import listing_wire
from kalooki_referee.rules.settlement import SLOTS
from kalooki_referee.rules.state import State, replace
from kalooki_referee.rules.wire.verdicts import verdict_wire
from kalooki_referee.rules.wire.state import state_wire
from tests.support import bot

PLAYED = variant_ids()
HANDS_PER_VARIANT = 2   # won hands compared per variant (void hands met on the way are compared too)
MAX_DEALS = 4


def _play(variant, seed: str, players: list[str]) -> tuple[State, dict]:
    """Play a dealt hand with the bot up to its last action: (the state before it, the action)."""
    state, _ = deal(variant, players, seed)
    built: set = set()
    for _ in range(3000):
        d = state_wire(state)
        if d.get("dealer_option"):
            action = {"type": "pass"}
        elif d["phase"] == "draw":
            action, built = {"type": "draw", "source": "stock"}, set()
        elif variant.rules.contract is not None:  # a contract game: the play is chosen from the listing
            action = bot.listed_choice(listing_wire(legal_actions(variant, state))["actions"], d["players"][state.index(state.to_act)]["hand"])
        else:
            action = bot.play_phase_action(d, variant.rules.opening.minimum, built) or bot.discard_choice(d)
        verdict = adjudicate(variant, state, action_from_dict(action))
        assert verdict.legal, (action, verdict_wire(verdict)["violations"])
        if verdict.state.phase == "ended":
            return state, action
        state = verdict.state
        owed = state.announcement
        if owed:
            state = adjudicate(variant, state, action_from_dict(
                {"type": "announce", "count": owed.count, "player": owed.player})).state
    raise AssertionError("the hand did not end")


def _finished_hands(variant_id: str):
    """Seeded finished hands of the variant: (the state before the last action, the action)."""
    variant = load_variant(variant_id)
    rng = random.Random(f"settlement-{variant_id}")
    won = 0
    for n in range(MAX_DEALS):
        count = rng.randint(variant.rules.players.min, min(variant.rules.players.max, 5))
        before, action = _play(variant, f"settle-{variant_id}-{n}", [f"P{i}" for i in range(1, count + 1)])
        yield before, action
        won += adjudicate(variant, before, action_from_dict(action)).state.result.how != "void"
        if won >= HANDS_PER_VARIANT:
            return


def _post(client, path, body):
    r = client.post(path, json=body)
    assert r.status_code == 200, (path, r.get_json())
    return r.get_json()


FIGURES = ("penalties", "payments", "scores", "credits")


def _sheet(client, variant_id, state: dict, entry: dict) -> dict:
    players = [p["id"] for p in state["players"]]
    return _post(client, "/v1/scoresheet", {"variant": variant_id, "players": players, "dealer": state["dealer"],
                                            "hands": [entry]})


def _check_one(client, variant, before: State, action: dict) -> str:
    """Adjudicate the last action over HTTP, settle the finished hand on a score sheet, compare."""
    verdict = _post(client, "/v1/adjudicate", {"variant": variant.id, "state": state_wire(before), "action": action})
    result, ended = verdict["result"], verdict["state"]
    assert result is not None
    if result["how"] == "void":
        entry: dict = {"how": "void"}
    else:
        entry = {"winner": result["winner"], "how": result["how"],
                 "hands": {p["id"]: p["hand"] for p in ended["players"] if p["id"] != result["winner"]}}
        game = variant.rules.game
        over = [pid for pid, score in result["scores"].items() if game.limit is not None and score > game.limit]
        if over and len(result["scores"]) - len(over) >= game.buy_in_min_survivors and game.buy_ins_max != 0:
            entry["buy_ins"] = {pid: False for pid in over}  # whoever is over the limit declines to buy in
    answer = _sheet(client, variant.id, ended, entry)
    assert answer["inconsistency"] is None, answer["inconsistency"]
    row = answer["rows"][0]
    for figure in FIGURES:
        assert row.get(figure) == result.get(figure), (figure, row, result)
    assert row["ledger"] == result["payments"]
    if result["how"] == "void":
        return "void"

    # the figures written down as the rules give them: consistent, with the cards and without them
    written = {k: result[k] for k in FIGURES if k in result}
    assert _sheet(client, variant.id, ended, {**entry, **written})["inconsistency"] is None
    alone = _sheet(client, variant.id, ended, {k: v for k, v in {**entry, **written}.items() if k != "hands"})
    assert alone["inconsistency"] is None, alone["inconsistency"]
    assert {k: alone["rows"][0].get(k) for k in FIGURES} == {k: result.get(k) for k in FIGURES}

    # one figure changed: the inconsistency cites a clause this variant lists
    winner = result["winner"]
    loser = next(pid for pid in result["payments"] if pid != winner)
    changes = [("payments", {**result["payments"], winner: result["payments"][winner] + 1,
                             loser: result["payments"][loser] - 1}),
               ("penalties", {**result["penalties"], loser: result["penalties"][loser] + 1}),
               ("credits", {**result.get("credits", {}), winner: result.get("credits", {}).get(winner, 0) + 1})]
    for figure, changed in changes:
        wrong = _sheet(client, variant.id, ended, {**entry, figure: changed})["inconsistency"]
        assert wrong is not None, figure
        assert wrong["pointer"].startswith(f"/hands/0/{figure}/"), (figure, wrong)
        assert wrong["clause"] in variant.clauses, (figure, wrong["clause"])
    return result["how"]


@pytest.mark.parametrize("variant_id", PLAYED)
def test_score_sheet_settles_a_finished_hand_as_adjudicate_does(client, variant_id):
    variant = load_variant(variant_id)
    seen = []
    for before, action in _finished_hands(variant_id):
        seen.append(_check_one(client, variant, before, action))
        if before.phase == "play" and action["type"] == "discard":
            # the same cards, as if the winner had laid the whole hand in this turn: a kalookie
            as_kalookie = replace(before, turn=replace(before.turn, opened_this_turn=True))
            verdict = adjudicate(variant, as_kalookie, action_from_dict(action))
            if verdict.legal and verdict.state.result.how == "kalookie":
                seen.append(_check_one(client, variant, as_kalookie, action))
    assert sum(how != "void" for how in seen) >= HANDS_PER_VARIANT, seen


@pytest.mark.parametrize("variant_id", PLAYED)
def test_every_settlement_rule_cites_a_clause_of_the_variant(variant_id):
    variant = load_variant(variant_id)
    for slot in SLOTS:
        assert variant.cite(slot) in variant.clauses, slot
