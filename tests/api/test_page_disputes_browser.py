"""The page settles a dispute at a real table, in a real browser, at a phone's size and a desktop's
(issue 27): a position of each family of variants set out by tapping alone, a log stepped through and
branched with "what could I do here?", a Jamaican call dispute, and a score sheet entered by hand.

The browser, the served referee and the helpers are tests/api/test_page_browser.py's.  What the page
should say is asked of the same server's API, never written here."""
from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from tests.api.test_page_browser import (  # noqa: F401 - fixtures used by name
    ARTIFACTS, DESKTOP, PHONE, api, asked, base_url, browser, card_names, open_page, put, wait_settled)

pytestmark = pytest.mark.slow

VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(params=sorted(VIEWPORTS))
def sized(request, open_page):
    """Opens the page at one of the two sizes; (page, size name)."""
    def opener():
        page = open_page("/")
        page.set_viewport_size(VIEWPORTS[request.param])
        return page
    return opener, request.param


def fits(page, size: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORTS[size]["width"], f"{size}: the page scrolls sideways to {width} px"


def shot(page, name: str, size: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{size}-{name}.png"), full_page=size == "desktop")


def verdict_word(answer: dict, action: dict) -> str:
    """The answer's first words: about the player a call is about, else about you."""
    if answer["legal"] is None:
        return "The referee cannot tell from the cards shown."
    who = action["player"] if action["type"] == "call" else "you"
    return f"Yes, {who} may." if answer["legal"] else f"No, {who} may not."


# -- one dispute of each family, set out by tapping ---------------------------------------------------

def _british(page):
    """May a heart go on Player 3's run of clubs?"""
    page.get_by_label("Your question").select_option("build")
    page.get_by_label("Players at the table").select_option("4")
    page.get_by_label("I have already laid my first meld (opened)").check()
    page.get_by_role("button", name="Put another meld on the table").click()
    page.get_by_label("laid by").select_option("Player 3")
    for card in ("the five of clubs", "the six of clubs", "the seven of clubs"):
        put(page, "meld m1 on the table", card)
    put(page, "the cards you want to play", "the eight of hearts")
    put(page, "the rest of your hand", "the king of spades")
    put(page, "the top of the discard pile", "the two of diamonds")


def _uspcc(page):
    """May I take the discard before I have opened, with nothing to meld it with?"""
    page.get_by_label("Your question").select_option("draw")
    for card in ("the two of hearts", "the king of spades", "the seven of clubs"):
        put(page, "the rest of your hand", card)
    put(page, "the top of the discard pile", "the nine of diamonds")


def _uk(page):
    """May the ten of diamonds take the joker from a set that already holds a diamond?"""
    page.get_by_label("Your question").select_option("swap")
    page.get_by_label("I have already laid my first meld (opened)").check()
    page.get_by_role("button", name="Put another meld on the table").click()
    for card in ("the ten of spades", "the ten of diamonds", "a joker"):
        put(page, "meld m1 on the table", card)
    page.get_by_label("It is", exact=True).select_option("set")
    put(page, "the cards you want to play", "the ten of diamonds")
    put(page, "the rest of your hand", "the four of clubs")
    put(page, "the top of the discard pile", "the two of diamonds")


def _denexa(page):
    """May I open with four fives and three kings (50 points)?"""
    page.get_by_label("Your question").select_option("meld")
    for card in ("the five of spades", "the five of hearts", "the five of diamonds", "the five of clubs"):
        put(page, "the cards you want to play", card)
    put(page, "the rest of your hand", "the two of clubs")
    put(page, "the top of the discard pile", "the nine of hearts")


def _jamaican(page):
    """Hand 3: may Player 4 call back the eight of hearts they have just thrown?"""
    page.get_by_label("Your question").select_option("call")
    page.get_by_label("Which hand of the game").select_option("3")
    page.get_by_label("Which player").select_option("Player 4")
    for card in ("the two of hearts", "the king of spades", "the seven of clubs"):
        put(page, "the rest of your hand", card)
    put(page, "the top of the discard pile", "the eight of hearts")


FAMILIES = {"British": ("british", _british), "USPCC": ("north_american_uspcc", _uspcc),
            "kalooki.co.uk": ("kalooki_co_uk", _uk), "Denexa": ("denexa_caloochi", _denexa),
            "Jamaican": ("jamaican", _jamaican)}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_dispute_of_each_family_is_set_out_by_tapping_and_answered_in_words(sized, base_url, family):
    from playwright.sync_api import expect
    opener, size = sized
    page = opener()
    variant, set_out = FAMILIES[family]
    page.get_by_label("Variant", exact=True).select_option(variant)
    set_out(page)
    request, answer = asked(page)
    status, verdict = api(base_url, "/v1/adjudicate", request)  # the referee reads it as the page did
    assert status == 200 and verdict == answer
    box = page.locator("#build-answer .verdict")
    expect(box).to_contain_text(verdict_word(answer, request["action"]))
    expect(box).to_contain_text(page.get_by_label("Your question").locator("option:checked").inner_text())
    for v in answer.get("violations", []):
        expect(box.locator(f".violation[data-clause='{v['clause']}']")).to_contain_text(v["statement"])
    for e in answer.get("events", []) if answer["legal"] else []:
        if "player" in e:
            expect(box).to_contain_text(e["player"])
    assert answer["legal"] is False, f"{family}: the sample position should be a refusal, got {answer}"
    if variant == "jamaican":
        _, variants = api(base_url, "/v1/variants")
        row = next(v for v in variants["variants"] if v["id"] == "jamaican")["parameters"]["contract"]["hands"]["3"]
        assert request["state"]["hand_number"] == 3 and request["action"] == {"type": "call", "player": "Player 4"}
        others = [p.get("hidden") for p in request["state"]["players"][1:]]
        assert others == [row["cards"]] * 3
        expect(page.locator("#build-contract")).to_contain_text(f"{row['cards']} cards dealt")
    if family == "British":
        assert request["state"]["melds"][0]["owner"] == "Player 3"
    fits(page, size)
    shot(page, f"family-{variant}", size)
