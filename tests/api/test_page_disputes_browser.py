"""The page settles a dispute at a real table, in a real browser, at a phone's size and a desktop's:
a position of each family of variants set out by tapping alone, a log stepped through and
branched with "what could I do here?", a Jamaican call dispute, and a score sheet entered by hand.

The browser, the served referee and the helpers are tests/api/test_page_browser.py's.  What the page
should say is asked of the same server's API, never written here."""
from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from tests.api.test_page_browser import (  # noqa: F401 - fixtures used by name
    ARTIFACTS,
    DESKTOP,
    DISPUTE,
    PHONE,
    api,
    asked,
    base_url,
    browser,
    card_names,
    in_words,
    load_log,
    open_page,
    put,
)

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
        return "The referee needs to see more cards to decide."
    if action["type"] == "call":
        return f"Yes, {action['player']} may call it." if answer["legal"] else f"No, {action['player']} may not call it."
    return "Yes, you may." if answer["legal"] else "No, you may not."


# -- one dispute of each family, set out by tapping ---------------------------------------------------

def _british(page):
    """May a heart go on Player 3's run of clubs?"""
    page.get_by_label("Your question").select_option("build")
    page.get_by_label("Players at the table").select_option("4")
    page.get_by_label("I have already come down (laid my first meld)").check()
    page.get_by_role("button", name="Put another meld on the table").click()
    page.get_by_label("laid by").select_option("Player 3")
    for card in ("the five of clubs", "the six of clubs", "the seven of clubs"):
        put(page, "the first meld on the table", card)
    put(page, "the cards you want to play", "the eight of hearts")
    put(page, "the rest of your hand", "the king of spades")
    put(page, "the top of the discard pile", "the two of diamonds")


def _uspcc(page):
    """May I add a card to Player 2's run before I have opened?"""
    page.get_by_label("Your question").select_option("build")
    page.get_by_role("button", name="Put another meld on the table").click()
    page.get_by_label("laid by").select_option("Player 2")
    for card in ("the four of clubs", "the five of clubs", "the six of clubs"):
        put(page, "the first meld on the table", card)
    put(page, "the cards you want to play", "the seven of clubs")
    put(page, "the rest of your hand", "the two of hearts")
    put(page, "the top of the discard pile", "the nine of diamonds")


def _uk(page):
    """May the ten of diamonds take the joker from a set that already holds a diamond?"""
    page.get_by_label("Your question").select_option("swap")
    page.get_by_label("I have already come down (laid my first meld)").check()
    page.get_by_role("button", name="Put another meld on the table").click()
    for card in ("the ten of spades", "the ten of diamonds", "a joker"):
        put(page, "the first meld on the table", card)
    page.get_by_label("It is", exact=True).select_option("set")
    put(page, "the cards you offer for the joker", "the ten of diamonds")
    put(page, "the rest of your hand", "the four of clubs")
    put(page, "the top of the discard pile", "the two of diamonds")


def _denexa(page):
    """May I open with four fives and three kings (50 points)?"""
    page.get_by_label("Your question").select_option("meld")
    for card in ("the five of spades", "the five of hearts", "the five of diamonds", "the five of clubs"):
        put(page, "the cards you want to play", card)
    put(page, "the rest of your hand", "the two of clubs")
    put(page, "the top of the discard pile", "the nine of hearts")


def _jamaican_move_up(page):
    """Hand 2, down: may I put the seven of hearts for the joker of Player 3's run and move it up?"""
    page.get_by_label("Your question").select_option("moveup")
    page.get_by_label("Which hand of the game").select_option("2")
    page.get_by_label("I have already come down (laid my first meld)").check()
    page.get_by_role("button", name="Put another meld on the table").click()
    page.get_by_label("laid by").select_option("Player 3")
    page.get_by_label("It is", exact=True).select_option("run")
    for card in ("the six of hearts", "a joker", "the eight of hearts", "the nine of hearts"):
        put(page, "the first meld on the table", card)
    put(page, "the card the joker stands for", "the seven of hearts")
    put(page, "the rest of your hand", "the king of spades")
    put(page, "the top of the discard pile", "the two of diamonds")


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
            "Jamaican": ("jamaican", _jamaican), "Jamaican joker move": ("jamaican", _jamaican_move_up)}


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
    if family == "Jamaican joker move":
        assert request["action"]["place"] == {"type": "build", "meld": "m1", "cards": ["JK"], "end": "high"}
        assert request["state"]["melds"][0]["owner"] == "Player 3"
    if family == "Jamaican":
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


# -- a log: stepped through with the keys, branched with "what could I do here?" -----------------------

def legal_listed(page) -> tuple[dict, dict]:
    """Clicks "What could I do here?"; the request the page sent to /v1/legal-actions and its answer."""
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/legal-actions") as info:
        page.locator("#explore").get_by_role("button", name="What could I do here?").click()
    return info.value.request.post_data_json, info.value.json()


def played(page, button) -> tuple[dict, dict]:
    """Clicks a move of the list; the /v1/adjudicate request the page sent and its answer."""
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/adjudicate") as info:
        button.click()
    return info.value.request.post_data_json, info.value.json()


def test_a_log_is_stepped_with_the_keys_and_branched_from_a_step_with_what_could_i_do_here(sized, base_url):
    from playwright.sync_api import expect
    opener, size = sized
    page = opener()
    log = json.loads(DISPUTE.read_text(encoding="utf-8"))
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    steps = len(log["actions"])
    expect(page.locator("#step-list li")).to_have_count(steps)
    page.get_by_role("button", name="Start", exact=True).click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-label")).to_contain_text("Position 3 of")

    # the moves the rules allow at step 3, as the referee lists them, in words
    request, answer = legal_listed(page)
    assert api(base_url, "/v1/legal-actions", request) == (200, answer) and answer["actions"]
    moves = page.locator("#explore-list button.legal-move")
    expect(moves).to_have_count(min(12, len(answer["actions"])))
    expect(page.locator("#explore-list")).to_contain_text(f"{answer['player']} is to act")
    first = answer["actions"][0]
    if first["type"] == "draw":
        expect(moves.first).to_contain_text("discard pile" if first["source"] == "discard" else "stock")
    assert "{" not in page.locator("#explore-list").inner_text()  # words, not JSON
    fits(page, size)
    shot(page, "what-could-i-do", size)

    # choosing one plays it from there: a branch of the log, the original kept
    sent, verdict = played(page, moves.first)
    assert sent["action"] == first and verdict["legal"] is True
    assert api(base_url, "/v1/adjudicate", sent) == (200, verdict)
    expect(page.locator("#step-list li")).to_have_count(3)
    expect(page.locator("#branch-note")).to_contain_text("The original log is kept")
    expect(page.locator("#step-label")).to_contain_text("Position 4 of 4")

    # and on: the next move, from the new position
    request, answer = legal_listed(page)
    assert request["state"] == verdict["state"] and answer["actions"]
    sent, verdict = played(page, page.locator("#explore-list button.legal-move").first)
    assert sent["action"] == answer["actions"][0] and verdict["legal"] is True
    expect(page.locator("#step-list li")).to_have_count(4)
    expect(page.locator("#verdict .verdict.end")).to_be_visible()
    page.locator("#explore").get_by_role("button", name="What could I do here?").focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-label")).to_contain_text("Position 4 of 5")
    expect(page.locator("#verdict")).to_contain_text("Allowed.")

    # back to the log as written
    page.get_by_role("button", name="Back to the original log").click()
    expect(page.locator("#step-list li")).to_have_count(steps)
    expect(page.locator("#branch-note")).to_be_hidden()
    expect(page.locator("#step-label")).to_contain_text("Position 3 of")


# -- a Jamaican call dispute, from the samples -------------------------------------------------------

def test_a_jamaican_call_dispute_a_call_an_allow_an_over_call_challenge_and_the_penalty(sized, base_url):
    from playwright.sync_api import expect
    opener, size = sized
    page = opener()
    page.get_by_label("Sample dispute").select_option(label="Jamaican: a call, an allow, an over-call challenged, a penalty")
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/replay") as info:
        page.get_by_role("button", name="Open this dispute").click()
    sent, replay = info.value.request.post_data_json, info.value.json()
    assert api(base_url, "/v1/replay", sent) == (200, replay)
    types = [a["type"] for a in sent["actions"]]
    assert types[:4] == ["call", "allow", "challenge", "penalty"]
    bad = replay["first_illegal"]
    assert bad is not None
    expect(page.locator("#step-list li")).to_have_count(len(types))

    # the hand and its contract, and each step in words: who called, who allowed, the challenge, the penalty
    _, variants = api(base_url, "/v1/variants")
    start = replay["start"]["position"]
    row = next(v for v in variants["variants"] if v["id"] == "jamaican")["parameters"]["contract"]["hands"][str(start["hand_number"])]
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("#position .contract")).to_contain_text(f"Hand {start['hand_number']}: {row['cards']} cards dealt")
    call, allow, challenge, penalty = sent["actions"][:4]
    expect(page.locator("#step-list")).to_contain_text(f"{call['player']} calls for the top discard")
    expect(page.locator("#step-list")).to_contain_text(f"allows {allow['caller']}'s call")
    expect(page.locator("#step-list")).to_contain_text(f"{challenge['player']} challenges {challenge['target']}'s over-call")
    expect(page.locator("#step-list")).to_contain_text(f"The table reports {penalty['player']}")
    for i, step in enumerate(replay["steps"][:bad["index"]]):
        verdict = page.locator(f"#verdict .verdict[data-step='{i + 1}']")
        expect(verdict).to_contain_text("Allowed.")
        for e in step["events"]:
            expect(verdict).to_contain_text(e["player"])
            if e["type"] == "penalized":
                expect(verdict).to_contain_text("takes a penalty for")
                expect(verdict).to_contain_text(f"{e['points']} points")
            if e["type"] == "called":
                expect(verdict).to_contain_text(f"called for {card_names([e['card']])}")
        if i == 0:  # the call waits on the pile
            page.get_by_role("button", name="Next step").click()
            expect(page.locator("#position .calls-pending")).to_contain_text(call["player"])
        else:
            page.get_by_role("button", name="Next step").click()
    verdict = page.locator(f"#verdict .verdict.illegal[data-step='{bad['index'] + 1}']")
    expect(verdict).to_contain_text("Not allowed.")
    for v in bad["violations"]:
        expect(verdict.locator(f".violation[data-clause='{v['clause']}']")).to_contain_text(v["statement"])
    assert "{" not in page.locator("#verdict").inner_text()
    fits(page, size)
    shot(page, "jamaican-call-dispute", size)

    # who may call here: the other seats' calls are offered in words, beside the plucks
    page.get_by_role("button", name="Start", exact=True).click()
    request, answer = legal_listed(page)
    assert api(base_url, "/v1/legal-actions", request) == (200, answer)
    calls = [a for a in answer["actions"] if a["type"] == "call"]
    assert calls
    for a in calls:
        expect(page.locator("#explore-list").get_by_role("button", name=f"{a['player']} calls for the top discard")).to_have_count(1)

    # the same kind of dispute set out by tapping: Player 4 challenges Player 3, who made four calls this deal
    page.get_by_label("Your question").select_option("challenge")
    page.get_by_label("Which hand of the game").select_option("2")
    page.get_by_label("Which player").select_option("Player 4")
    page.get_by_label("Challenges").select_option("Player 3")
    page.get_by_label("Calls the challenged player made this deal").fill("4")
    for card in ("the two of hearts", "the king of spades"):
        put(page, "the rest of your hand", card)
    put(page, "the top of the discard pile", "the eight of hearts")
    request, answer = asked(page)
    assert request["action"] == {"type": "challenge", "player": "Player 4", "target": "Player 3", "claim": "overcall"}
    assert request["state"]["players"][2]["calls"] == 4
    assert api(base_url, "/v1/adjudicate", request) == (200, answer) and answer["legal"] is True
    box = page.locator("#build-answer .verdict.legal")
    expect(box).to_contain_text("Yes, Player 4 may challenge Player 3, and the challenge is right: Player 3 is charged.")
    for e in answer["events"]:
        expect(box).to_contain_text(f"{e['player']} takes a penalty for an over-call (more calls than allowed) ({e['points']} points)")

    # and a penalty the table reports
    page.get_by_label("Your question").select_option("penalty")
    page.get_by_label("Which player").select_option("Player 2")
    page.get_by_label("The infraction").select_option("missing_discard")
    request, answer = asked(page)
    assert request["action"] == {"type": "penalty", "player": "Player 2", "infraction": "missing_discard"}
    assert api(base_url, "/v1/adjudicate", request) == (200, answer)
    expect(page.locator("#build-answer .verdict")).to_contain_text(
        "Yes, the penalty stands against Player 2." if answer["legal"] else "No, that costs Player 2 no penalty here.")
    fits(page, size)


# -- a score sheet entered by hand, up to its first inconsistency ----------------------------------

def sheet_added(page) -> tuple[dict, dict]:
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/scoresheet") as info:
        page.get_by_role("button", name="Add this hand to the sheet").click()
    return info.value.request.post_data_json, info.value.json()


def enter_hand(page, winner: str, penalties: dict, totals: dict | None = None, how: str | None = None,
               infractions: dict | None = None) -> None:
    page.get_by_label("Who went out").select_option(winner)
    if how:
        page.get_by_label("How it ended").select_option(how)
    for player, points in penalties.items():
        page.locator(f".sheet-line[data-player='{player}']").get_by_label("Penalty points this hand").fill(str(points))
    for player, points in (totals or {}).items():
        page.locator(f".sheet-line[data-player='{player}']").get_by_label("Total written on the sheet (if any)").fill(str(points))
    for player, points in (infractions or {}).items():
        page.locator(f".sheet-line[data-player='{player}']").get_by_label("Points of penalties reported", exact=False).fill(str(points))


def test_a_score_sheet_entered_by_hand_up_to_its_first_inconsistency(sized, base_url):
    from playwright.sync_api import expect
    opener, size = sized
    page = opener()
    page.get_by_label("Players in the game").select_option("3")

    # two hands that agree with the rules: the running totals, as the referee keeps them
    enter_hand(page, "Player 1", {"Player 2": 30, "Player 3": 12})
    sent, answer = sheet_added(page)
    assert api(base_url, "/v1/scoresheet", sent) == (200, answer) and answer["inconsistency"] is None
    enter_hand(page, "Player 2", {"Player 1": 20, "Player 3": 15})
    sent, answer = sheet_added(page)
    assert len(sent["hands"]) == 2 and answer["inconsistency"] is None
    box = page.locator("#sheet-answer")
    expect(box.locator(".sheet-consistent")).to_contain_text("The sheet agrees with the rules")
    for player in answer["players"]:
        expect(box.locator(f"tr[data-hand='2'] td[data-player='{player['id']}']")).to_contain_text(str(player["score"]))
    expect(box).to_contain_text(f"the pool holds {answer['pool']}")

    # a third hand whose total was written wrong: the first inconsistency, in words, with its rule
    right = next(p["score"] for p in answer["players"] if p["id"] == "Player 3") + 9
    enter_hand(page, "Player 1", {"Player 2": 5, "Player 3": 9}, totals={"Player 3": right + 1})
    sent, answer = sheet_added(page)
    assert api(base_url, "/v1/scoresheet", sent) == (200, answer)
    bad = answer["inconsistency"]
    assert bad is not None and bad["hand"] == 3
    shown = page.locator("#sheet-answer .sheet-inconsistency")
    expect(shown).to_contain_text("Hand 3 disagrees with the rules")
    expect(shown).to_contain_text("total written of Player 3")
    expect(shown.locator(f".violation[data-clause='{bad['clause']}']")).to_contain_text(bad["statement"])
    expect(shown).to_contain_text(in_words(bad["message"]))
    fits(page, size)
    shot(page, "score-sheet", size)

    # taken back and entered right, the sheet agrees again
    page.get_by_role("button", name="Take back the last hand").click()
    expect(page.locator("#sheet-hand-heading")).to_contain_text("Hand 3")
    enter_hand(page, "Player 1", {"Player 2": 5, "Player 3": 9}, totals={"Player 3": right})
    sent, answer = sheet_added(page)
    assert len(sent["hands"]) == 3 and answer["inconsistency"] is None
    expect(page.locator("#sheet-answer .sheet-consistent")).to_contain_text("3 hands so far")

    # the Jamaican nine-hand sheet: each hand's contract, the bend, the reported penalties
    page.get_by_label("Variant", exact=True).select_option("jamaican")
    _, variants = api(base_url, "/v1/variants")
    params = next(v for v in variants["variants"] if v["id"] == "jamaican")["parameters"]
    row = params["contract"]["hands"]["1"]
    expect(page.locator("#sheet-hand-heading")).to_contain_text(f"Hand 1: {row['cards']} cards each")
    page.get_by_label("Players in the game").select_option("3")
    enter_hand(page, "Player 1", {"Player 2": 30, "Player 3": 12}, how="kalookie",
               infractions={"Player 2": params["penalties"]["points"] - 10})
    expect(page.get_by_label("How it ended")).to_contain_text("a bend")
    sent, answer = sheet_added(page)
    assert sent["variant"] == "jamaican" and sent["hands"][0]["how"] == "kalookie"
    assert api(base_url, "/v1/scoresheet", sent) == (200, answer)
    bad = answer["inconsistency"]
    assert bad is not None and bad["pointer"] == "/hands/0/infractions/Player 2"
    shown = page.locator("#sheet-answer .sheet-inconsistency")
    expect(shown).to_contain_text("Hand 1 disagrees with the rules")
    expect(shown).to_contain_text(in_words(bad["message"]))
    fits(page, size)
