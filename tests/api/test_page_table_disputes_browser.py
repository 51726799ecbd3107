"""Twenty everyday disputes at a Kalooki table (the acceptance list of the page: each with the ruling its
source document requires), asked on the page at a phone's size (390x844) by tapping and typing alone, each
also with other cards or under another variant of the same family.

Each test sets the dispute out as a player would, asks, and checks the ruling the rules require (the
dispute's, as the table-disputes list states it), that the answer reads in plain words (no card code,
meld id, JSON pointer, status number or API word outside "details") and that the answer is on screen,
without scrolling, once asked.  Screenshots: test-artifacts/dispute-<number>-<case>.png.

The browser, the served referee and the helpers are tests/api/test_page_browser.py's."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.api.test_page_browser import (  # noqa: F401 - fixtures used by name
    ARTIFACTS,
    PHONE,
    base_url,
    browser,
    card_names,
    open_page,
    put,
)

pytestmark = pytest.mark.slow

ORDINALS = ["first", "second", "third", "fourth"]
# words a player does not use: card codes, meld ids, pointers, status numbers, the API's own words
NOT_PLAIN = re.compile(r"\b(?:10|[2-9AKQJ])[SHDC]\b|\bJK\b|\bm\d+\b|/state|/action|\b(?:400|404|405|413|415|422|500)\b|\bstateless\b|"
                       r"\bpointer\b|\bJSON\b|\bnull\b|\btrue\b|\bfalse\b|\bswap_joker\b|\b\w+_\w+\b|[{}]")


# -- setting a dispute out by tapping -------------------------------------------------------------------

def ask_about(page, variant: str, question: str) -> None:
    page.get_by_label("Variant", exact=True).select_option(variant)
    page.get_by_label("Your question").select_option(question)


def words(code: str) -> str:
    return "a joker" if code == "JK" else card_names([code])


def lay(page, area: str, codes: list[str]) -> None:
    for code in codes:
        put(page, area, words(code))


def opened(page) -> None:
    page.get_by_label("I have already come down (laid my first meld)").check()


def table_meld(page, owner: str, codes: list[str], kind: str | None = None) -> None:
    """Puts a meld on the table, laid by `owner` ("you" or "Player 2"...), its cards tapped in."""
    page.get_by_role("button", name="Put another meld on the table").click()
    meld = page.locator(".build-meld").last
    index = page.locator(".build-meld").count() - 1
    meld.get_by_label("laid by").select_option(owner)
    if kind:
        meld.get_by_label("It is", exact=True).select_option(kind)
    lay(page, f"the {ORDINALS[index]} meld on the table", codes)


def new_melds(page, melds: list[list[str]]) -> None:
    """Your new melds: the first in "the cards you want to play", each further one after "Lay another meld"."""
    lay(page, "the cards you want to play", melds[0])
    for i, cards in enumerate(melds[1:], start=1):
        page.get_by_role("button", name="Lay another meld as well").click()
        lay(page, f"your {ORDINALS[i]} new meld", cards)


def asked(page) -> tuple[dict, dict]:
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/adjudicate") as info:
        page.get_by_role("button", name="Ask the referee").click()
    assert info.value.status == 200, info.value.text()
    return info.value.request.post_data_json, info.value.json()


def plain_answer(page) -> str:
    """The answer's words outside its "details" controls."""
    return page.locator("#build-verdict").evaluate(
        "(n) => { const c = n.cloneNode(true); c.querySelectorAll('details, button').forEach(d => d.remove());"
        " return c.innerText; }")


def check_answer(page, answer: dict, legal: bool, name: str, *phrases: str) -> str:
    assert answer["legal"] is legal, answer
    words = plain_answer(page)
    first = words.split("\n")
    assert ("Yes," if legal else "No,") in words, words
    assert not NOT_PLAIN.search(words), (NOT_PLAIN.search(words).group(0), words)
    for phrase in phrases:
        assert phrase.lower() in words.lower(), (phrase, words)
    # on screen once asked: the verdict's first words are in the viewport, with nothing to scroll
    box = page.locator("#build-verdict").get_by_text(re.compile(r"^(Yes|No),")).first.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dispute-{name}.png"))
    return "\n".join(first)


@pytest.fixture
def phone(open_page):
    def opener():
        page = open_page("/")
        page.set_viewport_size(PHONE)
        return page
    return opener


# -- British club game (000) -----------------------------------------------------------------------------

# Disputes 1, 2 and 11 are asked as a table knows them: some of the player's cards unseen.  The page asks
# the whole turn, and the referee reads it whole: the turn lays the opening or meld the taking needs (2),
# or throws a card without it (1, 11), whatever the unseen cards are.


@pytest.mark.parametrize("variant,discard,hand", [("british", "9C", ["2H", "5S", "KD"]),
                                                  ("british_max301", "4D", ["7H", "QS", "3C"])])
def test_01_keeping_the_discard_before_coming_down_is_refused(phone, variant, discard, hand):
    page = phone()
    ask_about(page, variant, "draw")
    lay(page, "the rest of your hand", hand[1:])
    lay(page, "the card you throw", hand[:1])
    lay(page, "the top of the discard pile", [discard])
    request, answer = asked(page)
    assert request["action"]["actions"] == [{"type": "draw", "source": "discard"}, {"type": "discard", "card": hand[0]}]
    check_answer(page, answer, False, f"01-{variant}", "40")


def test_01_as_told_mark_asking_frank_dealing(phone):
    """The dispute's own table: Mark asks, the seats on his left are John, Frank and Andy, and Frank dealt."""
    page = phone()
    ask_about(page, "british", "draw")
    page.get_by_label("Their names, you first (optional)").fill("Mark, John, Frank, Andy")
    page.get_by_label("Who dealt this hand").select_option(label="Frank")
    lay(page, "the card you throw", ["2H"])
    lay(page, "the top of the discard pile", ["9C"])
    request, answer = asked(page)
    assert request["state"]["dealer"] == "Frank" and request["state"]["to_act"] == "Mark"
    check_answer(page, answer, False, "01-as-told", "the nine of clubs goes back on the discard pile")


@pytest.mark.parametrize("variant,rank", [("british", "K"), ("british_max151", "Q")])
def test_02_taking_the_discard_to_come_down_with_four_of_a_kind(phone, variant, rank):
    page = phone()
    ask_about(page, variant, "take")
    lay(page, "the cards you want to play", [rank + "S", rank + "H", rank + "C"])
    lay(page, "the top of the discard pile", [rank + "D"])
    request, answer = asked(page)
    assert request["action"]["actions"][0] == {"type": "draw", "source": "discard"}
    check_answer(page, answer, True, f"02-{variant}", "40 points", "discard")


@pytest.mark.parametrize("variant,melds,legal,points", [
    ("british", [["10S", "10H", "10D"], ["5C", "6C", "7C"]], True, "48 points"),
    ("british", [["9S", "9H", "9D"], ["2C", "3C", "4C"]], False, "40"),
    ("british_no_reshuffle", [["JS", "JH", "JD"], ["6H", "7H", "8H"]], True, "51 points"),
])
def test_03_coming_down_with_two_melds(phone, variant, melds, legal, points):
    page = phone()
    ask_about(page, variant, "meld")
    new_melds(page, melds)
    request, answer = asked(page)
    assert [m["cards"] for m in request["action"]["melds"]] == melds
    # the rest of the hand is counted from the deal: 13 dealt and one drawn, six of them tapped in
    assert request["state"]["players"][0]["hidden"] == 14 - 6
    check_answer(page, answer, legal, f"03-{variant}-{'yes' if legal else 'no'}", points)


@pytest.mark.parametrize("variant,run,natural,has_opened", [
    ("british", ["7H", "JK", "9H"], "8H", True),
    ("british_max501", ["4S", "JK", "6S"], "5S", True),
    ("british", ["7H", "JK", "9H"], "8H", False),
])
def test_04_taking_a_joker_from_a_run(phone, variant, run, natural, has_opened):
    page = phone()
    ask_about(page, variant, "swap")
    if has_opened:
        opened(page)
    table_meld(page, "Player 2", run, "run")
    lay(page, "the cards you offer for the joker", [natural])
    request, answer = asked(page)
    assert request["action"]["naturals"] == [natural]
    if has_opened:
        check_answer(page, answer, True, f"04-{variant}", "joker must be laid at once", "never goes into your hand")
    else:
        check_answer(page, answer, False, f"04-{variant}-not-down")


@pytest.mark.parametrize("variant,rank,held", [("british", "10", "10H"), ("british_max151", "Q", "QC")])
def test_05_a_joker_in_a_set_of_three_needs_both_missing_naturals(phone, variant, rank, held):
    page = phone()
    ask_about(page, variant, "swap")
    opened(page)
    kept = [s for s in "SHDC" if rank + s != held][:2]
    table_meld(page, "Player 4", [rank + kept[0], rank + kept[1], "JK"], "set")
    lay(page, "the cards you offer for the joker", [held])
    _, answer = asked(page)
    check_answer(page, answer, False, f"05-{variant}")


@pytest.mark.parametrize("variant,run,added", [("british", ["7C", "8C", "9C"], ["10C", "JC", "QC"]),
                                               ("british_max301", ["3D", "4D", "5D"], ["6D", "7D", "8D"])])
def test_06_three_cards_on_one_end_of_a_run(phone, variant, run, added):
    page = phone()
    ask_about(page, variant, "build")
    opened(page)
    table_meld(page, "Player 3", run, "run")
    lay(page, "the cards you want to play", added)
    _, answer = asked(page)
    check_answer(page, answer, False, f"06-{variant}", "two")


@pytest.mark.parametrize("variant,melds", [("british", [["4C", "5C", "6C"], ["KS", "KH", "KD"]]),
                                           ("british_max151", [["9H", "10H", "JH", "QH"]])])
def test_07_going_out_with_nothing_to_throw(phone, variant, melds):
    page = phone()
    ask_about(page, variant, "meldall")
    opened(page)
    new_melds(page, melds)
    request, answer = asked(page)
    assert "hidden" not in request["state"]["players"][0]  # these are all the cards the player holds
    check_answer(page, answer, False, f"07-{variant}", "discard")


@pytest.mark.parametrize("variant,meld,adds,last", [("british", ["4C", "5C", "6C"], [], "KD"),
                                                    ("british_max301", ["9S", "9H", "9D"], [], "2C"),
                                                    # two cards kept and one drawn: both added to a run on the table
                                                    ("british", [], ["7C", "8C"], "KD")])
def test_08_the_forgotten_warning(phone, variant, meld, adds, last):
    page = phone()
    ask_about(page, variant, "forgot")
    opened(page)
    if adds:
        table_meld(page, "Player 2", ["4C", "5C", "6C"], "run")
        lay(page, "the cards you add to a meld on the table", adds)
    else:
        new_melds(page, [meld])
    lay(page, "the rest of your hand", [last])
    request, answer = asked(page)
    assert request["state"]["players"][0].get("barred") is True
    if adds:
        assert request["action"]["actions"][0] == {"type": "build", "meld": request["state"]["melds"][0]["id"], "cards": adds}
    check_answer(page, answer, False, f"08-{variant}-{len(meld) + len(adds)}", "but not go out")


# -- kalooki.co.uk club game (003) ----------------------------------------------------------------------

@pytest.mark.parametrize("variant,discard", [
    ("kalooki_co_uk", "6S"),  # it fits a run with cards listed: the referee sees it was not laid
    ("kalooki_co_uk_alt_joker_reuse", "8H")])
def test_11_keeping_a_discard_for_later(phone, variant, discard):
    page = phone()
    ask_about(page, variant, "draw")
    opened(page)
    lay(page, "the rest of your hand", ["7S", "8S"])
    lay(page, "the card you throw", ["2D"])
    lay(page, "the top of the discard pile", [discard])
    _, answer = asked(page)
    check_answer(page, answer, False, f"11-{variant}")


@pytest.mark.parametrize("variant,table,held,legal", [
    ("kalooki_co_uk", ["10D", "10S", "10H", "JK"], "10C", True),
    ("kalooki_co_uk", ["10D", "10S", "JK"], "10C", True),
    ("kalooki_co_uk_alt_joker_reuse", ["10D", "10S", "JK"], "10C", False),
    ("kalooki_co_uk", ["5D", "5S", "5H", "JK"], "5C", True),
])
def test_12_a_joker_in_a_set(phone, variant, table, held, legal):
    page = phone()
    ask_about(page, variant, "swap")
    opened(page)
    table_meld(page, "Player 2", table, "set")
    lay(page, "the cards you offer for the joker", [held])
    lay(page, "the cards you lay with the joker", ["7H", "7D"])
    request, answer = asked(page)
    assert request["action"]["place"]["melds"][0]["cards"] == ["7H", "7D", "JK"]
    if legal:
        check_answer(page, answer, True, f"12-{variant}-{len(table)}-{held}", "new meld", "never goes into your hand",
                     f"you took the joker from the set of {words(table[0])}")
    else:
        check_answer(page, answer, False, f"12-{variant}-{len(table)}")


@pytest.mark.parametrize("variant,table,offered,laid_with,stands_for", [
    ("kalooki_co_uk", ["10D", "10S", "10H", "JK"], "10C", ["7H", "8H"], "9H"),
    ("british", ["7H", "JK", "9H"], "8H", ["QS", "KS"], "JS"),
])
def test_12_a_joker_laid_where_it_can_stand_for_two_cards_is_asked_again_as_chosen(phone, variant, table, offered, laid_with,
                                                                                    stands_for):
    page = phone()
    ask_about(page, variant, "swap")
    opened(page)
    table_meld(page, "Player 2", table)
    lay(page, "the cards you offer for the joker", [offered])
    lay(page, "the cards you lay with the joker", laid_with)
    _, answer = asked(page)
    assert answer["legal"] is False and answer["violations"][0].get("ambiguous"), answer
    check_answer(page, answer, False, f"12-{variant}-declare")
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/adjudicate") as info:
        page.get_by_role("button", name=f"Ask again with a joker standing for {words(stands_for)}").click()
    again = info.value.request.post_data_json
    assert f"JK(={stands_for})" in again["action"]["place"]["melds"][0]["cards"], again["action"]
    check_answer(page, info.value.json(), True, f"12-{variant}-declared", "new meld")


def test_12_without_saying_where_the_joker_goes_the_answer_says_what_it_needs(phone):
    page = phone()
    ask_about(page, "kalooki_co_uk", "swap")
    opened(page)
    table_meld(page, "Player 2", ["10D", "10S", "10H", "JK"], "set")
    lay(page, "the cards you offer for the joker", ["10C"])
    _, answer = asked(page)
    assert answer["legal"] is None
    words = plain_answer(page)
    assert "new set" in words and not NOT_PLAIN.search(words), words


# -- Jamaican Kalooki (002) ------------------------------------------------------------------------------

def jamaican(page, variant: str, question: str, hand: int) -> None:
    ask_about(page, variant, question)
    page.get_by_label("Which hand of the game").select_option(str(hand))


@pytest.mark.parametrize("variant,hand,card,players", [("jamaican", 1, "7D", 4), ("jamaican_kalooki_hands_1_4", 2, "QS", 4),
                                                       ("jamaican", 3, "5H", 6)])   # six seats: a bigger pack
def test_13_a_call_allowed(phone, variant, hand, card, players):
    page = phone()
    jamaican(page, variant, "allow", hand)
    page.get_by_label("Players at the table").select_option(str(players))
    page.get_by_label("Which player").select_option("Player 2")
    lay(page, "the top of the discard pile", [card])
    request, answer = asked(page)
    assert request["action"] == {"type": "allow", "caller": "Player 2"}
    assert len(request["state"]["players"]) == players
    check_answer(page, answer, True, f"13-{variant}-{players}", f"Player 2 takes {words(card)}", "penalty card",
                 "may not lay or discard now", "you pluck from the stock")


def test_13_asked_with_the_players_names(phone):
    """The dispute as told: Mark, asking, allows John's call; the answer names them, and "you" is Mark."""
    page = phone()
    jamaican(page, "jamaican", "allow", 1)
    page.get_by_label("Their names, you first (optional)").fill("Mark, John, Frank, Andy")
    page.get_by_label("Their names, you first (optional)").press("Tab")
    page.get_by_label("Which player").select_option(label="John")
    lay(page, "the top of the discard pile", ["7D"])
    request, answer = asked(page)
    assert [p["id"] for p in request["state"]["players"]] == ["Mark", "John", "Frank", "Andy"]
    assert request["action"] == {"type": "allow", "caller": "John"} and request["state"]["dealer"] == "Andy"
    said = check_answer(page, answer, True, "13-named", "John takes the seven of diamonds", "you pluck from the stock")
    assert "Yes, you may allow John's call." in said and "Mark" not in plain_answer(page), said


@pytest.mark.parametrize("variant,calls,charged", [("jamaican", 4, "Player 2"), ("jamaican", 3, "Player 4"),
                                                   ("jamaican_baby", 4, "Player 2")])
def test_14_an_over_call_challenged(phone, variant, calls, charged):
    page = phone()
    jamaican(page, variant, "challenge", 1)
    page.get_by_label("Which player").select_option("Player 4")
    page.get_by_label("Challenges").select_option("Player 2")
    page.get_by_label("Calls the challenged player made this deal").fill(str(calls))
    lay(page, "the top of the discard pile", ["5H"])
    request, answer = asked(page)
    assert request["state"]["players"][1]["calls"] == calls
    verdict = "the challenge is wrong" if charged == "Player 4" else "the challenge is right"
    check_answer(page, answer, True, f"14-{variant}-{calls}", f"{charged} takes a penalty", "50 points", verdict)


@pytest.mark.parametrize("variant,cards", [("jamaican", ["9C", "JK", "JK", "QC"]), ("jamaican_baby", ["4H", "JK", "JK", "7H"])])
def test_15_jokers_side_by_side(phone, variant, cards):
    page = phone()
    ask_about(page, variant, "check")
    lay(page, "the cards you want to play", cards)
    page.locator("#build").get_by_label("Laid as").select_option("run")
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/melds/check") as info:
        page.get_by_role("button", name="Ask the referee").click()
    answer = info.value.json()
    assert answer["valid"] is False
    check_answer(page, {"legal": False}, False, f"15-{variant}", "joker")


# -- Denexa Kaluki (004) and North American Kaluki (000) -------------------------------------------------

@pytest.mark.parametrize("upcard,thrown", [("8H", "KS"), ("2C", "JD")])
def test_17_the_dealers_upcard_option(phone, upcard, thrown):
    page = phone()
    ask_about(page, "denexa_caloochi", "upcard")
    lay(page, "the card you throw", [thrown])
    lay(page, "the top of the discard pile", [upcard])
    request, answer = asked(page)
    assert request["state"]["dealer"] == request["state"]["to_act"] == "Player 1"
    check_answer(page, answer, True, f"17-{upcard}", "the player on your left plays")


# The dispute's own cards (7, 8 and 9 of clubs onto one end of a run) break the two-cards-an-end rule North
# American Kaluki keeps from the British game; the lay-off here is two cards, which leaves the question
# the dispute is about: whether lay-offs count toward the opening once a meld of one's own is laid.
@pytest.mark.parametrize("variant,own,legal", [("north_american_uspcc", ["KS", "KH", "KD", "KC"], True),
                                               ("north_american_uspcc", [], False),
                                               ("scarne_east_coast", ["KS", "KH", "KD", "KC"], True)])
def test_18_lay_offs_toward_the_opening(phone, variant, own, legal):
    page = phone()
    ask_about(page, variant, "meld")
    table_meld(page, "Player 3", ["4C", "5C", "6C"], "run")
    if own:
        lay(page, "the cards you want to play", own)
    lay(page, "the cards you add to a meld on the table", ["7C", "8C"])
    request, answer = asked(page)
    lay_off = {"meld": request["state"]["melds"][0]["id"], "cards": ["7C", "8C"]}
    assert request["action"]["builds"] == [lay_off] if own else request["action"] == {"type": "build", **lay_off}
    check_answer(page, answer, legal, f"18-{variant}-{'own' if own else 'none'}", *(["55 points"] if legal else []))


# -- scoring (000) ---------------------------------------------------------------------------------------

def sheet_answer(page) -> dict:
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/scoresheet") as info:
        page.get_by_role("button", name="Add this hand to the sheet").click()
    assert info.value.status == 200, info.value.text()
    return info.value.json()


def tap_cards_left(page, player: str, codes: list[str]) -> None:
    line = page.locator(f".sheet-line[data-player='{player}']")
    line.get_by_role("button", name=f"Tap {player}'s cards left in hand").click()
    for code in codes:
        line.get_by_role("button", name=f"Put {words(code)} in {player}'s cards", exact=True).click()
    line.get_by_role("button", name=f"Done with {player}'s cards").click()


@pytest.mark.parametrize("variant,left,penalties", [
    ("british", {"Player 2": ["KH", "QS", "JK"], "Player 4": ["5D", "5C"], "Player 1": ["AS"]},
     {"Player 2": 35, "Player 4": 10, "Player 1": 11, "Player 3": 0}),
    ("british_max301", {"Player 2": ["2H", "JK"], "Player 4": ["10D"], "Player 1": ["AC", "AD"]},
     {"Player 2": 17, "Player 4": 10, "Player 1": 22, "Player 3": 0}),
])
def test_09_scoring_a_hand_from_the_cards_left(phone, variant, left, penalties):
    page = phone()
    page.get_by_label("Variant", exact=True).select_option(variant)
    page.get_by_label("Players in the game").select_option("4")
    page.get_by_label("Who went out").select_option("Player 3")
    for player, codes in left.items():
        tap_cards_left(page, player, codes)
    answer = sheet_answer(page)
    row = answer["rows"][0]
    assert row["penalties"] == penalties
    # a call-up stake of one: the winner gets one from each other player
    assert row["payments"] == {"Player 1": -1, "Player 2": -1, "Player 3": 3, "Player 4": -1}
    sheet = page.locator("#sheet-answer")
    for player, points in penalties.items():
        cell = sheet.locator(f"td[data-player='{player}']")
        assert f"{points} point" in cell.inner_text()
    assert "gets 3" in sheet.locator("td[data-player='Player 3']").inner_text()
    assert "pays 1" in sheet.locator("td[data-player='Player 2']").inner_text()
    text = sheet.inner_text()
    assert not NOT_PLAIN.search(text), NOT_PLAIN.search(text).group(0)
    sheet.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dispute-09-{variant}.png"))


def test_09_the_sheet_with_the_players_names_and_the_tables_own_stakes(phone):
    """The dispute as told: Andy, Mark, John and Frank, a call-up stake the table chose (2): each loser
    pays John 2, and the pool holds what the table's starting stake puts in."""
    page = phone()
    page.get_by_label("Variant", exact=True).select_option("british")
    page.get_by_label("Players in the game").select_option("4")
    page.get_by_label("Their names, in seating order (optional)").fill("Andy, Mark, John, Frank")
    page.get_by_label("Their names, in seating order (optional)").press("Tab")
    page.get_by_label("Each loser pays the winner").fill("2")
    page.get_by_label("Each loser pays the winner").press("Tab")
    page.get_by_label("Each player puts into the pool at the start").fill("3")
    page.get_by_label("Each player puts into the pool at the start").press("Tab")
    page.get_by_label("Who went out").select_option("John")
    for player, codes in {"Mark": ["KH", "QS", "JK"], "Frank": ["5D", "5C"], "Andy": ["AS"]}.items():
        tap_cards_left(page, player, codes)
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/scoresheet") as info:
        page.get_by_role("button", name="Add this hand to the sheet").click()
    request, answer = info.value.request.post_data_json, info.value.json()
    assert request["players"] == ["Andy", "Mark", "John", "Frank"]
    assert request["stakes"] == {"call_up": 2, "kalookie": 2, "initial": 3, "buy_in": 5}
    row = answer["rows"][0]
    assert row["penalties"] == {"Mark": 35, "Frank": 10, "Andy": 11, "John": 0}
    assert row["payments"] == {"Andy": -2, "Mark": -2, "John": 6, "Frank": -2} and row["pool"] == 12
    sheet = page.locator("#sheet-answer")
    assert "gets 6" in sheet.locator("td[data-player='John']").inner_text()
    assert not NOT_PLAIN.search(sheet.inner_text())
    sheet.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "dispute-09-named-stakes.png"))


# -- Jamaican scoring (002) -----------------------------------------------------------------------------

@pytest.mark.parametrize("variant,left,typed,penalties", [
    # Andy (Player 1) bends: the cards tapped in count double
    ("jamaican", {"Player 2": ["KH", "QS", "JK"], "Player 3": ["5D", "5C"], "Player 4": ["AS"]}, {},
     {"Player 2": 140, "Player 3": 20, "Player 4": 30}),
    ("jamaican_baby", {"Player 2": ["9C", "2D"], "Player 3": ["AD"], "Player 4": ["JK"]}, {},
     {"Player 2": 22, "Player 3": 2, "Player 4": 100}),
    # the points typed are the sheet's figures, already doubled
    ("jamaican", {"Player 2": ["7H"]}, {"Player 3": 20, "Player 4": 6},
     {"Player 2": 14, "Player 3": 20, "Player 4": 6}),
])
def test_16_bending_the_table_doubles_the_others_points(phone, variant, left, typed, penalties):
    page = phone()
    page.get_by_label("Variant", exact=True).select_option(variant)
    page.get_by_label("Players in the game").select_option("4")
    page.get_by_label("Who went out").select_option("Player 1")
    page.get_by_label("How it ended").select_option(label="a bend: went out in the turn they first laid")
    note = page.locator("#sheet-how-note")
    assert "count doubled" in note.inner_text() and "already doubled" in note.inner_text()
    for player, codes in left.items():
        tap_cards_left(page, player, codes)
    for player, points in typed.items():
        page.locator(f".sheet-line[data-player='{player}']").get_by_label("Penalty points this hand, already doubled").fill(str(points))
    answer = sheet_answer(page)
    row = answer["rows"][0]
    assert answer["inconsistency"] is None and row["how"] == "kalookie"
    assert row["penalties"] == {"Player 1": 0, **penalties}
    verdict = page.locator("#sheet-answer .verdict")
    said = verdict.inner_text()
    assert "The sheet agrees with the rules" in said
    assert "Hand 1 was a bend by Player 1: every other player's points for the hand count doubled" in said, said
    for player, points in penalties.items():
        how = "as typed, taken as already doubled" if player in typed else f"{points // 2} for the cards left, doubled"
        assert f"{player} {points} points ({how})" in said, said
        assert "doubled for a bend" in page.locator(f"#sheet-answer td[data-player='{player}']").inner_text()
    text = page.locator("#sheet-answer").inner_text()
    assert not NOT_PLAIN.search(text), NOT_PLAIN.search(text).group(0)
    # on screen once asked
    box = verdict.get_by_text("The sheet agrees with the rules").bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dispute-16-{variant}-{'typed' if typed else 'cards'}.png"))


def enter(page, winner: str, penalties: dict) -> dict:
    page.get_by_label("Who went out").select_option(winner)
    for player, points in penalties.items():
        page.locator(f".sheet-line[data-player='{player}']").get_by_label("Penalty points this hand").fill(str(points))
    return sheet_answer(page)


@pytest.mark.parametrize("variant", ["british", "british_max151"])
def test_10_buying_back_in(phone, variant):
    page = phone()
    page.get_by_label("Variant", exact=True).select_option(variant)
    page.get_by_label("Players in the game").select_option("4")
    # totals after three hands: Player 1 168, Player 2 120, Player 3 90, Player 4 60
    enter(page, "Player 4", {"Player 1": 80, "Player 2": 60, "Player 3": 45})
    enter(page, "Player 3", {"Player 1": 50, "Player 2": 60, "Player 4": 30})
    answer = enter(page, "Player 2", {"Player 1": 38, "Player 3": 45, "Player 4": 30})
    assert [e for e in answer["events"] if e["type"] == "buy_in_offered"] == [{"type": "buy_in_offered", "players": ["Player 1"]}]
    sheet = page.locator("#sheet-answer")
    assert "Player 1 went over the limit: may buy back in" in sheet.inner_text()
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/scoresheet") as info:
        sheet.get_by_role("button", name="Player 1 buys back in").click()
    answer = info.value.json()
    bought = [e for e in answer["events"] if e["type"] == "bought_in"]
    assert bought and bought[0]["player"] == "Player 1" and bought[0]["score"] == 120
    assert answer["inconsistency"] is None
    assert "restarting at 120" in sheet.inner_text()
    assert "bought back in, so restarts at 120" in sheet.locator("td[data-player='Player 1']").last.inner_text()
    assert "may buy back in" not in sheet.locator(".sheet-events").inner_text()   # the offer, taken, is not said again
    text = sheet.inner_text()
    assert not NOT_PLAIN.search(text), NOT_PLAIN.search(text).group(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dispute-10-{variant}.png"))


# -- exploring -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,melds,all_tapped", [("british", [["10S", "10H", "10D"], ["5C", "6C", "7C"]], True),
                                                      ("british", [["10S", "10H", "10D"], ["5C", "6C", "7C"]], False),
                                                      ("british_max301", [["JS", "JH", "JD"], ["8D", "9D", "10D"]], True)])
def test_20_what_could_i_do_here_lists_coming_down_in_words(phone, variant, melds, all_tapped):
    page = phone()
    ask_about(page, variant, "meld")
    lay(page, "the rest of your hand", [c for m in melds for c in m] + ["2H"])
    if all_tapped:  # these seven are all the player holds: the count is corrected by typing
        page.get_by_label("Cards of yours not tapped in").fill("0")
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/legal-actions") as info:
        page.locator("#build").get_by_role("button", name="What could I do here?").click()
    actions = info.value.json()["actions"]
    assert any(a["type"] == "meld" and len(a["melds"]) == 2 for a in actions)
    listed = page.locator("#build-verdict .legal-moves").inner_text()
    assert "now that you have drawn" in page.locator("#build-verdict .verdict-word").inner_text()
    for meld in melds:
        assert card_names(meld) in listed, (meld, listed)
    assert not NOT_PLAIN.search(listed), NOT_PLAIN.search(listed).group(0)
    box = page.locator("#build-verdict").bounding_box()
    assert box and -1 < box["y"] < PHONE["height"], box   # (scrolled to its top, to within a pixel)
    page.screenshot(path=str(ARTIFACTS / f"dispute-20-{variant}{'' if all_tapped else '-unseen'}.png"))


# -- sharing (19) ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("encoded", [False, True])
def test_19_a_shared_question_opens_with_its_answer_in_words_first(phone, browser, base_url, encoded):
    page = phone()
    ask_about(page, "british", "swap")
    opened(page)
    table_meld(page, "Player 2", ["7H", "JK", "9H"], "run")
    lay(page, "the cards you offer for the joker", ["8H"])
    request, answer = asked(page)
    before = plain_answer(page)
    page.locator("#build-verdict").get_by_role("button", name="Share this question").click()
    link = page.locator("#build-share-link").inner_text().strip()
    assert link.startswith(base_url + "/#ask=")
    qr = page.locator("#build-share img.share-qr")
    assert qr.count() == 1
    page.screenshot(path=str(ARTIFACTS / "dispute-19-shared.png"))
    if encoded:  # a chat app percent-encodes the fragment
        head, code = link.split("#", 1)
        link = head + "#" + code.replace("=", "%3D", 1)
    other = browser.new_context(viewport=PHONE)
    try:
        friend = other.new_page()
        errors = []
        friend.on("pageerror", lambda exc: errors.append(str(exc)))
        with friend.expect_response(lambda r: urlsplit(r.url).path == "/v1/adjudicate") as info:
            friend.goto(link)
        assert info.value.request.post_data_json == request and info.value.json() == answer
        verdict = friend.locator("#build-verdict")
        verdict.get_by_text(re.compile(r"^(Yes|No),")).first.wait_for()
        said = plain_answer(friend)   # the same answer, with a note that it was shared
        shared_note = re.compile(r"Someone shared this question with you: .*? tap in your cards\.")
        assert shared_note.search(said) and shared_note.sub("", said) == before, (said, before)
        box = verdict.get_by_text(re.compile(r"^(Yes|No),")).first.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
        shown = friend.locator("#build-verdict details.shared-position")
        assert shown.count() == 1
        friend.locator("#build-verdict details.shared-position > summary").click()
        names = shown.locator("svg[role=img]").evaluate_all("(ns) => ns.map(n => n.getAttribute('aria-label'))")
        assert {"the seven of hearts", "a joker", "the nine of hearts", "the eight of hearts"} <= set(names), names
        # each card is drawn as the referee's picture of it
        pictures = friend.locator("#build-verdict details.shared-position image")
        hrefs = pictures.evaluate_all("(ns) => ns.map(n => n.getAttribute('href'))")
        loaded = friend.evaluate("async (hrefs) => Promise.all(hrefs.map(async (h) => (await fetch(h)).status))", hrefs)
        assert hrefs and set(loaded) == {200}, (hrefs, loaded)
        friend.screenshot(path=str(ARTIFACTS / f"dispute-19-opened{'-encoded' if encoded else ''}.png"))
        # asking with the friend's own form still empty keeps the shared answer, and says what is missing
        friend.get_by_role("button", name="Ask the referee").click()
        friend.locator("#build .problems:not(:empty)").first.wait_for()
        assert shared_note.search(plain_answer(friend))
        assert errors == []
    finally:
        other.close()


def test_a_question_the_page_itself_fails_to_ask_says_so(browser, base_url):
    """Never a silent button: where the page's own code fails (here, a variant list it cannot use),
    asking says that the page could not ask, in sight."""
    import json

    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()

        def without_tables(route):
            listed = json.loads(route.fetch().text())
            for variant in listed["variants"]:
                variant.pop("tables", None)
            route.fulfill(status=200, content_type="application/json", body=json.dumps(listed))

        page.route("**/v1/variants", without_tables)
        page.goto(base_url + "/")
        page.wait_for_selector("body[data-ready=true]")
        ask_about(page, "british", "meld")
        lay(page, "the cards you want to play", ["5C", "6C", "7C"])
        page.get_by_role("button", name="Ask the referee").click()
        problem = page.locator("#build-problems")
        problem.get_by_text("The page could not ask this question").wait_for()
        box = problem.bounding_box()
        assert box and 0 <= box["y"] < PHONE["height"], box
    finally:
        context.close()


def test_a_card_tapped_right_after_typing_the_names_is_placed(phone):
    page = phone()
    ask_about(page, "british", "meld")
    page.get_by_label("Their names, you first (optional)").fill("Andy, Mark, John, Frank")
    page.get_by_role("button", name="Put the ten of spades in the cards you want to play", exact=True).click()
    assert page.locator("#build-play .card-button").count() == 1
    table_meld(page, "Player 2", ["7H", "JK", "9H"], "run")
    assert "Mark" in page.locator(".build-meld").last.get_by_label("laid by").inner_text()
