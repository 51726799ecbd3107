"""The game level in the rules core: settling hands, buy-ins, eliminations, the pool and the sheet."""
from __future__ import annotations

import pytest

from kalooki_referee.rules import load_variant
from kalooki_referee.rules.game import adjudicate_game, seating_draw, start_game
from kalooki_referee.rules.wire.game import game_wire, read_game
from kalooki_referee.rules.wire.scoresheet import score_sheet

BRITISH = load_variant("british")
SEATS = ["Andy", "Mark", "John", "Frank"]

# Document 000, "The scoring": the five hands of the worked example.  Mark's fourth-hand penalty is
# not printed (he passes 150 from 145); 10 is used, which the rules allow (anything over 5).
DOC000_HANDS = [
    {"winner": "John", "how": "call_up", "penalties": {"Andy": 85, "Mark": 42, "Frank": 62}},
    {"winner": "Andy", "how": "call_up", "penalties": {"Mark": 50, "John": 45, "Frank": 22}},
    {"winner": "John", "how": "kalookie", "penalties": {"Andy": 38, "Mark": 53, "Frank": 8}},
    {"winner": "Frank", "how": "call_up", "penalties": {"Andy": 4, "Mark": 10, "John": 53}, "buy_ins": {"Mark": True}},
    {"winner": "John", "how": "call_up", "penalties": {"Andy": 29, "Mark": 71, "Frank": 82}},
]
# The published tables, as facts: penalty totals and cumulative payments after each hand.
DOC000_SCORES = [(85, 42, 0, 62), (85, 92, 45, 84), (123, 145, 45, 92), (127, 127, 98, 92), (156, 198, 98, 174)]
DOC000_LEDGER = [(-1, -1, 3, -1), (2, -2, 2, -2), (0, -4, 8, -4), (-1, -5, 7, -1), (-2, -6, 10, -2)]


def test_doc000_tables_row_by_row():
    sheet = score_sheet(BRITISH, SEATS, DOC000_HANDS, "casino")
    assert sheet["inconsistency"] is None
    for row, scores, ledger in zip(sheet["rows"], DOC000_SCORES, DOC000_LEDGER):
        assert tuple(row["scores"][p] for p in SEATS) == scores
        assert tuple(row["ledger"][p] for p in SEATS) == ledger
        assert sum(row["payments"].values()) == 0
    assert sheet["rows"][3]["buy_ins"] == {"Mark": True}
    assert sheet["pool"] == 25 and sheet["winner"] == "John"
    assert sheet["settlement"] == {"Andy": -7, "Mark": -16, "John": 30, "Frank": -7}


def test_settling_on_paper_equals_settling_each_hand():
    sheet = score_sheet(BRITISH, SEATS, DOC000_HANDS, "casino")
    per_hand = {p: 0 for p in SEATS}
    for row in sheet["rows"]:
        for p, v in row["payments"].items():
            per_hand[p] += v
    paid = {p["id"]: p["paid_to_pool"] for p in sheet["players"]}
    cash = {p: per_hand[p] - paid[p] + (sheet["pool"] if p == sheet["winner"] else 0) for p in SEATS}
    assert cash == sheet["settlement"]
    assert sum(cash.values()) == 0


@pytest.mark.parametrize("change, clause", [
    ({3: {"buy_ins": {"Mark": True, "Andy": True}}}, "elimination.over_150"),      # Andy is on 127
    ({3: {"buy_ins": {}}}, "buyin.decision_order"),                                  # Mark's decision missing
    ({0: {"penalties": {"Andy": 85, "Mark": 42, "Frank": 62, "John": 3}}}, "go_out.winner_scores_nothing"),
    ({0: {"payments": {"Andy": -1, "Mark": -1, "John": 2, "Frank": -1}}}, "stakes.ledger_balances"),
    ({2: {"payments": {"Andy": -1, "Mark": -1, "John": 3, "Frank": -1}}}, "kalookie.pays_kalookie_stake"),
])
def test_first_inconsistent_entry_is_named(change, clause):
    hands = [dict(h) for h in DOC000_HANDS]
    for i, fields in change.items():
        hands[i].update(fields)
    sheet = score_sheet(BRITISH, SEATS, hands, "casino")
    assert sheet["inconsistency"]["clause"] == clause
    assert sheet["inconsistency"]["hand"] == min(change) + 1


def test_a_hand_after_the_game_is_over_is_inconsistent():
    hands = DOC000_HANDS + [{"winner": "John", "how": "call_up", "penalties": {}}]
    sheet = score_sheet(BRITISH, SEATS, hands, "casino")
    assert sheet["inconsistency"]["clause"] == "elimination.game_over_at_one_survivor"
    assert sheet["inconsistency"]["hand"] == 6


def test_third_buy_in_is_refused():
    # P2 goes over three times; the third time there is no buy-in to decide.
    over = {"winner": "P1", "how": "call_up", "penalties": {"P2": 151, "P3": 0, "P4": 0}}
    hands = [over, {**over, "penalties": {"P2": 151, "P3": 0, "P4": 0}, "buy_ins": {}}]
    hands = [{**over, "buy_ins": {"P2": True}}, {**over, "buy_ins": {"P2": True}}, {**over, "buy_ins": {"P2": True}}]
    sheet = score_sheet(BRITISH, ["P1", "P2", "P3", "P4"], hands, "casino")
    assert sheet["inconsistency"]["clause"] == "buyin.max_two_per_game"
    assert sheet["inconsistency"]["hand"] == 3


def test_no_buy_in_unless_two_survivors_remain():
    hands = [{"winner": "C", "how": "call_up", "penalties": {"A": 160, "B": 155}, "buy_ins": {"A": True}}]
    sheet = score_sheet(BRITISH, ["A", "B", "C"], hands, "casino")
    assert sheet["winner"] is None or sheet["inconsistency"] is not None
    assert sheet["inconsistency"]["clause"] == "elimination.game_over_at_one_survivor"
    fine = score_sheet(BRITISH, ["A", "B", "C"], [{**hands[0], "buy_ins": {}}], "casino")
    assert fine["winner"] == "C" and fine["inconsistency"] is None


def test_buy_in_decisions_go_clockwise_from_the_winners_left():
    game, _ = start_game(BRITISH, ["P1", "P2", "P3", "P4"], "order")
    seats = [p.id for p in game.players]
    winner = seats[1]
    hands = [{"winner": winner, "how": "call_up",
              "penalties": {p: (151 if p != seats[2] else 10) for p in seats if p != winner}}]
    # seats[0] and seats[3] are over; seats[2] survives with the winner: order starts left of the winner
    sheet = score_sheet(BRITISH, seats, [{**hands[0], "buy_ins": {}}], "casino")
    assert sheet["buy_in_queue"] == [] and "must decide" in sheet["inconsistency"]["message"]
    assert sheet["inconsistency"]["message"].endswith(f"{seats[3]}, {seats[0]})")


def test_seating_draw_is_seeded_and_complete():
    seats, drawn = seating_draw(["a", "b", "c", "d", "e"], "seat-seed")
    assert sorted(drawn.values()) == ["2", "3", "4", "5", "A"]
    assert drawn[seats[0]] == "A" and [drawn[s] for s in seats[1:]] == ["2", "3", "4", "5"]
    assert seating_draw(["a", "b", "c", "d", "e"], "seat-seed") == (seats, drawn)


def test_start_game_pays_initial_stakes_and_deals():
    game, record = start_game(BRITISH, SEATS, "g1", "williamson")
    assert game.pool == 4 * 3 and all(p.paid_to_pool == 3 for p in game.players)
    assert game.dealer == record.dealer and game.hand.dealer == game.dealer
    assert [p.id for p in game.hand.players] == [p.id for p in game.players]
    back = read_game(game_wire(game), BRITISH)
    assert back == game and game_wire(back) == game_wire(game)


def test_stakes_cannot_change_mid_game():
    game, _ = start_game(BRITISH, SEATS, "g2", "casino")
    verdict = adjudicate_game(BRITISH, game, {"type": "next_hand", "seed": 1}, {"kalookie": 5})
    assert not verdict.legal and verdict.violations[0].clause == "stakes.agreed_in_advance"
