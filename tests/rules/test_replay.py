"""POST /v1/replay: a recorded log replayed step by step, the first illegal step found, the hash chain
recomputed and an altered record caught at the right step; bad logs get a verdict or a 422."""
from __future__ import annotations

import hashlib

import pytest
import rfc8785

from tests.support import bot

PLAYERS = ["P1", "P2", "P3", "P4"]


def families(client):
    seen = {}
    for v in client.get("/v1/variants").get_json()["variants"]:
        seen.setdefault(v["family"], v["id"])
    return sorted(seen.values())


def record_hand(client, variant, seed):
    """A log of a whole hand played by the bot, as a list of actions, and the final verdict."""
    params = client.get(f"/v1/variants/{variant}").get_json()["parameters"]
    minimum = params["opening"]["minimum"]
    state = client.post("/v1/deal", json={"variant": variant, "players": PLAYERS, "seed": seed}).get_json()["state"]
    actions, built = [], set()
    while state["phase"] != "ended":
        if state.get("dealer_option"):
            action = {"type": "pass"}  # the dealer declines the upcard option
        elif state["phase"] == "draw":
            action, built = {"type": "draw", "source": "stock"}, set()
        elif params.get("contract"):  # a contract game: the play is chosen from the listing
            listed = client.post("/v1/legal-actions", json={"variant": variant, "state": state}).get_json()["actions"]
            action = bot.listed_choice(listed, next(p["hand"] for p in state["players"] if p["id"] == state["to_act"]))
        else:
            action = bot.play_phase_action(state, minimum, built) or bot.discard_choice(state)
        verdict = client.post("/v1/adjudicate", json={"variant": variant, "state": state, "action": action}).get_json()
        assert verdict["legal"], verdict["violations"]
        actions.append(action)
        state = verdict["state"]
        owed = state.get("announcement")
        if owed and state["phase"] != "ended":
            action = {"type": "announce", "count": owed["count"], "player": owed["player"]}
            state = client.post("/v1/adjudicate", json={"variant": variant, "state": state, "action": action}).get_json()["state"]
            actions.append(action)
    return actions, state


def replay(client, variant, actions, **extra):
    body = {"variant": variant, "start": {"deal": {"players": PLAYERS, "seed": "log-1"}}, "actions": actions, **extra}
    return client.post("/v1/replay", json=body)


@pytest.fixture(scope="module")
def logs():
    from kalooki_referee.api import create_app
    client = create_app({"TESTING": True}).test_client()
    return {v: record_hand(client, v, "log-1") for v in families(client)}


def test_a_clean_log_replays_to_the_same_end(client, logs):
    for variant, (actions, final) in logs.items():
        body = replay(client, variant, actions).get_json()
        assert body["first_illegal"] is None and body["altered"] is None
        assert len(body["steps"]) == len(actions)
        assert body["final"]["position"] == final
        assert body["final"]["result"] == final["result"]


def test_the_hash_chain_is_sha256_over_rfc8785_chained(client, logs):
    variant, (actions, _) = next(iter(logs.items()))
    body = replay(client, variant, actions[:6]).get_json()
    position = body["start"]["position"]
    h = hashlib.sha256(rfc8785.dumps(position)).hexdigest()
    assert body["start"]["hash"] == h
    for i, action in enumerate(actions[:6]):
        position = client.post("/v1/adjudicate", json={"variant": variant, "state": position,
                                                        "action": action}).get_json()["state"]
        h = hashlib.sha256(h.encode("ascii") + rfc8785.dumps(position)).hexdigest()
        assert body["steps"][i]["hash"] == h


@pytest.mark.parametrize("k", [0, 7, 25])
def test_the_first_illegal_step_is_found(client, logs, k):
    for variant, (actions, _) in logs.items():
        clean = replay(client, variant, actions).get_json()
        k = min(k, len(actions) - 1)
        bad = list(actions)
        # an announcement nobody owes (and no one can hold nine cards "left" after a discard)
        bad.insert(k, {"type": "announce", "count": 9})
        body = replay(client, variant, bad).get_json()
        assert body["final"] is None
        assert body["first_illegal"]["index"] == k
        assert body["first_illegal"]["violations"][0]["clause"]
        assert body["first_illegal"]["violations"][0]["sources"]
        assert body["first_illegal"]["explanation"]
        expected_before = clean["steps"][k - 1]["hash"] if k else clean["start"]["hash"]
        assert body["first_illegal"]["hash_before"] == expected_before
        assert len(body["steps"]) == k


def test_a_step_for_a_player_not_to_act_is_an_illegal_step(client, logs):
    variant, (actions, _) = next(iter(logs.items()))
    bad = [{"type": "draw", "source": "stock", "player": "P3"}] + actions
    body = replay(client, variant, bad).get_json()
    assert body["first_illegal"]["index"] == 0
    assert body["first_illegal"]["violations"][0]["clause"] == "turn.left_of_dealer_starts_clockwise"


@pytest.mark.parametrize("k", [0, 5, 30])
def test_an_altered_hash_is_caught_at_its_step(client, logs, k):
    variant, (actions, _) = next(iter(logs.items()))
    hashes = [s["hash"] for s in replay(client, variant, actions).get_json()["steps"]]
    k = min(k, len(hashes) - 1)
    forged = list(hashes)
    forged[k] = hashlib.sha256(b"forged").hexdigest()
    body = replay(client, variant, actions, hashes=forged).get_json()
    assert body["altered"]["index"] == k and body["altered"]["at"] == f"/hashes/{k}"
    assert body["altered"]["recorded"] == forged[k] and body["altered"]["computed"] == hashes[k]
    assert replay(client, variant, actions, hashes=hashes).get_json()["altered"] is None


def test_an_altered_action_is_caught_by_the_recorded_hashes(client, logs):
    variant, (actions, _) = next(iter(logs.items()))
    hashes = [s["hash"] for s in replay(client, variant, actions).get_json()["steps"]]
    changed = [{"type": "draw", "source": "discard"}] + actions[1:]  # the first play may take the upcard
    body = replay(client, variant, changed, hashes=hashes).get_json()
    assert body["altered"]["index"] == 0


def test_an_altered_start_is_caught(client, logs):
    variant, (actions, _) = next(iter(logs.items()))
    body = replay(client, variant, actions[:3], start_hash="0" * 64).get_json()
    assert body["altered"]["at"] == "/start_hash" and body["altered"]["index"] is None


def test_a_log_cut_short_mid_turn_replays_to_where_it_stops(client, logs):
    variant, (actions, _) = next(iter(logs.items()))
    body = replay(client, variant, actions[:1]).get_json()
    assert body["first_illegal"] is None and body["final"]["position"]["phase"] == "play"
    assert body["final"]["result"] is None


@pytest.mark.parametrize("log, pointer", [
    ([{"type": "draw", "source": "stock"}, {"type": "fly"}], "/actions/1"),
    ([{"type": "discard"}], "/actions/0/card"),
    ([{"type": "discard", "card": "QX"}], "/actions/0/card"),
])
def test_malformed_logs_are_422_with_a_pointer(client, log, pointer):
    r = replay(client, "british", log)
    assert r.status_code == 422
    assert any(e["pointer"].startswith(pointer) for e in r.get_json()["errors"])


def test_more_hashes_than_steps_is_a_truncated_log(client, logs):
    variant, (actions, _) = next(iter(logs.items()))
    r = replay(client, variant, actions[:2], hashes=["a" * 64] * 3)
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/hashes/2"


def test_a_truncated_json_log_is_a_400(client):
    r = client.post("/v1/replay", data='{"variant": "british", "start": {"deal": {"players": ["a", "b"], "seed": 1}}, "actions": [{"ty',
                    content_type="application/json")
    assert r.status_code == 400


def test_a_whole_game_replays_from_the_seating_draw(client):
    start = {"new_game": {"players": PLAYERS, "seed": "g-log", "stakes": "casino"}}
    first = client.post("/v1/replay", json={"variant": "british", "start": start, "actions": []}).get_json()
    game = first["start"]["position"]
    assert first["kind"] == "game" and game["phase"] == "hand"
    to_act = game["hand"]["to_act"]
    actions = [{"type": "draw", "source": "stock"}, {"type": "next_hand", "seed": 2}]
    body = client.post("/v1/replay", json={"variant": "british", "start": start, "actions": actions}).get_json()
    assert body["first_illegal"]["index"] == 1
    assert body["first_illegal"]["position_before"]["hand"]["turn"]["source"] == "stock"
    assert body["first_illegal"]["position_before"]["hand"]["to_act"] == to_act


# The fast canonical writer agrees with the rfc8785 library on every document of the kinds a
# position holds (strings of any characters, integers, booleans, null, lists and objects).
from hypothesis import given, settings, strategies as st  # noqa: E402

from kalooki_referee.rules.wire.replay import canonical  # noqa: E402

_json_docs = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_json_docs)
def test_canonical_json_is_rfc8785(doc):
    assert canonical(doc) == rfc8785.dumps(doc)


@pytest.mark.parametrize("stakes", ["casino!", 5, [1], None])
def test_house_rule_stakes_of_the_wrong_shape_are_422_in_a_game_replay(client, stakes):
    game = client.post("/v1/games", json={"variant": "british", "players": ["a", "b"], "seed": 1}).get_json()["game"]
    r = client.post("/v1/replay", json={"variant": "british", "rules": {"stakes": stakes}, "start": {"game": game},
                                        "actions": [{"type": "draw", "source": "stock"}]})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/rules/stakes"


def test_changed_stakes_in_a_game_replay_are_an_illegal_step(client):
    game = client.post("/v1/games", json={"variant": "british", "players": ["a", "b"], "seed": 1}).get_json()["game"]
    r = client.post("/v1/replay", json={"variant": "british", "rules": {"stakes": {"call_up": 1, "kalookie": 5, "initial": 5, "buy_in": 5}},
                                        "start": {"game": game}, "actions": [{"type": "draw", "source": "stock"}]})
    assert r.get_json()["first_illegal"]["violations"][0]["clause"] == "stakes.agreed_in_advance"
