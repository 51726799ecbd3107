"""The tournament of tables (rules/tournament.py) and POST /v1/tournaments: buy-ins feed new tables
up to the variant's most, the winners go through semi-finals to a final, every number is a
parameter, and every tournament the module answers is one its own check accepts."""
from __future__ import annotations

import random

import pytest

from kalooki_referee.rules.errors import ImpossibleState, MalformedInput
from kalooki_referee.rules.tournament import Tournament, adjudicate_tournament, check_tournament, tournament_rules
from kalooki_referee.rules.wire.variant import load_variant
from kalooki_referee.rules.wire.tournament import read_tournament, read_tournament_event, tournament_wire

BLACKPOOL = load_variant("british_blackpool")


def start(players: int, seats: int = 4) -> dict:
    ids = [f"P{i}" for i in range(1, players + 1)]
    return {"stage": "qualifying", "pool": [], "winner": None,
            "tables": [{"id": f"T{k + 1}", "round": "qualifying", "seats": ids[i:i + seats]}
                       for k, i in enumerate(range(0, players, seats))]}


def step(variant, t: Tournament, event: dict):
    verdict = adjudicate_tournament(variant, t, read_tournament_event(event))
    # what the module answers, it accepts back: the wire form reads to the same tournament
    assert read_tournament(tournament_wire(verdict.tournament), variant) == verdict.tournament
    return verdict


def playing_at(t: Tournament) -> dict[str, str]:
    return {p: table.id for table in t.tables if table.playing for p in table.seats if p not in table.left}


def random_tournament(variant, players: int, rng: random.Random, buy_in_share: float = 0.6) -> list:
    """Play a tournament to its end with random buy-ins and winners; every verdict, in order."""
    rules = tournament_rules(variant)
    t = read_tournament(start(players, rules.table_seats), variant)
    verdicts = []
    for _ in range(2000):
        if t.stage == "finished":
            return verdicts
        table = rng.choice([x for x in t.tables if x.playing])
        still = [p for p in table.seats if p not in table.left]
        if table.round == "qualifying" and len(still) > 1 and rng.random() < buy_in_share:
            event = {"type": "buy_in", "table": table.id, "player": rng.choice(still)}
        else:
            want = min(rules.advance_per_semi_final, len(still)) if table.round == "semi_final" else 1
            event = {"type": "table_won", "table": table.id, "winners": rng.sample(still, want)}
        verdict = step(variant, t, event)
        verdicts.append((t, event, verdict))
        t = verdict.tournament
    raise AssertionError("the tournament did not finish")


@pytest.mark.parametrize("seed", range(12))
def test_random_tournaments_keep_to_the_rules(seed):
    rng = random.Random(seed)
    rules = tournament_rules(BLACKPOOL)
    verdicts = random_tournament(BLACKPOOL, rng.choice([8, 16, 18, 20, 24]), rng)
    final = verdicts[-1][2].tournament
    assert final.stage == "finished" and final.winner is not None
    qualifying = final.of_round("qualifying")
    assert len(qualifying) <= rules.tables_max
    for before, event, verdict in verdicts:
        after = verdict.tournament
        if not verdict.legal:
            assert after == before and not verdict.events
            continue
        assert len(after.pool) < rules.table_seats
        assert len(set(playing_at(after))) == len(playing_at(after))
        assert not set(after.pool) & set(playing_at(after))
        if event["type"] == "buy_in" and verdict.legal:
            joined = [e for e in verdict.events if e.type == "joined_pool"]
            assert [e.player for e in joined] == [event["player"]]
            formed = [e for e in verdict.events if e.type == "table_formed"]
            assert bool(formed) == (len(before.pool) + 1 == rules.table_seats)
        if event["type"] == "buy_in" and len(before.of_round("qualifying")) >= rules.tables_max:
            assert not verdict.legal
    # the semi-finals, when played, seat every qualifying winner once and send two through each
    semis = final.of_round("semi_final")
    winners = [q.winners[0] for q in qualifying]
    if semis:
        assert sorted(p for s in semis for p in s.seats) == sorted(winners)
        assert len(semis) == rules.semi_finals
        assert all(len(s.winners) == min(rules.advance_per_semi_final, len(s.seats)) for s in semis)
    finals = final.of_round("final")
    if len(winners) > 1:
        assert finals[0].seats == tuple(p for s in semis for p in s.winners) if semis else tuple(winners)
        assert final.winner == finals[0].winners[0]


def test_eight_tables_then_semi_finals_of_four_and_a_final_of_four():
    rng = random.Random(7)
    rules = tournament_rules(BLACKPOOL)
    for _ in range(20):  # heavy buying in fills every table the rules allow
        final = random_tournament(BLACKPOOL, 20, rng, buy_in_share=0.95)[-1][2].tournament
        if len(final.of_round("qualifying")) == rules.tables_max:
            break
    else:
        raise AssertionError("no tournament reached the most tables")
    assert [len(s.seats) for s in final.of_round("semi_final")] == [4, 4]
    assert len(final.of_round("final")[0].seats) == rules.semi_finals * rules.advance_per_semi_final


def test_the_numbers_are_the_variants_parameters():
    """Under house rules of tables of three, at most four of them and one semi-final sending three
    through, the third buy-in starts a table and the fifth table is refused."""
    variant = load_variant("british_blackpool", {"tournament": {"table_seats": 3, "tables_max": 4, "semi_finals": 1,
                                                                "advance_per_semi_final": 3}})
    t = read_tournament(start(9, 3), variant)
    for table, player in (("T1", "P1"), ("T2", "P4"), ("T3", "P7")):
        verdict = step(variant, t, {"type": "buy_in", "table": table, "player": player})
        t = verdict.tournament
    assert [x.id for x in t.tables] == ["T1", "T2", "T3", "T4"] and t.tables[3].seats == ("P1", "P4", "P7")
    refused = step(variant, t, {"type": "buy_in", "table": "T1", "player": "P2"})
    assert not refused.legal and refused.violations[0].clause == "buyin.blackpool_moves_to_new_table"
    for table, winner in (("T1", "P2"), ("T2", "P5"), ("T3", "P8")):
        t = step(variant, t, {"type": "table_won", "table": table, "winners": [winner]}).tournament
    t = step(variant, t, {"type": "table_won", "table": "T4", "winners": ["P4"]}).tournament
    assert t.stage == "semi_finals" and t.tables[-1].seats == ("P2", "P5", "P8", "P4")
    one = step(variant, t, {"type": "table_won", "table": "S1", "winners": ["P2", "P5"]})
    assert not one.legal and one.violations[0].clause == "tournament.blackpool_semis_and_final"
    t = step(variant, t, {"type": "table_won", "table": "S1", "winners": ["P2", "P5", "P4"]}).tournament
    assert t.stage == "final" and t.tables[-1].seats == ("P2", "P5", "P4")


def test_a_variant_without_a_tournament_format_is_refused():
    with pytest.raises(MalformedInput) as exc:
        read_tournament(start(8), load_variant("british"))
    assert exc.value.problems[0].pointer == "/variant"


def test_an_event_naming_what_the_tournament_lacks_is_malformed():
    t = read_tournament(start(8), BLACKPOOL)
    for event, where in (({"type": "buy_in", "table": "T9", "player": "P1"}, "/table"),
                         ({"type": "buy_in", "table": "T1", "player": "P5"}, "/player"),
                         ({"type": "table_won", "table": "T2", "winners": ["P1"]}, "/winners/0")):
        with pytest.raises(MalformedInput) as exc:
            adjudicate_tournament(BLACKPOOL, t, read_tournament_event(event))
        assert exc.value.problems[0].pointer == where


@pytest.mark.parametrize("change, where", [
    (lambda d: d["tables"][0].update(seats=["P1", "P2", "P3", "P4", "P9"]), "/tables/0/seats"),
    (lambda d: d["tables"][1].update(seats=["P1", "P6", "P7", "P8"]), "/tables/1/seats"),
    (lambda d: d.update(pool=["P1"]), "/pool/0"),
    (lambda d: d.update(winner="P1"), "/winner"),
    (lambda d: d["tables"][0].update(winners=["P1"]) or d["tables"][1].update(winners=["P5"]), "/stage"),
    (lambda d: d["tables"][0].update(left=["P9"]), "/tables/0/left"),
])
def test_impossible_tournaments_are_named(change, where):
    data = start(8)
    change(data)
    with pytest.raises(ImpossibleState) as exc:
        read_tournament(data, BLACKPOOL)
    assert where in [p.pointer for p in exc.value.problems]


def test_the_check_accepts_a_fresh_tournament():
    t = read_tournament(start(20), BLACKPOOL)
    assert check_tournament(t, BLACKPOOL, tournament_rules(BLACKPOOL)) == []


def test_tables_are_named_in_order():
    data = start(8)
    data["tables"][1]["id"] = "T5"
    with pytest.raises(MalformedInput) as exc:
        read_tournament(data, BLACKPOOL)
    assert exc.value.problems[0].pointer == "/tables/1/id"


# -- over HTTP ---------------------------------------------------------------------------------

def test_the_endpoint_answers_the_verdict(client):
    body = {"variant": "british_blackpool", "tournament": start(8), "event": {"type": "buy_in", "table": "T1", "player": "P2"}}
    r = client.post("/v1/tournaments", json=body)
    assert r.status_code == 200
    answer = r.get_json()
    assert answer["legal"] is True and answer["tournament"]["pool"] == ["P2"]
    assert answer["events"] == [{"type": "joined_pool", "player": "P2", "table": "T1",
                                 "clause": "buyin.blackpool_moves_to_new_table"}]
    assert client.post("/v1/tournaments", json=body).data == r.data  # same request, same bytes
    assert "tournaments" in client.get("/v1/capabilities").get_json()["endpoints"]


@pytest.mark.parametrize("body, status, where", [
    ({"variant": "british", "tournament": start(8), "event": {"type": "buy_in", "table": "T1", "player": "P2"}},
     422, "/variant"),
    ({"variant": "british_blackpool", "tournament": start(8), "event": {"type": "buy_in", "table": "T7", "player": "P2"}},
     422, "/event/table"),
    ({"variant": "british_blackpool", "tournament": start(8), "event": {"type": "table_won", "table": "T1", "winners": ["P5"]}},
     422, "/event/winners/0"),
    ({"variant": "british_blackpool", "tournament": {**start(8), "pool": ["P1"]},
      "event": {"type": "table_won", "table": "T1", "winners": ["P2"]}}, 422, "/tournament/pool/0"),
    ({"variant": "british_blackpool", "tournament": start(8), "event": {"type": "promote", "table": "T1"}},
     422, "/event"),
    ({"variant": "british_blackpool", "tournament": {**start(8), "stage": "over"},
      "event": {"type": "buy_in", "table": "T1", "player": "P2"}}, 422, "/tournament/stage"),
    ({"variant": "british_blackpool", "tournament": start(8), "event": {"type": "buy_in", "table": "T1", "player": "P2"},
      "rules": {"tournament": {"tables_max": 0}}}, 422, "/rules/tournament/tables_max"),
])
def test_bad_requests_are_problems_with_pointers(client, body, status, where):
    r = client.post("/v1/tournaments", json=body)
    assert r.status_code == status and r.mimetype == "application/problem+json"
    pointers = [e["pointer"] for e in r.get_json()["errors"]]
    assert any(p == where or p.startswith(where + "/") for p in pointers), pointers
