"""A complete British hand played action by action over HTTP: POST /v1/deal, then every draw,
meld, build, discard and announcement as its own POST /v1/adjudicate, feeding each verdict's state
into the next request, until a player calls up.  The test computes the penalties and payments
itself from the cards left in the losers' hands (A 11, K Q J 10 worth 10, pips face value,
joker 15; each loser pays the winner the call-up stake) and compares them with the result."""
from __future__ import annotations

from collections import Counter

from tests.support import bot

PLAYERS = ["North", "East", "South", "West"]
CALL_UP_STAKE = 1  # the casino scheme, the British default


def adjudicate(client, state, action):
    r = client.post("/v1/adjudicate", json={"variant": "british", "state": state, "action": action})
    assert r.status_code == 200, r.get_json()
    verdict = r.get_json()
    assert verdict["legal"], (action, verdict["violations"])
    return verdict


def cards_in(state) -> Counter:
    seen = Counter(state["stock"]) + Counter(state["discard"])
    for p in state["players"]:
        seen.update(p["hand"])
    for m in state["melds"]:
        seen.update("JK" if c.startswith("JK") else c for c in m["cards"])
    return seen


def play_hand(client, seed: str, max_actions: int = 2000):
    r = client.post("/v1/deal", json={"variant": "british", "players": PLAYERS, "seed": seed})
    assert r.status_code == 200
    state = r.get_json()["state"]
    pack = cards_in(state)
    assert sum(pack.values()) == 106
    log = []
    for _ in range(max_actions):
        if state["phase"] == "ended":
            return state, log
        if state["phase"] == "draw":
            action = {"type": "draw", "source": "stock"}
            built: set = set()
        else:
            action = bot.play_phase_action(state, 40, built) or bot.discard_choice(state)
        actor = state["to_act"]
        verdict = adjudicate(client, state, action)
        log.append((actor, action, verdict["events"]))
        state = verdict["state"]
        assert cards_in(state) == pack  # every card conserved after every step
        owed = state.get("announcement")
        if owed and state["phase"] != "ended":
            verdict = adjudicate(client, state, {"type": "announce", "count": owed["count"],
                                                 "player": owed["player"]})
            log.append((owed["player"], "announce", verdict["events"]))
            state = verdict["state"]
    raise AssertionError(f"seed {seed}: the hand did not end in {max_actions} actions")


def test_a_whole_hand_from_the_deal_to_a_call_up(client):
    for n in range(40):
        state, log = play_hand(client, f"full-hand-{n}")
        if state["result"]["how"] == "call_up":
            break
    else:
        raise AssertionError("no seed led to a call-up")
    result = state["result"]
    winner = result["winner"]
    last_actor, last_action, events = log[-1]
    assert last_actor == winner and last_action["type"] == "discard"
    assert any(e["type"] == "call_up" for e in events)
    winner_seat = next(p for p in state["players"] if p["id"] == winner)
    assert winner_seat["hand"] == []
    expected_penalties = {p["id"]: sum(bot.hand_value(c) for c in p["hand"])
                          for p in state["players"] if p["id"] != winner}
    for pid, penalty in expected_penalties.items():
        assert result["penalties"][pid] == penalty
    assert result["penalties"].get(winner, 0) == 0
    assert result["payments"] == {**{pid: -CALL_UP_STAKE for pid in expected_penalties},
                                  winner: CALL_UP_STAKE * len(expected_penalties)}
    assert sum(result["payments"].values()) == 0
    assert {p["id"]: p["score"] for p in state["players"]} == {**expected_penalties, winner: 0}
    # the hand really was played: openings, melds and discards by several players
    kinds = Counter(e["type"] for _, _, evs in log for e in evs)
    assert kinds["discarded"] > 8 and kinds["opened"] >= 2
