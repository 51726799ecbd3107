"""Cards by URL: GET /v1/cards/{code}.svg draws every card of every variant's pack (at every table
size), the joker with and without the card it stands for, and the back, as standalone SVG named in
words; the pictures are cacheable (ETag, immutable); the page shows these pictures and draws no card
itself."""
from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from kalooki_referee.api import create_app
from kalooki_referee.api.cards import CACHE_CONTROL
from kalooki_referee.rules.cards import pack
from kalooki_referee.rules.wire.variant import all_variants

SVG = "{http://www.w3.org/2000/svg}"
STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
SUIT_WORDS = {"S": ("spades", "\u2660"), "H": ("hearts", "\u2665"), "D": ("diamonds", "\u2666"), "C": ("clubs", "\u2663")}
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
              "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}


def _every_code() -> list[str]:
    codes: set[str] = set()
    for variant in all_variants():
        packs = [variant.rules.pack] + [variant.rules.pack.for_players(n) for n in range(2, 13)]
        for p in packs:
            codes |= set(pack(p.decks, p.jokers))
    return sorted(codes)


CODES = _every_code()


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


def _picture(client, code: str) -> tuple[ET.Element, object]:
    answer = client.get(f"/v1/cards/{code}.svg")
    assert answer.status_code == 200, code
    assert answer.mimetype == "image/svg+xml"
    root = ET.fromstring(answer.get_data())
    assert root.tag == SVG + "svg" and root.get("role") == "img" and root.get("viewBox") == "0 0 60 84"
    assert root.find(SVG + "title").text == root.get("aria-label")
    return root, answer


def test_the_packs_hold_every_natural_and_the_joker():
    assert len(CODES) == 53 and "JK" in CODES and "10H" in CODES


@pytest.mark.parametrize("code", CODES)
def test_every_card_of_every_pack_is_drawn(client, code):
    root, answer = _picture(client, code)
    texts = [t.text for t in root.iter(SVG + "text")]
    if code == "JK":
        assert root.get("aria-label") == "a joker" and "JOKER" in texts and "joker" in root.get("class").split()
        return
    rank, suit = code[:-1], code[-1]
    word, symbol = SUIT_WORDS[suit]
    assert root.get("aria-label") == f"the {RANK_WORDS[rank]} of {word}"
    assert texts == [rank, symbol, symbol]
    colour = "red" if suit in "HD" else "black"
    assert colour in root.get("class").split()
    fills = {g.get("fill") for g in root.iter(SVG + "g")}
    assert fills == ({"#b3261e"} if colour == "red" else {"#111"})


def test_a_joker_standing_for_a_card_and_the_back(client):
    root, _ = _picture(client, "JK(=7H)")
    assert root.get("aria-label") == "a joker standing for the seven of hearts"
    assert "= 7\u2665" in [t.text for t in root.iter(SVG + "text")]
    root, _ = _picture(client, "JK(=10)")
    assert root.get("aria-label") == "a joker standing for a ten"
    root, _ = _picture(client, "back")
    assert root.get("aria-label") == "the back of a card" and not list(root.iter(SVG + "text"))


@pytest.mark.parametrize("code,same_as", [("TS", "10S"), ("0H", "10H"), ("JK(=TC)", "JK(=10C)"), ("JK(=0)", "JK(=10)")])
def test_a_ten_written_t_or_0_is_the_same_picture(client, code, same_as):
    assert client.get(f"/v1/cards/{code}.svg").get_data() == client.get(f"/v1/cards/{same_as}.svg").get_data()


def test_a_picture_is_cacheable_and_revalidates(client):
    _, answer = _picture(client, "QS")
    etag = answer.headers["ETag"]
    assert etag and answer.headers["Cache-Control"] == CACHE_CONTROL and "immutable" in CACHE_CONTROL
    again = client.get("/v1/cards/QS.svg", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    other = client.get("/v1/cards/QH.svg", headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.headers["ETag"] != etag


@pytest.mark.parametrize("code", ["1S", "JK(=1)", "11H", "KX", "front", "9h "])
def test_what_is_not_a_card_is_a_404_problem(client, code):
    answer = client.get(f"/v1/cards/{code}.svg")
    assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
    assert answer.get_json()["type"].endswith("/not-found")


def test_the_page_shows_the_served_pictures_and_draws_no_card_itself():
    script = (STATIC / "cards.js").read_text()
    assert "`/v1/cards/${encodeURIComponent(code)}.svg`" in script and 'el("image", {href: url(code)' in script
    assert 'el("image", {href: url("back")' in script
    for drawn in ('"JOKER"', "\\u2605", "joker-face", "back-inner", "card-rank"):  # the drawings live in api/cards.py
        assert drawn not in script, drawn
