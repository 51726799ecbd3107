"""The rules as resources: GET /v1/sources, /v1/clauses and /v1/variants/{id}/rulings, and every
clause and source a verdict cites resolving through them."""
from __future__ import annotations

from urllib.parse import quote

import pytest
import yaml

from kalooki_referee.rules import all_variants, load_variant
from kalooki_referee.rules.clauses import registry
from kalooki_referee.vectors.suite import load_vectors


def _cited(answer: dict) -> list[dict]:
    """Every citation in an answer: a verdict's violations (a replay's first illegal step's too), a
    meld check's violation, a score sheet's inconsistency."""
    found = list(answer.get("violations") or [])
    for key in ("violation", "inconsistency"):
        if answer.get(key):
            found.append(answer[key])
    if answer.get("first_illegal"):
        found.extend(answer["first_illegal"]["violations"])
    return found


def test_every_clause_and_source_a_verdict_cites_resolves(client):
    """Over all vectors: each cited clause is served by /v1/clauses/{id} with the same statement, each
    cited (document, section) is a source of /v1/sources listing that section, and the clause served
    lists that place among its sources; each ruling named is one of the variant's rulings and decides
    the clause cited (or the rule the variant cites it for)."""
    sources = {s["id"]: s for s in client.get("/v1/sources").get_json()["sources"]}
    clauses, rulings = {}, {}
    checked = 0
    for vector in load_vectors():
        if vector.endpoint == "deal" or vector.expected.get("status", 200) != 200:
            continue
        answer = client.post(f"/v1/{vector.endpoint}", json=vector.data["request"]).get_json()
        for violation in _cited(answer):
            cid = violation["clause"]
            if cid not in clauses:
                response = client.get(f"/v1/clauses/{quote(cid)}")
                assert response.status_code == 200, cid
                clauses[cid] = response.get_json()
            clause = clauses[cid]
            assert clause["id"] == cid and clause["statement"] == violation["statement"]
            served = {(s["document"], s["section"]) for s in clause["sources"]}
            for source in violation["sources"]:
                assert source["document"] in sources, (vector.id, source)
                assert source["section"] in sources[source["document"]]["sections"], (vector.id, source)
                assert (source["document"], source["section"]) in served, (vector.id, cid, source)
            if vector.variant not in rulings:
                rulings[vector.variant] = {r["id"]: r for r in client.get(
                    f"/v1/variants/{vector.variant}/rulings").get_json()["rulings"]}
            variant = load_variant(vector.variant, vector.data["request"].get("rules"))
            for ruling in violation["rulings"]:  # a ruling of the variant that decides the clause cited
                named = rulings[vector.variant][ruling]["clauses"]
                assert cid in named or any(variant.cite(c) == cid for c in named), (vector.id, ruling)
            assert set(violation["rulings"]) <= set(clause["rulings"]), (vector.id, cid)
            checked += 1
    assert checked > 500 and len(clauses) > 50


def test_sources_list_every_document_with_title_address_and_cited_sections(client):
    answer = client.get("/v1/sources").get_json()
    by_id = {s["id"]: s for s in answer["sources"]}
    cited = {(s.document, s.section) for c in registry().values() for s in c.sources}
    cited |= {tuple(text.split(": ", 1)) for v in all_variants() for d in v.decisions for text in d.sources}
    assert {doc for doc, _ in cited} <= set(by_id)
    for doc, section in cited:
        assert section in by_id[doc]["sections"], (doc, section)
    listed = {(doc, s) for doc, src in by_id.items() for s in src["sections"]}
    assert listed == cited  # every section listed is cited somewhere
    for source in answer["sources"]:
        assert source["title"].strip()
        assert source["url"] is None or source["url"].startswith("https://")
        assert client.get(f"/v1/sources/{source['id']}").get_json() == source
    assert by_id["pagat"]["url"] and by_id["guide-eu-na"]["url"] is None


@pytest.mark.parametrize("path", ["/v1/sources/no-such-document", "/v1/clauses/no.such.clause",
                                  "/v1/variants/no_such_variant/rulings", "/v1/clauses/" + "x" * 500])
def test_unknown_ids_are_a_404_problem(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["status"] == 404


def test_clauses_serve_the_registry_with_their_links(client):
    answer = client.get("/v1/clauses").get_json()["clauses"]
    assert [c["id"] for c in answer] == list(registry())
    assert any(c["id"].startswith("referee.") for c in answer)
    by_id = {c["id"]: c for c in answer}
    for cid, clause in by_id.items():
        entry = registry()[cid]
        assert clause["statement"] == entry.statement and clause["kind"] == entry.kind
        assert [(s["document"], s["section"]) for s in clause["sources"]] == \
            [(s.document, s.section) for s in entry.sources]
        for pointer in entry.parameters:
            assert pointer in clause["parameters"], cid
    two_per_end = by_id["build.run_max_two_per_end_per_turn"]
    assert "dec.two_per_end_counting" in two_per_end["rulings"]
    assert "/building/max_per_run_end_per_turn" in two_per_end["parameters"]  # the ruling's switch
    # a clause only a house rule brings in (the referee's statement of the opening minimum) carries the
    # rulings of the clause it stands for, and its parameter
    opening = by_id["referee.opening_minimum"]
    assert "dec.opening_in_one_action" in opening["rulings"] and "/opening/minimum" in opening["parameters"]
    assert client.get("/v1/clauses/referee.opening_minimum").get_json() == opening


def test_variant_rulings_are_its_decisions_with_sources_resolved(client):
    for variant in all_variants():
        answer = client.get(f"/v1/variants/{variant.id}/rulings").get_json()
        assert answer["variant"] == variant.id
        assert [r["id"] for r in answer["rulings"]] == [d.id for d in variant.decisions]
        for served, decision in zip(answer["rulings"], variant.decisions):
            assert served["ruling"] == decision.ruling and served["switch"] == decision.switch
            assert served["clauses"] == list(decision.clauses)
            assert [f"{s['document']}: {s['section']}" for s in served["sources"]] == list(decision.sources)
            assert all(s["title"] for s in served["sources"])


def test_the_new_paths_are_in_the_contract(client):
    document = yaml.safe_load(client.get("/openapi.yaml").data)
    for path in ("/v1/sources", "/v1/sources/{source_id}", "/v1/clauses", "/v1/clauses/{clause_id}",
                 "/v1/variants/{variant_id}/rulings"):
        assert "404" in document["paths"][path]["get"]["responses"] or "{" not in path
    assert "rulings" in document["components"]["schemas"]["Violation"]["required"]


def test_a_variant_that_extends_another_lists_its_parents_clauses_less_those_it_drops(client):
    """GET /v1/variants/{id} of a variant file that ``extends`` another: its clauses are the parent's
    as served, less the file's ``clauses_drop``, with its ``clauses_add`` (read from the file here)."""
    from pathlib import Path
    import kalooki_referee.rules as rules_package
    checked = 0
    for path in sorted((Path(rules_package.__file__).parent / "variants").glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        if not data.get("extends"):
            continue
        served = set(client.get(f"/v1/variants/{data['id']}").get_json()["clauses"])
        parent = set(client.get(f"/v1/variants/{data['extends']}").get_json()["clauses"])
        drop, add = set(data.get("clauses_drop") or ()), set(data.get("clauses_add") or ())
        assert served == (parent - drop) | add, data["id"]
        assert not served & drop, data["id"]
        checked += bool(drop)
    assert checked >= 5  # british_ace_low, british_blackpool, the max variants... drop clauses


def test_each_variant_lists_the_pack_and_deal_of_every_table_it_seats(client):
    """GET /v1/variants' ``tables``: for each player count the variant seats, the cards of a real deal
    at that table make the pack listed, and each seat is dealt the cards listed (what the page counts
    a position's unseen cards from)."""
    from kalooki_referee.rules.deal import deal
    from kalooki_referee.rules.state import listed_cards

    listed = client.get("/v1/variants").get_json()["variants"]
    assert {v["id"] for v in listed} == {v.id for v in all_variants()}
    for summary in listed:
        variant = load_variant(summary["id"])
        seats = range(variant.rules.players.min, variant.rules.players.max + 1)
        assert sorted(summary["tables"], key=int) == [str(n) for n in seats], summary["id"]
        assert client.get(f"/v1/variants/{summary['id']}").get_json()["tables"] == summary["tables"]
        for n in seats:
            state, _ = deal(variant, [f"P{i}" for i in range(n)], "tables")
            table = summary["tables"][str(n)]
            assert len(listed_cards(state)) == table["pack"], (summary["id"], n)
            dealer = state.players.index(next(p for p in state.players if p.id == state.dealer))
            others = [p for i, p in enumerate(state.players) if i != dealer]
            assert {len(p.hand) for p in others} == {table["dealt"]}, (summary["id"], n)
            for number, dealt in (table.get("dealt_by_hand") or {}).items():
                numbered, _ = deal(variant, [f"P{i}" for i in range(n)], "tables", hand=int(number))
                assert len(numbered.players[0].hand) == dealt, (summary["id"], n, number)
            assert ("dealt_by_hand" in table) == (variant.rules.contract is not None)
