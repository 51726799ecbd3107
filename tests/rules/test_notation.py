"""The position notation (rules/wire/notation.py, docs/notation.md): every state of the vectors reads back
from its notation as the same canonical wire form; a four-player British position at any point of a
hand fits in a short link; a bad text is refused at the character where reading stopped."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml

from kalooki_referee.rules import action_from_dict, adjudicate, deal, load_variant, state_from_dict
from kalooki_referee.rules.errors import RefereeInputError
from kalooki_referee.rules.legal import legal_actions
from kalooki_referee.rules.wire.legal import listing_wire
from kalooki_referee.rules.wire.notation import NotationError, read, write
from kalooki_referee.rules.views import view_of
from kalooki_referee.rules.wire.state import state_wire
from kalooki_referee.vectors.suite import load_vectors
from tests.support.random_play import _choose

# the characters openapi.yaml lets a notation carry in the QR code's query
QUERY_PATTERN = re.compile(next(p["schema"]["pattern"] for p in yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())["paths"]["/v1/notation/qr.svg"]["get"]["parameters"]
    if p["name"] == "notation"))
ORIGIN = "https://kalooki-referee.example"   # a link is ORIGIN + "/#p=" + the notation
LINK_LIMIT = 400


def _states(value, found):
    """Every hand state held anywhere in a request (under a ``state`` key)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "state" and isinstance(item, dict) and "players" in item:
                found.append(item)
            else:
                _states(item, found)
    elif isinstance(value, list):
        for item in value:
            _states(item, found)
    return found


def _vector_states():
    out, seen = [], set()
    for vector in load_vectors():
        request = vector.data["request"]
        for state in _states(request, []):
            key = (request["variant"], json.dumps(request.get("rules"), sort_keys=True), json.dumps(state, sort_keys=True))
            if key not in seen:
                seen.add(key)
                out.append((vector.id, request["variant"], request.get("rules"), state))
    return out


VECTOR_STATES = _vector_states()


def test_every_possible_state_of_the_vectors_reads_back_from_its_notation():
    read_back = impossible = 0
    forms = set()
    for vid, variant_id, rules, wire in VECTOR_STATES:
        try:
            variant = load_variant(variant_id, rules)
            state = state_from_dict(wire, variant)
        except RefereeInputError:
            impossible += 1   # a position (or house rules) that cannot occur, a 4xx vector: nothing to share
            continue
        canonical = state_wire(state)
        text = write(state, variant_id)
        assert QUERY_PATTERN.fullmatch(text), (vid, text)
        position = read(text)
        assert position.variant == variant_id, vid
        assert position.state == json.loads(json.dumps(canonical)), (vid, text)
        # and the state read is the same position again (its notation is a fixed point)
        assert write(state_from_dict(position.state, variant), variant_id) == text, vid
        read_back += 1
        forms.update(k for k in ("stock_hidden", "hand_number", "calls", "dealer_option", "first_round", "stock_owed")
                     if k in canonical)
        forms.update(k for p in canonical["players"] for k in ("hidden", "calls", "lay_barred") if k in p)
        forms.update(k for k in ("must_use",) if k in canonical["turn"])
        forms.update(["announcement"] if canonical["announcement"] else [])
        forms.update(["result"] if canonical["result"] else [])
        forms.update(["builds"] if canonical["turn"]["builds"] else [])
    print(f"{read_back} states read back, {impossible} impossible ones left out")
    assert read_back > 500
    # the unseen forms and every optional field a vector's state carries were among them
    assert forms >= {"stock_hidden", "hidden", "hand_number", "calls", "dealer_option", "first_round", "stock_owed",
                     "lay_barred", "must_use", "announcement", "builds"}


def _random_positions(hands: int, seed: int):
    """Four-player British positions along random hands (the random player of
    tests/support/random_play.py), to the end of each hand."""
    variant = load_variant("british")
    rng = random.Random(seed)
    for h in range(hands):
        state, _ = deal(variant, ["north", "east", "south", "west"], f"share-{seed}-{h}")
        while True:
            yield variant, state
            if state.phase == "ended":
                break
            verdict = adjudicate(variant, state, action_from_dict(_choose(listing_wire(legal_actions(variant, state))["actions"], rng)))
            assert verdict.legal, verdict
            state = verdict.state


def test_a_four_player_british_position_fits_in_a_short_link():
    longest, count, ended = "", 0, 0
    for variant, state in _random_positions(hands=12, seed=11):
        text = write(state, "british")
        link = f"{ORIGIN}/#p={text}"
        if len(link) > len(longest):
            longest = link
        assert read(text).state == json.loads(json.dumps(state_wire(state)))
        count += 1
        ended += state.phase == "ended"
    print(f"{count} positions ({ended} ended); the longest link has {len(longest)} characters:\n{longest}")
    assert count > 1000 and ended >= 1
    assert len(longest) <= LINK_LIMIT


@pytest.mark.parametrize(("text", "at"), [
    ("", 1),
    ("K2/british", 2),
    ("K1/british/a:ASKH;b:QS/d:1:3/-/-/-/-/", 28),        # no seat 3
    ("K1/british/a:ASKX/d:1:2/-/-/-/-/", 16),             # no suit X
    ("K1/british/a:AS,z/d:1:1/-/-/-/-/", 17),             # no seat mark z
    ("K1/british/a:AS/q:1:1/-/-/-/-/", 17),               # no phase q
    ("K1/british/a:AS/d:1:1/-/-/1r7H8HJK(9H)/-/", 36),    # a joker's reading is JK(=...)
    ("K1/british/a:AS/d:1:1/-/-/-/-/seed/void", 40),      # a result gives the winner
    ("K1/british/a%G1:AS/d:1:1/-/-/-/-/", 13),            # a bad escape
    ("K1/british/a:AS/d:1:1/-/-/-/-/s/extra/more", 38),          # a result is how,winner,...
])
def test_a_bad_text_is_refused_where_reading_stopped(text, at):
    with pytest.raises(NotationError) as caught:
        read(text)
    assert caught.value.at + 1 == at, caught.value.message
    assert caught.value.problems[0].detail.startswith(f"at character {at}:")


def test_names_are_escaped_and_read_back():
    variant = load_variant("british")
    state, _ = deal(variant, ["Zoë", "b/c", "d e", "50%"], "a seed: with spaces/slashes")
    text = write(state, "british")
    assert all(ch.isascii() and ch not in " #\"<>\\^`{|}" for ch in text), text
    assert "Zo%C3%AB:" in text and "b%2Fc:" in text and "50%25:" in text
    assert read(text).state == json.loads(json.dumps(state_wire(state)))


def test_a_seat_view_reads_back_with_its_counts():
    variant = load_variant("british")
    for _, state in _random_positions(hands=1, seed=3):
        if state.phase == "play" and state.melds:
            break
    view = view_of(state, state.players[0].id)
    text = write(view, "british")
    assert "+" in text
    assert read(text).state == json.loads(json.dumps(state_wire(view)))
    assert state_from_dict(read(text).state, variant) == view
