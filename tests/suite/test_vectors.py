"""Every vector once through the engine directly (the adjudications) and once through the Flask test
client; the suite's files are linted and up to date with their sources; the export gives the same
vectors as the grouped files with their manifests; and every hand-level and game-level clause is
covered as its kind asks.  Running the suite again over a real HTTP server, and against a
deliberately wrong implementation, are slow checks (tests/suite/test_conformance.py)."""
from __future__ import annotations

import copy
import json

import pytest

from kalooki_referee.rules.wire import contract as openapi
from kalooki_referee.rules import action_from_dict, adjudicate, load_variant, state_from_dict, variant_ids
from kalooki_referee.rules.errors import RefereeInputError
from kalooki_referee.rules.game import GameVerdict, adjudicate_game
from kalooki_referee.rules.wire.game import game_verdict_wire, read_game, read_game_action
from kalooki_referee.rules.wire.verdicts import verdict_wire
from kalooki_referee.vectors import build, lint
from kalooki_referee.vectors.coverage import coverage, format_report
from kalooki_referee.vectors.runner import in_process_poster, run_vector
from kalooki_referee.vectors.suite import ROOT, compare, load_vectors, with_variant_rulings

VECTORS = load_vectors()
ADJUDICATE = [v for v in VECTORS if v.endpoint == "adjudicate"]


def test_suite_has_vectors():
    assert len(VECTORS) >= 50
    assert {v.variant for v in VECTORS} >= {"british"}


@pytest.fixture(scope="module")
def poster():
    return in_process_poster()


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.id)
def test_vector_over_flask(poster, vector):
    outcome, detail = run_vector(poster, vector)
    assert outcome == "pass", detail


def _engine_answer(vector):
    """The answer of the rules core called directly, after the edge's one shape check (the core
    takes values that match openapi.yaml)."""
    req = vector.data["request"]
    try:
        openapi.validate("AdjudicateRequest", req)
        if "game" in req:
            rules = dict(req.get("rules") or {})
            stakes = rules.pop("stakes", None)
            variant = load_variant(req["variant"], rules)
            game = read_game(req["game"], variant)
            verdict = adjudicate_game(variant, game, read_game_action(req["action"]), stakes)
        else:
            variant = load_variant(req["variant"], req.get("rules"))
            state = state_from_dict(req["state"], variant)
            action = action_from_dict(req["action"])
            verdict = adjudicate(variant, state, action)
    except RefereeInputError as exc:
        return 422, {"errors": [p.to_dict() for p in exc.problems]}
    # a round trip through JSON, as a client would see it
    answer = game_verdict_wire(verdict) if isinstance(verdict, GameVerdict) else verdict_wire(verdict)
    return 200, json.loads(json.dumps(answer))


@pytest.mark.parametrize("vector", ADJUDICATE, ids=lambda v: v.id)
def test_vector_through_engine(vector):
    status, body = _engine_answer(vector)
    if vector.expected.get("status", 200) >= 400:
        # the engine reports pointers relative to the part it read; only the status is comparable here
        assert status >= 400
        return
    diffs = compare(vector, status, body)
    assert not diffs, str(diffs[0])


def test_vector_files_lint_clean():
    assert lint.lint() == []


def _vector(hand_p3: list[str], rules=None, composed=None, expected=None) -> dict:
    """A plain vector of a British position (P1 has laid three kings; P2 to draw), P3 holding ``hand_p3``."""
    src = {"id": "british.x.y", "description": "a position", "clauses": ["referee.hand_sizes"],
           "source": [{"document": "pagat", "section": "The play"}],
           "setup": {"players": [{"id": "P1", "hand": ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"],
                                  "opened": True},
                                 {"id": "P2", "hand": ["QS", "AS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H",
                                                       "10H", "JH", "QH"]},
                                 {"id": "P3", "hand": hand_p3},
                                 {"id": "P4", "hand": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC",
                                                       "QC", "AC", "KC"]}],
                     "melds": [{"id": "m1", "owner": "P1", "kind": "set", "cards": ["KS", "KH", "KD"]}],
                     "dealer": "P4", "to_act": "P2", "phase": "draw", "discard": ["KC"]},
           "action": {"type": "draw", "source": "stock"}, "expected": expected or {"legal": True}}
    if rules:
        src["rules"] = rules
    request, _ = build._request(src, "british", "test")
    vector = {"id": src["id"], "endpoint": "adjudicate", "request": request, "expected": src["expected"]}
    if composed:
        vector["composed"] = composed
    return vector


THIRTEEN = ["AH", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "AD"]


def test_the_lint_names_a_position_that_does_not_add_up_unless_it_is_marked_composed():
    assert lint.count_problems(_vector(THIRTEEN)) == []
    short = lint.count_problems(_vector(THIRTEEN[:-1]))
    assert len(short) == 1 and "/state/players/2/hand: P3 should hold 13 cards: 13 dealt; P3 holds 12" in short[0]
    # marked composed: both halves of the mark, or the lint names the half missing
    not_counted = {"positions": {"counted": False}}
    assert lint.count_problems(_vector(THIRTEEN[:-1], not_counted, "a puzzle with a short hand")) == []
    assert "does not say why" in lint.count_problems(_vector(THIRTEEN[:-1], not_counted))[0]
    assert "does not send positions.counted false" in lint.count_problems(_vector(THIRTEEN[:-1], composed="a puzzle"))[0]
    # a vector expecting the position's refusal is impossible on purpose
    refused = {"status": 422, "problem": "impossible-state", "problems": ["/state/players/2/hand"]}
    assert lint.count_problems(_vector(THIRTEEN[:-1], expected=refused)) == []


def test_the_committed_suite_is_small():
    # the suite an implementer takes (the grouped files and manifests of every variant, the Jamaican
    # ones included), without the maintainers' YAML sources: under 2 MB
    size = sum(p.stat().st_size for p in ROOT.glob("*/*.json"))
    assert size < 2_000_000, size


# The whole export (every vector, the same ids and data, read back and linted) is checked once, in
# tests/suite/test_suite_export.py, whose module fixture exports the suite a single time.


def test_inheritance_is_resolved_from_the_manifests():
    manifests = {p.parent.name: json.loads(p.read_text()) for p in ROOT.glob("*/inherited.json")}
    assert len(manifests) == 22 and all("inherits" in m and "groups" not in m for m in manifests.values())
    by_variant = {}
    for v in VECTORS:
        by_variant.setdefault(v.variant, []).append(v)
    for variant, manifest in manifests.items():
        spec = manifest["inherits"]
        parent = {v.id: v for v in by_variant[spec["from"]]}
        inherited = [v for v in by_variant[variant] if v.file == f"{variant}/inherited.json"]
        assert inherited, variant
        excluded_ids = {e["id"] for e in spec["exclude"]}
        excluded_clauses = {e["clause"] for e in spec["exclude_clauses"]}
        for v in inherited:
            origin = parent[v.data["description"].rsplit("(Inherited from ", 1)[1].rstrip(".)")]
            assert origin.id not in excluded_ids and not set(origin.data["clauses"]) & excluded_clauses
            # the parent's expectation, with the rulings the manifest gives for this variant (the
            # variant file's: a decision of its own may touch a clause the parent's does not)
            expected = copy.deepcopy(origin.expected)
            with_variant_rulings(expected, spec["rulings"])
            assert v.expected == expected and v.data["clauses"] == origin.data["clauses"]
            for i, clause in enumerate(expected.get("violations", [])):
                assert spec["rulings"].get(clause, []) == list(load_variant(variant).rulings(clause))
            assert v.data["request"]["variant"] == variant
        names = {v.data["description"].rsplit("(Inherited from ", 1)[1].rstrip(".)") for v in inherited}
        for pid in excluded_ids:
            assert pid not in names


HAND_LEVEL_DONE = variant_ids()  # every variant present is covered in full (a preview: what it enforces)
GAME_LEVEL_DONE = variant_ids()


def _gaps(variant: str, level: str):
    rows = coverage(VECTORS, variant, level=level)
    pending = set(load_variant(variant).not_enforced)
    return rows, [r for r in rows if not r.covered and r.clause not in pending]


@pytest.mark.parametrize("variant", HAND_LEVEL_DONE)
def test_every_hand_level_clause_is_covered(variant):
    rows, gaps = _gaps(variant, "hand")
    assert rows, "no hand-level clauses found for the variant"
    assert not gaps, format_report(gaps, variant)


@pytest.mark.parametrize("variant", GAME_LEVEL_DONE)
def test_every_game_level_clause_is_covered(variant):
    rows, gaps = _gaps(variant, "game")
    assert rows, "no game-level clauses found for the variant"
    assert not gaps, format_report(gaps, variant)


@pytest.mark.parametrize("variant", [v for v in variant_ids() if load_variant(v).status == "preview"])
def test_a_preview_lists_the_clauses_it_does_not_enforce_and_says_so_in_the_api(variant):
    from kalooki_referee.api import create_app
    v = load_variant(variant)
    assert v.not_enforced and set(v.not_enforced) <= set(v.clauses)
    client = create_app().test_client()
    assert client.get("/v1/capabilities").get_json()["previews"][variant] == list(v.not_enforced)
    listed = {s["id"]: s for s in client.get("/v1/variants").get_json()["variants"]}
    assert listed[variant]["status"] == "preview" and listed[variant]["not_enforced"] == list(v.not_enforced)
    assert all(s["status"] == "complete" and not s["not_enforced"] for k, s in listed.items()
               if load_variant(k).status != "preview")


def test_coverage_detects_a_gap():
    # Drop every vector citing one action clause: coverage must report it uncovered.
    victim = "draw.only_top_card"
    kept = [v for v in VECTORS if victim not in v.data["clauses"]]
    rows = {r.clause: r for r in coverage(kept, "british", level="hand")}
    assert not rows[victim].covered


def test_every_endpoint_of_the_capabilities_has_vectors():
    from kalooki_referee.vectors.runner import in_process_target
    status, caps = in_process_target().get("/v1/capabilities")
    assert status == 200
    assert caps["vector_suite"]["version"] == (ROOT / "VERSION").read_text().strip()
    endpoints = {v.endpoint for v in VECTORS}
    assert set(caps["endpoints"]) <= endpoints, set(caps["endpoints"]) - endpoints
    replay = [v.expected.get("response", {}) for v in VECTORS if v.endpoint == "replay"]
    assert any("/first_illegal/index" in r for r in replay)  # the first illegal step
    assert any("/altered/index" in r for r in replay)  # an altered hash
    assert any("/final/result/winner" in r for r in replay)  # a hand played to its end
    assert len([v for v in VECTORS if v.endpoint == "legal-actions"]) >= 12
    # a refused request names its problem's code as well as its pointers
    for v in VECTORS:
        if v.expected.get("status", 200) >= 400:
            assert v.expected.get("problem") and v.expected.get("problems"), v.id


def test_every_scoring_model_has_score_sheet_vectors():
    models = {load_variant(v).rules.scoring.model for v in variant_ids()}
    covered = {load_variant(v.variant).rules.scoring.model for v in VECTORS
               if v.endpoint == "scoresheet" and v.expected.get("status", 200) == 200}
    assert models <= covered, models - covered


# The listing's order, stated here on its own: by kind (an owed announcement or a call out of turn;
# a draw, the dealer's pass or allowing a call; melds; builds; joker exchanges; discards), then by the
# wire form written as JSON with sorted keys.
KIND_RANK = {"announce": 0, "call": 0, "draw": 1, "pass": 1, "allow": 1, "meld": 2, "build": 3, "swap_joker": 4,
             "discard": 5}


@pytest.mark.parametrize("vector", [v for v in VECTORS if v.endpoint == "legal-actions"
                                    and v.expected.get("status", 200) == 200], ids=lambda v: v.id)
def test_a_legal_actions_vector_lists_only_accepted_actions_in_canonical_order(vector):
    # the recorded listings are not taken on trust: every action listed is one the engine accepts
    # in that position, the order is the canonical one, a cut list keeps every discard, and an
    # uncut list is what checking every candidate with the engine gives
    from kalooki_referee.rules.legal import legal_actions
    from kalooki_referee.rules.wire.legal import listing_wire
    req = vector.data["request"]
    variant = load_variant(req["variant"], req.get("rules"))
    state = state_from_dict(req["state"], variant)
    cap = req.get("cap", 400)
    listed = vector.expected["response"].get("/actions")
    if listed is None:  # a vector that states some places of a long listing: the referee's listing, checked
        listed = listing_wire(legal_actions(variant, state, cap))["actions"]
        for where, action in vector.expected["response"].items():
            if where.startswith("/actions/"):
                assert listed[int(where.rsplit("/", 1)[1])] == action, where
    assert len(listed) <= cap
    for action in listed:
        assert adjudicate(variant, state, action_from_dict(action)).legal, action
    keys = [(KIND_RANK[a["type"]], json.dumps(a, sort_keys=True)) for a in listed]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    if vector.expected["response"]["/truncated"]:
        if state.phase == "play" and not state.turn.must_use and not state.turn.pending_jokers:
            assert any(a["type"] == "discard" for a in listed)  # a cut list stays playable
    else:
        assert listing_wire(legal_actions(variant, state, cap, verify_all=True))["actions"] == listed
