"""Every variant present: a hand dealt from a seed over HTTP and played action by action to its
scoring.  The test reads the variant's parameters (GET /v1/variants/{id}) and computes the result
itself: each loser's cards at the variant's values (times its kalookie multiplier after a
kalookie), each loser paying the call-up or kalookie stake; a void hand scores nothing."""
from __future__ import annotations

import pytest

from kalooki_referee.api import create_app
from tests.support import bot

PLAYERS = ["N", "E", "S", "W"]
VARIANTS = [v["id"] for v in create_app().test_client().get("/v1/variants").get_json()["variants"]]


def card_value(code: str, values: dict) -> int:
    if code == "JK":
        return values["joker_in_hand"]
    rank = code[:-1]
    if rank == "A":
        red = values.get("red_ace")  # a red ace where the variant counts it apart
        return red if red is not None and code[-1] in "HD" else values["ace"]
    return values["picture"] if rank in ("K", "Q", "J", "10") else int(rank)


def post(client, path, body):
    r = client.post(path, json=body)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def play(client, variant, params, seed):
    state = post(client, "/v1/deal", {"variant": variant, "players": PLAYERS, "seed": seed})["state"]
    built: set = set()
    for _ in range(3000):
        if state["phase"] == "ended":
            break
        if state.get("dealer_option"):
            action = {"type": "pass"}  # the dealer declines the upcard option
        elif state["phase"] == "draw":
            action, built = {"type": "draw", "source": "stock"}, set()
        elif params.get("contract"):  # a contract game: the play is chosen from the listing
            listed = post(client, "/v1/legal-actions", {"variant": variant, "state": state})["actions"]
            action = bot.listed_choice(listed, next(p["hand"] for p in state["players"] if p["id"] == state["to_act"]))
        else:
            action = bot.play_phase_action(state, params["opening"]["minimum"], built) or bot.discard_choice(state)
        verdict = post(client, "/v1/adjudicate", {"variant": variant, "state": state, "action": action})
        assert verdict["legal"], (action, verdict["violations"])
        state = verdict["state"]
        owed = state.get("announcement")
        if owed and state["phase"] != "ended":
            state = post(client, "/v1/adjudicate", {"variant": variant, "state": state,
                                                    "action": {"type": "announce", "count": owed["count"], "player": owed["player"]}})["state"]
    assert state["result"] is not None, "the hand did not end"
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hand_of_every_variant_is_played_to_its_scoring(client, variant):
    params = client.get(f"/v1/variants/{variant}").get_json()["parameters"]
    for n in range(10):  # a void hand scores nothing: play on until a hand is won
        state = play(client, variant, params, f"{variant}-hand-{n}")
        result = state["result"]
        if result["how"] != "void":
            break
        assert not any(result["penalties"].values()) and not any(result["payments"].values())
    else:
        raise AssertionError("ten void hands in a row")
    winner = result["winner"]
    kalookie = result["how"] == "kalookie"
    multiplier = params["kalookie"]["penalty_multiplier"] if kalookie else 1
    pay_multiplier = params["kalookie"]["payment_multiplier"] if kalookie else 1
    stake = params["stakes"]["kalookie" if kalookie else "call_up"]
    scoring = params["scoring"]
    losers = [p for p in state["players"] if p["id"] != winner]
    held = {p["id"]: sum(card_value(c, params["values"]) for c in p["hand"]) for p in losers}
    owed = {p["id"]: stake + pay_multiplier * sum(scoring["per_joker"] if c == "JK" else scoring["per_card"] for c in p["hand"])
            for p in losers}
    charged = multiplier if scoring["model"] == "penalty" else 0
    assert result["penalties"] == {winner: 0, **{pid: charged * v for pid, v in held.items()}}
    assert result["payments"] == {winner: sum(owed.values()), **{pid: -v for pid, v in owed.items()}}
    if scoring["model"] == "winner_collects":
        assert result["credits"] == {winner: sum(held.values()), **{pid: 0 for pid in held}}
    else:
        assert "credits" not in result
