"""A whole nine-hand Jamaican game over HTTP (a real server on 127.0.0.1), from a seed: plays chosen from
`/v1/legal-actions`, with a call allowed, a call refused, a wrong challenge, a reported penalty, a
hand played out to its void (dealt again for the same contract by the same dealer) and a bend.
Every running total is computed here from the variant's own parameters, read from
`GET /v1/variants/jamaican`: the cards left in hand at their values, doubled after a bend, the
penalty points and the dealer's cut bonus."""
from __future__ import annotations

import json
import os
from urllib.request import Request, urlopen

import pytest

from kalooki_referee.api import create_app
from tests.support.helpers import card_worth as worth, serving

VARIANT = "jamaican"
PLAYERS = ["A", "B", "C"]
SEED = "nine-hands"
VOID_DEAL = 2        # the second deal is played without laying, until the stock runs out twice
STEPS = 20000


RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def ties(code: str, hand: list[str]) -> int:
    """How many cards of ``hand`` could share a 3 or a 4 with ``code`` (the player's rough sense of
    what to keep): the same rank, or the same suit within two ranks; a joker fits anything."""
    if code == "JK":
        return 99
    rank, suit = RANKS.get(code[:-1]) or int(code[:-1]), code[-1]
    n = 0
    for other in hand:
        if other == "JK":
            n += 1
            continue
        r, s = RANKS.get(other[:-1]) or int(other[:-1]), other[-1]
        n += r == rank or (s == suit and 0 < min(abs(r - rank), 13 - abs(r - rank)) <= 2)
    return n


def play_game(client, seed: str) -> dict:
    """Play the game; return what happened and what the referee answered, checking as it goes."""
    params = client.get(f"/v1/variants/{VARIANT}").get_json()["parameters"]
    points = params["penalties"]["points"]
    answer = client.post("/v1/games", json={"variant": VARIANT, "players": PLAYERS, "seed": seed}).get_json()
    game, events = answer["game"], answer["events"]
    expected = {p: 0 for p in PLAYERS}
    seen: dict[str, int] = {}
    deals = 1

    def post(action: dict) -> dict:
        nonlocal game, events
        verdict = client.post("/v1/adjudicate", json={"variant": VARIANT, "game": game, "action": action}).get_json()
        assert verdict.get("legal"), (action, verdict)
        game, events = verdict["game"], verdict["events"]
        return verdict

    def listing(state: dict) -> list[dict]:
        return client.post("/v1/legal-actions", json={"variant": VARIANT, "state": state}).get_json()["actions"]

    opened_before_turn: set[str] = set()
    takes_this_deal = 0
    for _ in range(STEPS):
        for e in events:
            if e["type"] == "penalized" and e["reason"] == "exact_cut_bonus":
                expected[e["player"]] += params["deal"]["dealer_cut_bonus"]
                seen["cut_bonus"] = seen.get("cut_bonus", 0) + 1
        if game["phase"] == "over":
            break
        if game["phase"] == "between":
            before = game["sheet"][-1]
            deals += 1
            post({"type": "next_hand", "seed": f"{seed}-deal-{deals}"})
            won = sum(1 for row in game["sheet"] if row["how"] != "void")
            assert game["hand"]["hand_number"] == params["contract"]["first"] + won
            if before["how"] == "void":  # dealt again for the same contract by the same dealer
                assert game["hand"]["dealer"] == before["dealer"]
                seen["redealt"] = seen.get("redealt", 0) + 1
            else:  # the deal passes to the left
                seats = [p["id"] for p in game["players"]]
                assert game["hand"]["dealer"] == seats[(seats.index(before["dealer"]) + 1) % len(seats)]
            opened_before_turn = set()
            takes_this_deal = 0
            continue
        state = game["hand"]
        to_act = state["to_act"]
        listed = listing(state)
        in_void_deal = deals == VOID_DEAL
        if state["phase"] == "draw":
            opened_before_turn = {p["id"] for p in state["players"] if p["opened"]}
            calls = [a for a in listed if a["type"] == "call"]
            if calls and not in_void_deal and seen.get("allowed", 0) == 0:
                post(calls[0])  # a call, then the player to act lets the caller have the card
                allow = [a for a in listing(game["hand"]) if a["type"] == "allow"]
                caller = calls[0]["player"]
                had = len(next(p for p in game["hand"]["players"] if p["id"] == caller)["hand"])
                post(allow[0])
                got = len(next(p for p in game["hand"]["players"] if p["id"] == caller)["hand"])
                assert got == had + 1 + params["calling"]["penalty_cards"]
                seen["allowed"] = 1
                continue
            takes = [a for a in listed if a["type"] == "draw" and a["source"] == "discard"]
            if calls and takes and not in_void_deal and seen.get("allowed") and not seen.get("refused"):
                post(calls[0])  # a call refused: the player to act, not down, takes the card
                post(takes[0])
                assert not game["hand"].get("calls")
                seen["refused"] = 1
                continue
        if not in_void_deal and seen.get("refused") and not seen.get("penalty"):
            post({"type": "penalty", "infraction": params["penalties"]["infractions"][0], "player": to_act})
            expected[to_act] += points
            seen["penalty"] = 1
            continue
        if not in_void_deal and seen.get("penalty") and not seen.get("challenge"):
            target = next((p for p in state["players"] if not p["opened"] and p["id"] != to_act
                           and p.get("calls", 0) <= params["calling"]["per_hand"]), None)
            if target is not None:  # a challenge of an over-call nobody made costs the challenger
                post({"type": "challenge", "target": target["id"], "claim": "overcall", "player": to_act})
                expected[to_act] += points
                seen["challenge"] = 1
                continue
        melds = [a for a in listed if a["type"] == "meld"]
        builds = [a for a in listed if a["type"] in ("build", "swap_joker")]
        draws = [a for a in listed if a["type"] == "draw"]
        held = next(p for p in state["players"] if p["id"] == to_act)["hand"]
        taken = state["turn"]["drawn"] if state["turn"]["source"] == "discard" else None
        discards = [a for a in listed if a["type"] == "discard" and a["card"] != taken] or \
            [a for a in listed if a["type"] == "discard"]
        # keep the cards that go with others; of the rest, shed the dearest
        shed = min(discards, key=lambda a: (ties(a["card"], [c for c in held if c != a["card"]]),
                                            -worth(params["values"], a["card"]))) if discards else None
        take = next((a for a in draws if a["source"] == "discard"), None)
        if take is not None and (in_void_deal or ties(state["discard"][0], held) < 2 or takes_this_deal >= 12):
            take = None  # (a bounded number of takes a deal: cards passed round the table forever end no hand)
        if in_void_deal:
            action = next((a for a in draws if a["source"] == "stock"), None) or discards[-1]
        elif melds:
            action = max(melds, key=lambda a: sum(len(m["cards"]) for m in a["melds"]))
        elif builds:
            action = builds[0]
        else:
            action = take or next((a for a in draws if a["source"] == "stock"), None) or shed
        takes_this_deal += action is take
        verdict = post(action)
        if verdict["state"]["phase"] == "ended":
            hand = verdict["state"]
            result = hand["result"]
            row = game["sheet"][-1]
            if result["how"] == "void":
                assert not in_void_deal or seen.setdefault("void", 1)
                assert all(v == 0 for v in row["penalties"].values())
            else:
                winner = result["winner"]
                bend = (not any(p["opened"] for p in hand["players"] if p["id"] != winner)
                        and winner not in opened_before_turn)
                assert result["how"] == ("kalookie" if bend else "call_up")
                if bend:
                    seen["bend"] = seen.get("bend", 0) + 1
                factor = params["kalookie"]["penalty_multiplier"] if bend else 1
                for p in hand["players"]:
                    if p["id"] != winner:
                        expected[p["id"]] += sum(worth(params["values"], c) for c in p["hand"]) * factor
            assert {p["id"]: p["score"] for p in game["players"]} == expected
    return {"game": game, "seen": seen, "expected": expected, "params": params}


class _Answer:
    def __init__(self, body: bytes):
        self.body = body

    def get_json(self):
        return json.loads(self.body)


class HttpClient:
    """The few calls the game needs, sent over HTTP to ``base`` (the test client's spelling)."""

    def __init__(self, base: str):
        self.base = base

    def get(self, path: str) -> _Answer:
        with urlopen(self.base + path, timeout=30) as r:
            return _Answer(r.read())

    def post(self, path: str, json: dict) -> _Answer:  # noqa: A002 (the test client's keyword)
        data = _dumps(json)
        with urlopen(Request(self.base + path, data=data, headers={"Content-Type": "application/json"}),
                     timeout=30) as r:
            return _Answer(r.read())


def _dumps(value) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.slow
def test_a_nine_hand_game_over_http():
    app = create_app({"KALOOKI_LOG_STREAM": open(os.devnull, "wb")})
    with serving(app) as base:
        out = play_game(HttpClient(base), SEED)
    game, seen, params = out["game"], out["seen"], out["params"]
    assert game["phase"] == "over"
    for what in ("allowed", "refused", "penalty", "challenge", "void", "redealt", "bend"):
        assert seen.get(what), (what, seen)
    assert sum(1 for row in game["sheet"] if row["how"] != "void") == \
        params["contract"]["last"] - params["contract"]["first"] + 1
    assert all(not p.get("out") for p in game["players"])
    totals = {p["id"]: p["score"] for p in game["players"]}
    assert totals == out["expected"]
    lowest = min(totals.values())
    assert game["winner"] == (next(k for k, v in totals.items() if v == lowest)
                              if list(totals.values()).count(lowest) == 1 else None)
