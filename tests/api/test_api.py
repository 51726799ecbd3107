"""Behaviour of the HTTP API through the Flask test client.

States are never typed out by hand: each test deals one with POST /v1/deal and edits the returned
JSON (moves, removes or respells a card), so the tests follow the wire format as the service writes it.
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

import kalooki_referee

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = "application/problem+json"
DRAW = {"type": "draw", "source": "stock"}


# -- helpers -----------------------------------------------------------------------------------

def deal(client, seed="api-tests", players=4, **extra) -> dict:
    response = client.post("/v1/deal", json={"variant": "british", "players": players, "seed": seed, **extra})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def dealt_state(client, seed="api-tests") -> dict:
    return deal(client, seed)["state"]


def adjudicate(client, state, action, **extra):
    return client.post("/v1/adjudicate", json={"variant": "british", "state": state, "action": action, **extra})


def verdict(response) -> dict:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return response.get_json()


def problem(response, status: int) -> dict:
    """The problem+json body of a refusal, checked for its status and media type."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["status"] == status
    assert body["title"] and body["type"].startswith("https://")
    return body


def pointers(body: dict) -> list[str]:
    return [e["pointer"] for e in body.get("errors", [])]


def details(body: dict) -> str:
    return " | ".join(e["detail"] for e in body.get("errors", []))


def all_cards(state: dict) -> Counter:
    cards = Counter(state["stock"]) + Counter(state["discard"])
    for player in state["players"]:
        cards += Counter(player["hand"])
    for meld in state.get("melds", []):
        cards += Counter(meld["cards"])
    return cards


def british_pack() -> Counter:
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    pack = Counter({r + s: 2 for r in ranks for s in "SHDC"})
    pack["JK"] = 2
    return pack


def played_state(client, state) -> dict:
    """``state`` after the player to act draws from the stock (the play phase)."""
    body = verdict(adjudicate(client, state, DRAW))
    assert body["legal"] is True and body["state"]["phase"] == "play"
    return body["state"]


# -- service endpoints -------------------------------------------------------------------------

def test_health(client):
    response = client.get("/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "version": kalooki_referee.__version__}


def test_openapi_document_is_served_as_the_file(client):
    from kalooki_referee.rules.wire import contract as openapi
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.data == (ROOT / "openapi.yaml").read_bytes()
    doc = yaml.load(response.data, Loader=openapi.YAML_LOADER)
    assert doc["openapi"].startswith("3.1")
    assert {"/v1/adjudicate", "/v1/deal", "/v1/melds/check"} <= set(doc["paths"])


def test_variants_lists_british(client):
    response = client.get("/v1/variants")
    assert response.status_code == 200
    variants = {v["id"]: v for v in response.get_json()["variants"]}
    assert "british" in variants
    assert variants["british"]["family"] == "british"
    assert variants["british"]["sources"]


def test_variant_shows_its_parameters(client):
    response = client.get("/v1/variants/british")
    assert response.status_code == 200
    body = response.get_json()
    assert body["id"] == "british"
    params = body["parameters"]
    assert params["players"] == {"min": 2, "max": 5}
    assert params["pack"] == {"decks": 2, "jokers": 2}
    assert params["deal"]["cards_each"] == 13
    assert params["opening"]["minimum"] == 40
    assert params["building"]["max_per_run_end_per_turn"] == 2


def test_unknown_variant_is_a_404_problem(client):
    body = problem(client.get("/v1/variants/nope"), 404)
    assert "nope" in body["detail"]


def test_undeclared_method_is_405_with_allow_header(client):
    response = client.get("/v1/adjudicate")
    problem(response, 405)
    assert "POST" in response.headers["Allow"]


# -- deal --------------------------------------------------------------------------------------

def test_deal_is_reproducible_from_its_seed(client):
    request = {"variant": "british", "players": ["Ann", "Bob", "Cy"], "seed": "same seed"}
    first = client.post("/v1/deal", json=request)
    second = client.post("/v1/deal", json=request)
    assert first.status_code == second.status_code == 200
    assert first.data == second.data
    other = client.post("/v1/deal", json={**request, "seed": "another seed"})
    assert other.status_code == 200
    assert other.get_json()["state"] != first.get_json()["state"]
    assert [p["id"] for p in first.get_json()["state"]["players"]] == ["Ann", "Bob", "Cy"]


def test_integer_seed_and_its_decimal_string_deal_alike(client):
    assert deal(client, seed=2024)["state"] == deal(client, seed="2024")["state"]


def test_deal_conserves_the_106_card_pack(client):
    body = deal(client, seed=7, players=5)
    state = body["state"]
    assert sum(all_cards(state).values()) == 106
    assert all_cards(state) == british_pack()
    assert [len(p["hand"]) for p in state["players"]] == [13] * 5
    assert state["discard"] == [body["deal"]["upcard"]]
    assert len(state["stock"]) == 106 - 5 * 13 - 1
    assert state["phase"] == "draw"
    assert state["to_act"] == body["deal"]["first_to_play"] == "P1"  # the last listed player deals


def test_deal_refuses_a_player_count_outside_the_variant(client):
    body = problem(client.post("/v1/deal", json={"variant": "british", "players": 6, "seed": 1}), 422)
    assert pointers(body) == ["/players"]
    assert "2 to 5" in details(body)


def test_deal_refuses_an_unknown_variant(client):
    body = problem(client.post("/v1/deal", json={"variant": "martian", "players": 4, "seed": 1}), 422)
    assert pointers(body) == ["/variant"]


# -- adjudicate: malformed input --------------------------------------------------------------

def test_malformed_json_is_400(client):
    response = client.post("/v1/adjudicate", data=b'{"variant": "british", "state": ',
                           content_type="application/json")
    body = problem(response, 400)
    assert pointers(body) == [""]


def test_unknown_top_level_field_is_422_with_pointer(client):
    state = dealt_state(client)
    body = problem(adjudicate(client, state, DRAW, referee="me"), 422)
    assert pointers(body) == ["/referee"]


def test_bad_card_code_points_at_the_card(client):
    state = dealt_state(client)
    state["players"][0]["hand"][3] = "1Z"
    body = problem(adjudicate(client, state, DRAW), 422)
    assert pointers(body) == ["/state/players/0/hand/3"]


def test_unknown_field_inside_an_action_points_into_the_action(client):
    state = dealt_state(client)
    body = problem(adjudicate(client, state, {**DRAW, "colour": "red"}), 422)
    assert pointers(body) == ["/action/colour"]


def test_missing_required_field_is_named(client):
    state = dealt_state(client)
    del state["to_act"]
    body = problem(adjudicate(client, state, DRAW), 422)
    assert pointers(body) == ["/state/to_act"]


def test_bad_card_under_a_nullable_field_points_at_the_card(client):
    state = dealt_state(client)
    state["turn"] = {"drawn": "QQ"}
    body = problem(adjudicate(client, state, DRAW), 422)
    assert pointers(body) == ["/state/turn/drawn"]


def test_game_requests_get_pointers_into_the_game(client):
    response = client.post("/v1/games", json={"variant": "british", "players": ["Ann", "Bob", "Cy"], "seed": "g"})
    assert response.status_code == 200
    game = response.get_json()["game"]
    request = {"variant": "british", "game": game, "action": DRAW}
    assert verdict(client.post("/v1/adjudicate", json=request))["legal"] is True
    odd = copy.deepcopy(game)
    odd["colour"] = "red"
    body = problem(client.post("/v1/adjudicate", json={**request, "game": odd}), 422)
    assert pointers(body) == ["/game/colour"]
    odd = copy.deepcopy(game)
    odd["hand"]["players"][1]["hand"][2] = "XX"
    body = problem(client.post("/v1/adjudicate", json={**request, "game": odd}), 422)
    assert pointers(body) == ["/game/hand/players/1/hand/2"]


# -- adjudicate: house rules -------------------------------------------------------------------

def test_unknown_house_rule_is_named(client):
    state = dealt_state(client)
    body = problem(adjudicate(client, state, DRAW, rules={"building": {"max_per_end": 3}}), 422)
    assert pointers(body) == ["/rules/building/max_per_end"]


def test_wrongly_typed_house_rule_is_named(client):
    state = dealt_state(client)
    body = problem(adjudicate(client, state, DRAW, rules={"opening": {"minimum": "forty"}}), 422)
    assert pointers(body) == ["/rules/opening/minimum"]


def test_house_rule_contradicting_the_pack_is_named(client):
    state = dealt_state(client)
    body = problem(adjudicate(client, state, DRAW, rules={"deal": {"cards_each": 30}}), 422)
    assert pointers(body) == ["/rules/deal/cards_each"]
    # within its own range, but five hands of 20 do not fit in a single pack
    body = problem(adjudicate(client, state, DRAW, rules={"deal": {"cards_each": 20}, "pack": {"decks": 1}}), 422)
    assert pointers(body) == ["/rules/deal/cards_each"]
    assert "54" in details(body)


def test_valid_house_rule_is_applied(client):
    state = played_state(client, dealt_state(client))
    # the mover has not opened; building is refused under the British rules ...
    hand = state["players"][0]["hand"]
    action = {"type": "build", "meld": "M1", "cards": [hand[0]]}
    refused = verdict(adjudicate(client, state, action))
    assert refused["legal"] is False
    assert refused["violations"][0]["clause"] == "build.only_after_own_opening"
    # ... and with the opening requirement lifted the referee goes on to look for the meld
    body = problem(adjudicate(client, state, action, rules={"building": {"requires_opening": False}}), 422)
    assert pointers(body) == ["/action/meld"]


# -- adjudicate: impossible states -------------------------------------------------------------

def test_state_with_a_card_removed_lists_it(client):
    state = dealt_state(client)
    removed = state["stock"].pop(10)
    body = problem(adjudicate(client, state, DRAW), 422)
    assert body["type"].endswith("/impossible-state")
    missing = [e for e in body["errors"] if f"card {removed} is missing" in e["detail"]]
    assert missing, body
    assert all(e["pointer"].startswith("/state") for e in body["errors"])


def test_state_with_an_extra_queen_of_hearts_is_refused(client):
    state = dealt_state(client)
    had = all_cards(state)["QH"]
    assert had == 2
    state["stock"].append("QH")
    body = problem(adjudicate(client, state, DRAW), 422)
    assert body["type"].endswith("/impossible-state")
    assert any("QH appears 3 times" in e["detail"] for e in body["errors"]), body


def test_swapping_a_card_with_the_stock_keeps_the_state_possible(client):
    # the control for the two tests above: conservation, not the edit itself, is what they refuse
    state = dealt_state(client)
    hand, stock = state["players"][0]["hand"], state["stock"]
    hand[0], stock[0] = stock[0], hand[0]
    body = verdict(adjudicate(client, state, DRAW))
    assert body["legal"] is True
    assert hand[0] in body["state"]["players"][0]["hand"]


# -- adjudicate: verdicts ----------------------------------------------------------------------

def test_legal_draw_moves_the_top_stock_card_to_the_hand(client):
    state = dealt_state(client)
    top = state["stock"][0]
    body = verdict(adjudicate(client, state, DRAW))
    assert body["legal"] is True and body["violations"] == []
    after = body["state"]
    assert after["phase"] == "play"
    assert after["stock"] == state["stock"][1:]
    assert Counter(after["players"][0]["hand"]) == Counter(state["players"][0]["hand"]) + Counter([top])
    assert body["events"][0]["type"] == "drew"


def test_discarding_before_drawing_is_illegal_with_its_clause(client):
    state = dealt_state(client)
    card = state["players"][0]["hand"][0]
    body = verdict(adjudicate(client, state, {"type": "discard", "card": card}))
    assert body["legal"] is False
    [violation] = body["violations"]
    assert violation["clause"] == "turn.draw_meld_discard"
    assert violation["statement"] and violation["sources"]
    assert body["state"] == state  # an illegal action leaves the state unchanged


def test_playing_out_of_turn_is_illegal_with_its_clause(client):
    state = dealt_state(client)
    assert state["to_act"] == "P1"
    body = verdict(adjudicate(client, state, {**DRAW, "player": "P2"}))
    assert body["legal"] is False
    assert [v["clause"] for v in body["violations"]] == ["turn.left_of_dealer_starts_clockwise"]


def test_a_violation_cites_only_the_sections_of_the_variants_own_documents(client):
    # turn order is stated by all five documents; a British verdict cites 000 and 001 only
    variant = client.get("/v1/variants/british").get_json()
    own = {s["document"] for s in variant["sources"]}
    body = verdict(adjudicate(client, dealt_state(client), {**DRAW, "player": "P2"}))
    cited = {s["document"] for s in body["violations"][0]["sources"]}
    assert cited and cited <= own


def test_the_same_request_gets_the_same_bytes(client):
    state = dealt_state(client)
    for action in (DRAW, {"type": "discard", "card": state["players"][0]["hand"][0]}):
        request = {"variant": "british", "state": state, "action": action}
        first = client.post("/v1/adjudicate", json=request)
        second = client.post("/v1/adjudicate", json=request)
        assert first.status_code == second.status_code == 200
        assert first.data == second.data


def _seat_holding_a_ten(client):
    """A dealt state whose first player holds a ten, and that ten's code."""
    for seed in range(200):
        state = dealt_state(client, seed=f"ten-{seed}")
        tens = [c for c in state["players"][0]["hand"] if c.startswith("10")]
        if tens:
            return state, tens[0]
    pytest.fail("no deal gave the first player a ten")


@pytest.mark.parametrize("spelling", ["T", "0"])
def test_a_ten_may_be_spelled_t_or_0_and_is_answered_as_10(client, spelling):
    state, ten = _seat_holding_a_ten(client)
    suit = ten[-1]
    hand = state["players"][0]["hand"]
    hand[hand.index(ten)] = spelling + suit
    body = verdict(adjudicate(client, state, DRAW))
    assert body["legal"] is True
    after = body["state"]
    assert ten in after["players"][0]["hand"]
    codes = set(all_cards(after))
    assert not any(c[0] in "T0" for c in codes), codes
    assert all_cards(after) == british_pack()
    # and in an action: discard the ten by another spelling
    body = verdict(adjudicate(client, after, {"type": "discard", "card": spelling + suit}))
    assert body["legal"] is True
    assert body["state"]["discard"][0] == ten
    held = Counter(after["players"][0]["hand"])[ten]
    assert Counter(body["state"]["players"][0]["hand"])[ten] == held - 1


def test_unknown_meld_in_a_build_points_at_the_meld_id(client):
    state = played_state(client, dealt_state(client))
    rules = {"building": {"requires_opening": False}}
    card = state["players"][0]["hand"][0]
    body = problem(adjudicate(client, state, {"type": "build", "meld": "M7", "cards": [card]}, rules=rules), 422)
    assert pointers(body) == ["/action/meld"]
    assert "M7" in details(body)
    # inside a turn, the pointer names the step
    turn = {"type": "turn", "actions": [{"type": "build", "meld": "M7", "cards": [card]}]}
    body = problem(adjudicate(client, state, turn, rules=rules), 422)
    assert pointers(body) == ["/action/actions/0/meld"]


# -- transport limits --------------------------------------------------------------------------

def test_wrong_content_type_is_415(client):
    state = dealt_state(client)
    response = client.post("/v1/adjudicate", data=json.dumps({"variant": "british", "state": state, "action": DRAW}),
                           content_type="text/plain")
    problem(response, 415)


def test_body_over_one_mebibyte_is_413(client):
    body = b'{"variant": "british", "seed": "' + b"x" * (1024 * 1024) + b'"}'
    problem(client.post("/v1/deal", data=body, content_type="application/json"), 413)
    problem(client.post("/v1/adjudicate", data=body, content_type="application/json"), 413)


@pytest.mark.parametrize("path", ["/v1/adjudicate", "/v1/deal", "/v1/melds/check"])
def test_deeply_nested_json_is_a_4xx_not_a_500(client, path):
    deep = b"[" * 100_000 + b"]" * 100_000  # deeper than the JSON parser goes
    response = client.post(path, data=deep, content_type="application/json")
    assert 400 <= response.status_code < 500 and response.mimetype == PROBLEM
    # parses, but house rules this deep once exhausted the rules core's recursion (a 500)
    rules = '{"a":' * 600 + "1" + "}" * 600
    text = '{"variant": "british", "players": 4, "seed": 1, "cards": ["5H"], "rules": %s}' % rules
    if path == "/v1/adjudicate":
        text = '{"variant": "british", "state": {}, "action": {}, "rules": %s}' % rules
    response = client.post(path, data=text, content_type="application/json")
    assert response.status_code == 400 and response.mimetype == PROBLEM, response.get_data(as_text=True)


# -- melds/check -------------------------------------------------------------------------------

def check(client, cards, **extra):
    response = client.post("/v1/melds/check", json={"variant": "british", "cards": cards, **extra})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def test_meld_check_valid_run(client):
    body = check(client, ["7H", "5H", "6H"])
    assert body["valid"] is True and body["ambiguous"] is False
    assert body["kind"] == "run"
    assert body["cards"] == ["5H", "6H", "7H"]
    assert body["value"] == 18
    assert body["violation"] is None


def test_meld_check_invalid_set(client):
    body = check(client, ["5H", "5H", "5S"])
    assert body["valid"] is False and body["ambiguous"] is False
    assert body["kind"] is None and body["value"] is None
    assert body["violation"]["clause"] == "meld.set.three_or_four_distinct_suits"
    assert body["violation"]["sources"]


def test_meld_check_ambiguous_run_lists_its_readings(client):
    body = check(client, ["5H", "6H", "JK"])
    assert body["valid"] is False and body["ambiguous"] is True
    assert {tuple(r["cards"]) for r in body["readings"]} == {("JK(=4H)", "5H", "6H"), ("5H", "6H", "JK(=7H)")}
    assert body["cards"] is None and body["kind"] is None
    assert body["violation"]["clause"] == "joker.declare_run_end_joker"


def test_meld_check_declared_joker_resolves_the_ambiguity(client):
    body = check(client, ["5H", "6H", "JK"], declarations={"jokers": ["7H"]})
    assert body["valid"] is True and body["ambiguous"] is False
    assert body["cards"] == ["5H", "6H", "JK(=7H)"]
    assert body["jokers"] == ["7H"]
    assert body["value"] == 18
    # the same reading written into the card code itself
    inline = check(client, ["5H", "6H", "JK(=4H)"])
    assert inline["valid"] is True and inline["cards"] == ["JK(=4H)", "5H", "6H"] and inline["value"] == 15


def test_meld_check_declared_kind_resolves_set_or_run(client):
    body = check(client, ["5H", "JK", "JK"])
    assert body["valid"] is False and body["ambiguous"] is True
    assert {r["kind"] for r in body["readings"]} == {"set", "run"}
    as_set = check(client, ["5H", "JK", "JK"], declarations={"kind": "set"})
    assert as_set["valid"] is True and as_set["kind"] == "set" and as_set["value"] == 15


def test_meld_check_answers_a_ten_as_10(client):
    body = check(client, ["TH", "JH", "QH"])
    assert body["valid"] is True and body["cards"] == ["10H", "JH", "QH"] and body["value"] == 30


def test_meld_check_refuses_an_unknown_variant(client):
    response = client.post("/v1/melds/check", json={"variant": "martian", "cards": ["5H", "6H", "7H"]})
    assert pointers(problem(response, 422)) == ["/variant"]


def test_meld_check_too_many_joker_declarations_points_at_them(client):
    response = client.post("/v1/melds/check", json={"variant": "british", "cards": ["5H", "6H", "JK"],
                                                     "declarations": {"jokers": ["7H", "8H"]}})
    assert pointers(problem(response, 422)) == ["/declarations/jokers"]


# -- the cyclic collector is paused while a listing or a replay is made ------------------------

def test_the_collector_is_paused_while_a_listing_is_made_and_resumed_after_it(client, monkeypatch):
    import gc

    from kalooki_referee.api import games

    during = []
    real = games.legal_actions

    def listing(*args):
        during.append(gc.isenabled())
        return real(*args)
    monkeypatch.setattr(games, "legal_actions", listing)
    body = {"variant": "british", "state": dealt_state(client)}
    was = gc.isenabled()
    try:
        gc.enable()
        assert client.post("/v1/legal-actions", json=body).status_code == 200
        assert during == [False] and gc.isenabled()
        gc.disable()  # a host that runs without the collector keeps it off
        assert client.post("/v1/legal-actions", json=body).status_code == 200
        assert during == [False, False] and not gc.isenabled()
    finally:
        gc.enable() if was else gc.disable()


def test_the_collector_is_resumed_when_a_paused_view_fails():
    import gc

    from kalooki_referee.api.ops import collector_paused

    def failing():
        raise RuntimeError("boom")
    was = gc.isenabled()
    try:
        gc.enable()
        with pytest.raises(RuntimeError):
            collector_paused(failing)()
        assert gc.isenabled()
    finally:
        gc.enable() if was else gc.disable()
