"""The Jamaican contract game (document 002) as its variant files give it: the contract table and
the Baby Kalooki table are read back from the variants over HTTP and compared with the document's
own tables (parsed from the document where the shared seeds are beside this checkout, and with the
catalogue's record of them); every hand of every Jamaican variant deals its row of the table."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from kalooki_referee.api import create_app
from tests.support.helpers import card_worth

SHARED = Path(__file__).resolve().parents[3] / "shared"
DOCUMENT = SHARED / "seeds" / "002_c1021270d6e701fd.txt"
CATALOGUE = SHARED / "rules-catalogue.yaml"
JAMAICAN = ["jamaican", "jamaican_kalooki_hands_1_4", "jamaican_super_kalooki_hands_5_9",
            "jamaican_12_card_first_hands", "jamaican_baby", "jamaican_baby_8_cards"]


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def table_of(client, variant: str) -> dict[int, tuple[int, str]]:
    """The variant's hands as the document writes them: number -> (cards dealt, "3, 3, 4")."""
    contract = client.get(f"/v1/variants/{variant}").get_json()["parameters"]["contract"]
    rows = {}
    for number in range(contract["first"], contract["last"] + 1):
        hand = contract["hands"][str(number)]
        rows[number] = (hand["cards"], ", ".join(["3"] * hand["sets"] + ["4"] * hand["runs"]))
    return rows


def document_tables() -> list[dict[int, tuple[int, str]]]:
    """Document 002's two tables of hands (the nine-hand game, then Baby Kalooki)."""
    tables: list[dict[int, tuple[int, str]]] = []
    for line in DOCUMENT.read_text(encoding="utf-8").splitlines():
        if line.startswith("Hand No."):
            tables.append({})
            continue
        m = re.match(r"^(\d+) (\d+) ([34](?:, [34])*)", line)
        if m and tables:
            tables[-1][int(m.group(1))] = (int(m.group(2)), m.group(3))
    return tables


# Document 002's two tables, as figures (hand number -> cards dealt, the contract): the nine-hand
# game's and Baby Kalooki's.  Where the shared seeds lie beside this checkout, the test below reads
# them from the document itself and checks these figures against it too.
NINE_HANDS = {1: (9, "3, 3, 3"), 2: (10, "3, 3, 4"), 3: (11, "3, 4, 4"), 4: (12, "4, 4, 4"), 5: (12, "3, 3, 3, 3"),
              6: (13, "3, 3, 3, 4"), 7: (14, "3, 3, 4, 4"), 8: (15, "3, 4, 4, 4"), 9: (16, "4, 4, 4, 4")}
BABY_HANDS = {1: (6, "3, 3"), 2: (7, "3, 4"), 3: (8, "4, 4")}


@pytest.mark.skipif(not DOCUMENT.exists(), reason="the shared seeds are not beside this checkout")
def test_the_tables_figures_are_document_002s():
    assert document_tables() == [NINE_HANDS, BABY_HANDS]


def test_the_contract_tables_are_document_002s(client):
    nine, baby = NINE_HANDS, BABY_HANDS
    assert table_of(client, "jamaican") == nine
    assert table_of(client, "jamaican_baby") == baby
    assert table_of(client, "jamaican_kalooki_hands_1_4") == {n: nine[n] for n in range(1, 5)}
    assert table_of(client, "jamaican_super_kalooki_hands_5_9") == {n: nine[n] for n in range(5, 10)}
    # the options the document names: twelve cards in hands 1-3, eight in every Baby hand
    assert table_of(client, "jamaican_12_card_first_hands") == {
        n: ((12, c) if n <= 3 else (cards, c)) for n, (cards, c) in nine.items()}
    assert table_of(client, "jamaican_baby_8_cards") == {n: (8, c) for n, (_, c) in baby.items()}


@pytest.mark.skipif(not CATALOGUE.exists(), reason="the shared catalogue is not beside this checkout")
def test_the_variant_files_agree_with_the_catalogue(client):
    variants = {v["id"]: v for v in yaml.safe_load(CATALOGUE.read_text())["variants"]}
    params = variants["jamaican"]["parameters"]
    rows = table_of(client, "jamaican")
    assert {n: cards for n, (cards, _) in rows.items()} == params["cards_dealt_by_hand"]
    assert {n: c.replace(", ", ",") for n, (_, c) in rows.items()} == {
        n: text.split(" ")[0] for n, text in params["contracts_by_hand"].items()}
    packs = client.get("/v1/variants/jamaican").get_json()["parameters"]["pack"]
    for players, want in (("3-4", params["decks_and_jokers"]["3-4 players"]),
                          ("5-6", params["decks_and_jokers"]["5-6 players"]),
                          ("7-8", params["decks_and_jokers"]["7-8 players"])):
        for n in map(int, players.split("-")):
            got = packs["by_players"].get(str(n), {"decks": packs["decks"], "jokers": packs["jokers"]})
            assert got["decks"] == want["packs"], n
            jokers = want["jokers"]
            assert (str(got["jokers"]) == str(jokers) or
                    (isinstance(jokers, str) and got["jokers"] == int(jokers.split("-")[0]))), n


def test_the_deal_is_the_smallest_contract(client):
    """In every hand of the document's tables the cards dealt are exactly the smallest contract
    (3 a set, 4 a run): a player can lay it and go out on the first pluck (the twelve- and eight-card
    options leave more)."""
    for variant in ("jamaican", "jamaican_baby"):
        contract = client.get(f"/v1/variants/{variant}").get_json()["parameters"]["contract"]
        for hand in contract["hands"].values():
            assert hand["cards"] == 3 * hand["sets"] + 4 * hand["runs"]


@pytest.mark.parametrize("variant", JAMAICAN)
def test_every_hand_deals_its_row_of_the_table(client, variant):
    rows = table_of(client, variant)
    for number, (cards, _) in rows.items():
        answer = client.post("/v1/deal", json={"variant": variant, "players": 4, "seed": f"row-{number}",
                                               "hand": number}).get_json()
        assert answer["deal"]["cards_each"] == cards and answer["state"]["hand_number"] == number
        assert all(len(p["hand"]) == cards for p in answer["state"]["players"])
    first, last = min(rows), max(rows)
    for outside in (first - 1, last + 1):
        if outside >= 1:
            refused = client.post("/v1/deal", json={"variant": variant, "players": 4, "seed": 1, "hand": outside})
            assert refused.status_code == 422


def test_a_contract_lay_and_a_bend_over_http(client):
    """Hand 1: the player who lays 3,3,3 and discards on the first turn bends the table."""
    dealt = client.post("/v1/deal", json={"variant": "jamaican_baby", "players": 3, "seed": "bend"}).get_json()
    state = dealt["state"]
    for _ in range(400):
        if state["phase"] == "ended":
            break
        listed = client.post("/v1/legal-actions", json={"variant": "jamaican_baby", "state": state}).get_json()["actions"]
        melds = [a for a in listed if a["type"] == "meld"]
        action = (melds[0] if melds else
                  next((a for a in listed if a["type"] == "draw" and a["source"] == "stock"), None)
                  or next(a for a in listed if a["type"] in ("build", "discard")))
        verdict = client.post("/v1/adjudicate", json={"variant": "jamaican_baby", "state": state, "action": action}).get_json()
        assert verdict["legal"], verdict["violations"]
        state = verdict["state"]
    result = state["result"]
    assert result is not None and result["how"] != "void"
    values = client.get("/v1/variants/jamaican_baby").get_json()["parameters"]["values"]


    down = [p["id"] for p in state["players"] if p["opened"]]
    bend = down == [result["winner"]]  # the winner was the first and only one to lay: on that turn
    assert result["how"] == ("kalookie" if bend else "call_up")
    for p in state["players"]:
        expected = 0 if p["id"] == result["winner"] else sum(card_worth(values, c) for c in p["hand"]) * (2 if bend else 1)
        assert result["penalties"][p["id"]] == expected


def test_a_baby_kalooki_game_over_http(client):
    """A whole Baby Kalooki game from a seed (plays chosen from the listing): each hand is the next
    row of the contract table (the same again after a void hand, dealt by the same dealer), each
    total is the sum of the hands' penalties (from the variant's card values, doubled after a bend)
    and the dealer's cut bonus, nobody is eliminated and the lowest total wins."""
    variant = "jamaican_baby"
    params = client.get(f"/v1/variants/{variant}").get_json()["parameters"]
    answer = client.post("/v1/games", json={"variant": variant, "players": ["A", "B", "C"], "seed": "baby-game"}).get_json()
    game = answer["game"]
    expected = {p["id"]: 0 for p in game["players"]}
    events = answer["events"]
    played, deals = 0, 0
    for _ in range(20000):
        for e in events:
            if e["type"] == "penalized" and e["reason"] == "exact_cut_bonus":
                expected[e["player"]] += params["deal"]["dealer_cut_bonus"]
        if game["phase"] == "over":
            break
        if game["phase"] == "between":
            deals += 1
            verdict = client.post("/v1/adjudicate", json={"variant": variant, "game": game,
                                                          "action": {"type": "next_hand", "seed": f"deal-{deals}"}}).get_json()
            assert verdict["legal"], verdict["violations"]
            game, events = verdict["game"], verdict["events"]
            won = sum(1 for row in game["sheet"] if row["how"] != "void")
            assert game["hand"]["hand_number"] == params["contract"]["first"] + won
            continue
        state = game["hand"]
        listed = client.post("/v1/legal-actions", json={"variant": variant, "state": state}).get_json()["actions"]
        melds = [a for a in listed if a["type"] == "meld"]
        action = (melds[0] if melds else next((a for a in listed if a["type"] == "draw" and a["source"] == "stock"), None)
                  or [a for a in listed if a["type"] == "discard"][-1])
        verdict = client.post("/v1/adjudicate", json={"variant": variant, "game": game, "action": action}).get_json()
        assert verdict["legal"], verdict["violations"]
        game, events = verdict["game"], verdict["events"]
        if len(game["sheet"]) > played:  # a hand ended: check its row
            row = game["sheet"][-1]
            played = len(game["sheet"])
            if row["how"] == "void":
                assert all(v == 0 for v in row["penalties"].values())
                continue
            for pid, penalty in row["penalties"].items():
                expected[pid] += penalty
            assert row["scores"] == expected if "scores" in row else True
    assert game["phase"] == "over"
    assert sum(1 for row in game["sheet"] if row["how"] != "void") == params["contract"]["last"]
    assert all(not p.get("out") for p in game["players"])
    totals = {p["id"]: p["score"] for p in game["players"]}
    assert totals == expected
    lowest = min(totals.values())
    assert game["winner"] == (next(k for k, v in totals.items() if v == lowest)
                              if list(totals.values()).count(lowest) == 1 else None)


def test_legal_actions_offer_the_move_up_only_in_the_players_own_4(client):
    """In the move-up vectors' position, P1 (down) holds 7H for the joker of their own 6H-JK-8H-9H and
    6C for the joker of P3's 5C-JK-7C-8C: the move up of their own joker is listed, every listed
    move up is adjudicated legal, and none touches P3's run."""
    import json
    vectors = json.loads((Path(__file__).resolve().parents[2] / "vectors" / "jamaican" / "move_up.json").read_text())
    from kalooki_referee.vectors.suite import plain_vectors
    vector = next(v for v in plain_vectors(vectors) if v["id"] == "jamaican.move_up.joker-moved-up-own-4")
    state, rules = vector["request"]["state"], vector["request"].get("rules")
    listed = client.post("/v1/legal-actions", json={"variant": "jamaican", "rules": rules, "state": state}).get_json()["actions"]
    moves = [a for a in listed if a["type"] == "swap_joker"]
    assert moves == [{"type": "swap_joker", "meld": "m2", "naturals": ["7H"],
                      "place": {"type": "build", "meld": "m2", "cards": ["JK"], "end": "high"}}]
    verdict = client.post("/v1/adjudicate", json={"variant": "jamaican", "rules": rules, "state": state,
                                                  "action": moves[0]}).get_json()
    assert verdict["legal"] is True
    run = next(m for m in verdict["state"]["melds"] if m["id"] == "m2")
    assert run["cards"][-1].startswith("JK") and "7H" in run["cards"]
    assert sum(c.startswith("JK") for m in verdict["state"]["melds"] for c in m["cards"]) == \
        sum(c.startswith("JK") for m in state["melds"] for c in m["cards"])  # the joker never left the table


def test_a_penalty_told_during_a_hand_of_a_game_stands_until_the_hand_is_settled(client):
    """A penalty reported in the middle of a game's hand raises the hand's score above the game's
    total: the game goes on from there; a gap that no number of penalties makes is refused."""
    points = client.get("/v1/variants/jamaican").get_json()["parameters"]["penalties"]["points"]
    game = client.post("/v1/games", json={"variant": "jamaican", "players": ["A", "B", "C"], "seed": "fined"}).get_json()["game"]
    fined = client.post("/v1/adjudicate", json={"variant": "jamaican", "game": game,
                                                 "action": {"type": "penalty", "infraction": "missing_pluck", "player": "B"}}).get_json()
    game = fined["game"]
    b = next(p for p in game["hand"]["players"] if p["id"] == "B")
    assert b["score"] == next(p for p in game["players"] if p["id"] == "B")["score"] + points
    again = client.post("/v1/adjudicate", json={"variant": "jamaican", "game": game,
                                                 "action": {"type": "draw", "source": "stock"}})
    assert again.status_code == 200 and again.get_json()["legal"] is True
    b["score"] += 1
    odd = client.post("/v1/adjudicate", json={"variant": "jamaican", "game": game, "action": {"type": "draw", "source": "stock"}})
    assert odd.status_code == 422 and odd.mimetype == "application/problem+json"
