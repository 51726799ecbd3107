"""A whole four-player British game over HTTP: the seating draw (POST /v1/games), every hand played
action by action by the wire-format bot (POST /v1/adjudicate with the game), the buy-in decisions,
`next_hand` deals, until one player is left and takes the pool.  After every hand the test checks,
from its own arithmetic: each loser's penalty is the value of the cards left in hand; the hand's
payments sum to zero and are the stake of how the hand ended; the running ledger balances; the
pool is every initial stake and buy-in paid; a void hand changes nothing and the same dealer deals
again; a buy-in rejoins at the highest score among the players still within the limit."""
from __future__ import annotations

from tests.support import bot

SEATS = ["Andy", "Mark", "John", "Frank"]
LIMIT = 150


def post(client, path, body):
    r = client.post(path, json=body)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def act(client, game, action):
    verdict = post(client, "/v1/adjudicate", {"variant": "british", "game": game, "action": action})
    assert verdict["legal"], (action, verdict["violations"])
    return verdict


def play_hand(client, game):
    """Play the game's current hand to its end; the last verdict (with the finished hand)."""
    built: set = set()
    for _ in range(3000):
        state = game["hand"]
        if state["phase"] == "draw":
            action, built = {"type": "draw", "source": "stock"}, set()
        else:
            action = bot.play_phase_action(state, 40, built) or bot.discard_choice(state)
        verdict = act(client, game, action)
        game = verdict["game"]
        if verdict["result"] is not None:
            return verdict
        owed = game["hand"]["announcement"]
        if owed:
            game = act(client, game, {"type": "announce", "count": owed["count"], "player": owed["player"]})["game"]
    raise AssertionError("the hand did not end")


def test_a_whole_game_from_the_seating_draw_to_the_pool(client):
    started = post(client, "/v1/games", {"variant": "british", "players": SEATS, "seed": "whole-game-1",
                                         "stakes": "casino"})
    game = started["game"]
    seats = started["seating"]["seats"]
    assert sorted(seats) == sorted(SEATS) and game["dealer"] == seats[0]
    assert game["pool"] == 4 * 5
    stakes = game["stakes"]
    hands, voids, buy_ins = 0, 0, 0
    while game["phase"] != "over":
        before = {p["id"]: p for p in game["players"]}
        dealer = game["dealer"]
        verdict = play_hand(client, game)
        game, hand, result = verdict["game"], verdict["state"], verdict["result"]
        hands += 1
        row = game["sheet"][-1]
        assert row["hand"] == hands and sum(row["payments"].values()) == 0
        if result["how"] == "void":
            voids += 1
            assert not any(row["penalties"].values()) and not any(row["payments"].values())
            assert {p["id"]: (p["score"], p["payments"]) for p in game["players"]} == \
                   {pid: (p["score"], p["payments"]) for pid, p in before.items()}
            assert game["dealer"] == dealer  # the same dealer deals again
        else:
            winner = result["winner"]
            losers = [p for p in hand["players"] if p["id"] != winner]
            stake = stakes["kalookie" if result["how"] == "kalookie" else "call_up"]
            assert row["penalties"] == {winner: 0, **{p["id"]: sum(bot.hand_value(c) for c in p["hand"]) for p in losers}}
            assert row["payments"] == {**{p["id"]: -stake for p in losers}, winner: stake * len(losers)}
            for pid in before:  # cumulative: every player in the hand adds their penalty
                assert row["scores"][pid] == before[pid]["score"] + row["penalties"].get(pid, 0)
        # the ledger balances and the pool is what was paid into it
        assert sum(p["payments"] for p in game["players"]) == 0
        assert game["pool"] == sum(p["paid_to_pool"] for p in game["players"])
        while game["phase"] == "buy_in":
            pid = game["buy_in_queue"][0]
            p = next(q for q in game["players"] if q["id"] == pid)
            rejoin = max(q["score"] for q in game["players"] if not q["out"] and q["score"] <= LIMIT)
            if p["buy_ins"] == 0:
                game = act(client, game, {"type": "buy_in", "player": pid})["game"]
                buy_ins += 1
                after = next(q for q in game["players"] if q["id"] == pid)
                assert after["score"] == rejoin and after["buy_ins"] == 1
                assert after["paid_to_pool"] == p["paid_to_pool"] + stakes["buy_in"]
            else:
                game = act(client, game, {"type": "decline", "player": pid})["game"]
                assert next(q for q in game["players"] if q["id"] == pid)["out"]
        for p in game["players"]:
            assert p["out"] or p["score"] <= LIMIT
        if game["phase"] == "between":
            dealt = act(client, game, {"type": "next_hand", "seed": f"whole-game-1/{hands + 1}"})
            game = dealt["game"]
            assert {p["id"] for p in game["hand"]["players"]} == {p["id"] for p in game["players"] if not p["out"]}
    assert voids >= 1 and buy_ins >= 1, (voids, buy_ins)
    winner = game["winner"]
    standing = [p for p in game["players"] if not p["out"]]
    assert [p["id"] for p in standing] == [winner]
    settlement = game["sheet"][-1]["settlement"]
    assert settlement == {p["id"]: p["payments"] - p["paid_to_pool"] + (game["pool"] if p["id"] == winner else 0)
                          for p in game["players"]}
    assert sum(settlement.values()) == 0
