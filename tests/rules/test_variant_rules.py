"""The general rules that the variants beyond the British family switch on: each is checked from
the variant's parameters (never from its name), and every override of them is validated."""
from __future__ import annotations

from collections import Counter

import pytest

from kalooki_referee.rules import InvalidRules, action_from_dict, adjudicate, deal, load_variant, variant_ids
from kalooki_referee.rules.cards import pack, pack_order
from kalooki_referee.rules.shuffle import seeded_number, shuffled
from kalooki_referee.rules.wire.state import state_wire

PLAYERS4 = ["N", "E", "S", "W"]


def _variants_where(predicate) -> list[str]:
    return [v for v in variant_ids() if predicate(load_variant(v))]


@pytest.mark.parametrize("variant, n", [(v, n) for v in variant_ids()
                                        for n in range(load_variant(v).rules.players.min, load_variant(v).rules.players.max + 1)])
def test_every_variant_deals_its_own_count_for_each_table(variant, n):
    v = load_variant(variant)
    hands = (range(v.rules.contract.first, v.rules.contract.last + 1) if v.rules.contract else [None])
    for hand in hands:
        state, record = deal(v, [f"P{i}" for i in range(n)], f"count-{variant}-{n}", hand=hand)
        table = v.rules.deal.cards_by_players or {}
        want = v.rules.contract.hands[hand].cards if hand else table.get(n, v.rules.deal.cards_each)
        assert record["cards_each"] == want
        assert all(len(p.hand) == want for p in state.players)
        # every card of the table's pack is dealt, turned up or in the stock
        by_players = v.rules.pack.by_players or {}
        decks, jokers = ((by_players[n].decks, by_players[n].jokers) if n in by_players
                         else (v.rules.pack.decks, v.rules.pack.jokers))
        assert record["pack"] == {"decks": decks, "jokers": jokers}
        assert state.card_counts() == +pack(decks, jokers)


@pytest.mark.parametrize("variant", _variants_where(lambda v: v.rules.deal.packets and not v.rules.deal.joker_on_cut))
def test_packet_deals_follow_the_documented_order(variant):
    v = load_variant(variant)
    cards = shuffled(pack_order(v.rules.pack.decks, v.rules.pack.jokers), "packets", "deal")
    state, _ = deal(v, PLAYERS4, "packets", dealer="W")
    expected = {p: [] for p in PLAYERS4}
    pos = 0
    for size in v.rules.deal.packets:
        for p in ["N", "E", "S", "W"]:  # clockwise from the dealer's left
            expected[p] += cards[pos:pos + size]
            pos += size
    for player in state.players:
        assert Counter(c.code for c in player.hand) == Counter(c.code for c in expected[player.id])
    if v.rules.deal.upcard:
        assert state.discard == (cards[pos],)
        pos += 1
    assert state.stock[:3] == tuple(cards[pos:pos + 3])


@pytest.mark.parametrize("variant", _variants_where(lambda v: v.rules.deal.joker_on_cut))
def test_a_joker_on_the_cut_goes_to_the_cutter_who_gets_one_card_fewer(variant):
    v = load_variant(variant)
    size = v.rules.pack.size
    seeds = [f"cut-{i}" for i in range(400)]
    shown = {}
    for seed in seeds:
        cards = shuffled(pack_order(v.rules.pack.decks, v.rules.pack.jokers), seed, "deal")
        shown[seed] = cards[4 + seeded_number(seed, "cut") % (size - 7) - 1]
    with_joker = [s for s in seeds if shown[s].is_joker]
    without = [s for s in seeds if not shown[s].is_joker]
    assert with_joker and without
    for seed in (with_joker[0], without[0]):
        state, record = deal(v, PLAYERS4, seed, dealer="W")
        assert record["cut_shows"] == shown[seed].code and record["cut_by"] == "S"
        assert record["cutter_keeps_joker"] is shown[seed].is_joker
        assert all(len(p.hand) == v.cards_for(4) for p in state.players)
        assert state.card_counts() == +pack(v.rules.pack.decks, v.rules.pack.jokers)
    state, _ = deal(v, PLAYERS4, with_joker[0], dealer="W")
    assert "JK" in [c.code for c in state.player("S").hand]


@pytest.mark.parametrize("variant", _variants_where(lambda v: v.rules.draw.dealer_upcard_option))
def test_the_dealer_option_comes_first_and_only_as_an_exchange_or_a_pass(variant):
    v = load_variant(variant)
    state, record = deal(v, PLAYERS4, "option", dealer="W")
    assert state.to_act == "W" and state.dealer_option and record["first_to_play"] == "W"
    stock = adjudicate(v, state, action_from_dict({"type": "draw", "source": "stock"}))
    assert not stock.legal
    passed = adjudicate(v, state, action_from_dict({"type": "pass"}))
    assert passed.legal and passed.state.to_act == "N" and passed.state.first_play and not passed.state.dealer_option
    took = adjudicate(v, state, action_from_dict({"type": "draw", "source": "discard"}))
    assert took.legal and took.state.turn.must_use is None
    give = next(c.code for c in state.player("W").hand if not c.is_joker)
    meld_first = adjudicate(v, took.state, action_from_dict({"type": "meld", "melds": [{"cards": ["JK", "JK", "JK"]}]}))
    assert not meld_first.legal
    done = adjudicate(v, took.state, action_from_dict({"type": "discard", "card": give}))
    assert done.legal and done.state.to_act == "N" and done.state.discard[0].code == give
    assert done.state.first_play and not done.state.dealer_option
    # the pass is the dealer's only: no one passes a turn later
    assert not adjudicate(v, done.state, action_from_dict({"type": "pass"})).legal


def test_a_pass_means_nothing_where_the_dealer_has_no_option():
    v = load_variant("british")
    state, _ = deal(v, PLAYERS4, "no-option")
    verdict = adjudicate(v, state, action_from_dict({"type": "pass"}))
    assert not verdict.legal and verdict.violations[0].clause == "turn.draw_meld_discard"


@pytest.mark.parametrize("variant, rules, pointer", [
    ("north_american_uspcc", {"deal": {"cards_by_players": {"6": 18}}}, "/rules/deal/cards_by_players/6"),
    ("north_american_uspcc", {"deal": {"cards_by_players": {"9": 5}}}, "/rules/deal/cards_by_players/9"),
    ("north_american_uspcc", {"deal": {"cards_by_players": {"7": 5}}}, "/rules/deal/cards_by_players/7"),
    ("kalooki_co_uk", {"deal": {"packets": [3, 3, 3]}}, "/rules/deal/packets"),
    ("kalooki_co_uk", {"deal": {"packets": "3-2-3-2-3"}}, "/rules/deal/packets"),
    ("kalooki_co_uk", {"draw": {"dealer_upcard_option": True}}, "/rules/draw/dealer_upcard_option"),
    ("kalooki_co_uk", {"draw": {"taken_discard": "hold"}}, "/rules/draw/taken_discard"),
    ("scarne_east_coast", {"scoring": {"model": "points"}}, "/rules/scoring/model"),
    ("scarne_east_coast", {"scoring": {"per_jokers": 2}}, "/rules/scoring/per_jokers"),
    ("scarne_east_coast", {"scoring": {"per_card": -1}}, "/rules/scoring/per_card"),
    ("denexa_caloochi", {"pack": {"jokers": 0}}, "/rules/deal/joker_on_cut"),
    ("denexa_caloochi", {"joker_reuse": {"set_exchange": "two"}}, "/rules/joker_reuse/set_exchange"),
    ("denexa_caloochi", {"game": {"limit": "none"}}, "/rules/game/limit"),
    # every table of a tournament is a game of the variant (British: 2 to 5 players)
    ("british_blackpool", {"tournament": {"table_seats": 6}}, "/rules/tournament/table_seats"),
    ("british_blackpool", {"tournament": {"tables_max": 12}}, "/rules/tournament/semi_finals"),
    ("british_blackpool", {"tournament": {"semi_finals": 3}}, "/rules/tournament/advance_per_semi_final"),
])
def test_bad_overrides_of_the_new_rules_name_the_field(variant, rules, pointer):
    with pytest.raises(InvalidRules) as err:
        load_variant(variant, rules)
    assert pointer in [p.pointer for p in err.value.problems]


def test_an_override_contradicting_the_pack_is_a_422_over_http(client):
    body = client.post("/v1/deal", json={"variant": "north_american_uspcc", "players": PLAYERS4, "seed": 1,
                                         "rules": {"deal": {"cards_by_players": {"4": 27}}}})
    assert body.status_code == 422
    assert "/rules/deal/cards_by_players/4" in [e["pointer"] for e in body.get_json()["errors"]]


def test_the_variant_list_shows_every_variant_with_its_parameters(client):
    listed = client.get("/v1/variants").get_json()["variants"]
    assert [v["id"] for v in listed] == variant_ids()
    for v in listed:
        assert v["name"] and v["family"] and v["sources"]
        assert v["parameters"] == client.get(f"/v1/variants/{v['id']}").get_json()["parameters"]


# -- document 001's readings, as switches of the British game ----------------------------------

def test_seating_order_follows_the_switch(client):
    body = {"variant": "british", "players": ["A", "B", "C", "D"], "seed": "seats"}
    clockwise = client.post("/v1/games", json=body).get_json()["seating"]
    counter = client.post("/v1/games", json={**body, "rules": {"game": {"seating_order": "counterclockwise"}}}).get_json()["seating"]
    drawn = clockwise["seating"]
    assert counter["seating"] == drawn
    order = sorted(drawn, key=lambda p: 1 if drawn[p] == "A" else int(drawn[p]))
    assert clockwise["seats"] == order
    assert counter["seats"] == [order[0]] + order[:0:-1]


def _second_player_may_take_the_discard(rules) -> bool:
    v = load_variant("british", rules)
    state, _ = deal(v, PLAYERS4, "first-round-0", dealer="W")
    first = adjudicate(v, state, action_from_dict({"type": "turn", "actions": [
        {"type": "draw", "source": "stock"},
        {"type": "discard", "card": state.player("N").hand[0].code}]}))
    assert first.legal
    return adjudicate(v, first.state, action_from_dict({"type": "draw", "source": "discard"})).legal


def test_the_first_round_discard_follows_the_switch():
    # document 000: only the very first play takes the upcard freely; document 001: the whole first round
    assert not _opening_with_the_discard_possible()  # so only the switch can make the take legal
    assert not _second_player_may_take_the_discard(None)
    assert _second_player_may_take_the_discard({"draw": {"free_discard_first_round": True}})


def _opening_with_the_discard_possible() -> bool:
    from kalooki_referee.rules.search import opening_possible
    v = load_variant("british")
    state, _ = deal(v, PLAYERS4, "first-round-0", dealer="W")
    return opening_possible(v, state.player("E").hand + (state.player("N").hand[0],))


def test_the_first_round_ends_with_the_dealers_turn():
    v = load_variant("british", {"draw": {"free_discard_first_round": True}})
    state, _ = deal(v, PLAYERS4, "round", dealer="W")
    for who in ["N", "E", "S", "W"]:
        assert state.first_round and state.to_act == who
        state = adjudicate(v, state, action_from_dict({"type": "turn", "actions": [
            {"type": "draw", "source": "stock"},
            {"type": "discard", "card": state.player(who).hand[0].code}]})).state
    assert not state.first_round and "first_round" not in state_wire(state)


def test_joker_declaration_always_follows_the_switch():
    from kalooki_referee.rules.melds import read_meld, tokens_of
    v = load_variant("british")
    always = load_variant("british", {"melds": {"run": {"joker_declaration": "always"}}})
    assert read_meld(tokens_of(["7H", "JK", "9H"]), v, "run").kind == "run"
    failure = read_meld(tokens_of(["7H", "JK", "9H"]), always, "run")
    assert getattr(failure, "clause", None) == "joker.declare_run_end_joker"
    assert read_meld(tokens_of(["7H", "JK(=8H)", "9H"]), always, "run").kind == "run"
