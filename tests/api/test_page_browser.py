"""The page for people, in a real browser: Debian's chromium driven by Playwright (never `playwright
install`: the system browser at /usr/bin/chromium, which `.ci/run` installs when it is missing).

The page is served by the referee on 127.0.0.1 on a free port; the browser may reach nothing else.
What the page should show is asked of the same server's API, never written here.  Screenshots go to
test-artifacts/ (git-ignored).

axe-core checks every view for accessibility: pinned in tests/axe/package.json and its lock, installed
there by `npm ci --ignore-scripts` when node_modules is missing (never fetched from a CDN), and run
in the page through the browser's own script evaluation (the page's CSP stays as served)."""
from __future__ import annotations

import base64
import copy
import json
import re
import shutil
import subprocess
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask

from kalooki_referee.api import create_app
from tests.support.helpers import serving

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
DISPUTE = ROOT / "examples" / "disputed-build.json"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 20_000
CARD_CODE = re.compile(r"\b(?:10|[2-9AKQJ])[SHDC]\b|\bJK\b")


def _page_app() -> Flask:
    return create_app()


# -- the server, the browser, the API as the test reads it ------------------------------------------

@pytest.fixture(scope="module")
def base_url():
    with serving(_page_app()) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with ExitStack() as stack:
        p = stack.enter_context(sync_playwright())
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000)
        stack.callback(b.close)
        yield b


@pytest.fixture
def open_page(browser, base_url):
    """Opens the page (at a path or full URL) in a fresh context; checks afterwards that the page
    raised no script error and asked nothing of any host but the served referee."""
    from playwright.sync_api import expect
    expect.set_options(timeout=TIMEOUT_MS)
    host = urlsplit(base_url).netloc
    contexts, errors, outside = [], [], []

    def block_outside(route):
        if urlsplit(route.request.url).netloc == host:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    def opener(where: str = "/"):
        context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 1000})
        contexts.append(context)
        context.route("**/*", block_outside)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(where if where.startswith("http") else base_url + where)
        expect(page.locator("body[data-ready=true]")).to_be_attached()
        return page

    try:
        yield opener
    finally:
        for context in contexts:
            context.close()
    assert errors == [] and outside == []


def api(base_url: str, path: str, body=None):
    """The served referee, read directly: (status, JSON answer)."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(base_url + path, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def screenshot(page, name: str, section: str | None = None) -> None:
    """The whole page, or one section of it, saved as test-artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    if section:
        page.locator(section).screenshot(path=str(ARTIFACTS / f"{name}.png"))
    else:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def expected_citation(base_url: str, variant: str, violation: dict) -> dict:
    """What the page must say about a broken rule, from the API: the rule, its sources' titles and
    sections, and the rulings it rests on (the verdict's own, else those of the variant that touch the
    clause)."""
    _, sources = api(base_url, "/v1/sources")
    titles = {s["id"]: s["title"] for s in sources["sources"]}
    status, clause = api(base_url, f"/v1/clauses/{violation['clause']}")
    assert status == 200, clause
    _, rulings = api(base_url, f"/v1/variants/{variant}/rulings")
    texts = {r["id"]: r["ruling"] for r in rulings["rulings"]}
    ids = violation["rulings"] if "rulings" in violation else [r for r in clause["rulings"] if r in texts]
    return {"clause": violation["clause"], "statement": violation["statement"], "message": violation["message"],
            "sources": [(titles[s["document"]], s["section"]) for s in violation["sources"]],
            "rulings": [(r, texts[r]) for r in ids]}


def assert_cites(block, cited: dict) -> None:
    from playwright.sync_api import expect
    expect(block).to_contain_text(in_words(cited["message"]))
    expect(block).to_contain_text(in_words(cited["statement"]))
    expect(block).to_contain_text(cited["clause"])
    for title, section in cited["sources"]:
        item = block.locator("li.source").filter(has_text=title).filter(has_text=section)
        expect(item).to_have_count(1)
    for rid, text in cited["rulings"]:
        expect(block.locator(f"li.ruling[data-ruling='{rid}']")).to_contain_text(text)


def shown_position(page) -> dict:
    """The position on screen, read from its card pictures."""
    return page.evaluate("""() => {
      const cards = root => [...root.querySelectorAll('.card')].map(c => c.dataset.card);
      const q = s => [...document.querySelectorAll(s)];
      return {
        seats: Object.fromEntries(q('#position .seat').map(s => [s.dataset.player, cards(s)])),
        melds: Object.fromEntries(q('#position .meld').map(m => [m.dataset.meld, cards(m)])),
        discard: cards(document.querySelector('#position .discard')),
        stock: document.querySelector('#position .stock').dataset.count,
        clauses: q('#verdict .violation').map(v => v.dataset.clause),
      };
    }""")


def position_of(state: dict) -> dict:
    return {"seats": {p["id"]: p["hand"] for p in state["players"]},
            "melds": {m["id"]: m["cards"] for m in state["melds"]},
            "discard": state["discard"][:6], "stock": str(len(state["stock"]))}


def load_log(page, text: str) -> None:
    page.get_by_label("Game log").fill(text)
    page.get_by_role("button", name="Step through this log").click()


# -- the tests ------------------------------------------------------------------------------------

def test_stepping_through_a_recorded_hand_to_its_disputed_move_and_ruling(open_page, base_url):
    from playwright.sync_api import expect
    log = json.loads(DISPUTE.read_text(encoding="utf-8"))
    status, replay = api(base_url, "/v1/replay", log)
    assert status == 200 and replay["first_illegal"] is not None
    bad = replay["first_illegal"]
    cited = [expected_citation(base_url, log["variant"], v) for v in bad["violations"]]
    assert any(c["rulings"] for c in cited), "the recorded dispute should rest on a ruling"

    page = open_page("/")
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    expect(page.locator("#viewer")).to_be_visible()
    expect(page.locator("#step-list li")).to_have_count(len(log["actions"]))

    # from the start, one step at a time, each allowed step said so, up to the disputed one
    page.get_by_role("button", name="Start", exact=True).click()
    positions = bad["index"] + 1  # counted from 1: the start, then after each allowed step
    expect(page.locator("#step-label")).to_contain_text(f"Position 1 of {positions}:")
    assert shown_position(page)["seats"] == position_of(replay["start"]["position"])["seats"]
    for i in range(bad["index"]):
        verdict = page.locator(f"#verdict .verdict[data-step='{i + 1}']")
        expect(verdict).to_contain_text("Allowed.")
        page.get_by_role("button", name="Next step").click()
        expect(page.locator("#step-label")).to_contain_text(f"Position {i + 2} of {positions}:")
    expect(page.get_by_role("button", name="Next step")).to_be_disabled()  # the log stops being valid here

    verdict = page.locator(f"#verdict .verdict.illegal[data-step='{bad['index'] + 1}']")
    expect(verdict).to_contain_text("Not allowed.")
    expect(verdict).to_contain_text("first illegal step")
    expect(page.locator("#step-list li.not-allowed")).to_have_count(1)
    expect(page.locator("#step-list li.not-allowed")).to_have_attribute("data-step", str(bad["index"] + 1))
    for c in cited:
        assert_cites(verdict.locator(f".violation[data-clause='{c['clause']}']"), c)

    # the position before the disputed move, drawn as card pictures, never as codes
    assert shown_position(page) | {"clauses": None} == position_of(bad["position_before"]) | {"clauses": None}
    position = page.locator("#position")
    codes = [c for p in bad["position_before"]["players"] for c in p["hand"]]
    assert position.locator(".seat .card svg[role=img]").count() == len(codes)
    assert CARD_CODE.findall(position.inner_text()) == []
    some = position.locator(".seat .card").first
    code = some.get_attribute("data-card")
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[code[-1]]
    assert suit in some.locator("svg").get_attribute("aria-label")
    assert ("red" if code[-1] in "HD" else "black") in some.locator("svg").get_attribute("class")
    joker = position.locator(".card[data-card='JK'] svg")
    expect(joker.first).to_have_class(re.compile(r"\bjoker\b"))
    # each picture is the referee's own (GET /v1/cards/{code}.svg), and the browser has loaded it
    href = some.locator("svg image").get_attribute("href")
    assert href == f"/v1/cards/{code}.svg"
    loaded = page.evaluate("""async (hrefs) => Promise.all(hrefs.map(async (h) => {
        const r = await fetch(h); return [r.status, r.headers.get("content-type")]; }))""",
                           sorted({i.get_attribute("href") for i in position.locator(".card svg image").all()}))
    assert loaded and all(status == 200 and kind.startswith("image/svg+xml") for status, kind in loaded)
    screenshot(page, "dispute-first-illegal-step")

    # the rules of the variant are readable by topic, the broken rule among them with its ruling
    page.get_by_role("link", name="The rules").click()
    topic = page.locator("details.topic").filter(has=page.locator(f"article[data-clause='{cited[0]['clause']}']"))
    topic.locator(":scope > summary").click()
    article = topic.locator(f"article[data-clause='{cited[0]['clause']}']")
    expect(article).to_be_visible()
    expect(article).to_contain_text(cited[0]["statement"])
    for rid, text in cited[0]["rulings"]:
        expect(article.locator(f"li.ruling[data-ruling='{rid}']")).to_contain_text(text)
    screenshot(page, "rules-by-topic", "#rules")

    # one position and its disputed move (an adjudicate request) is a log of one step
    single = (ROOT / "examples" / "out-of-turn.json").read_text(encoding="utf-8")
    status, verdict_answer = api(base_url, "/v1/adjudicate", single.encode())
    assert status == 200 and not verdict_answer["legal"]
    load_log(page, single)
    expect(page.locator("#step-list li")).to_have_count(1)
    verdict = page.locator("#verdict .verdict.illegal[data-step='1']")
    for v in verdict_answer["violations"]:
        assert_cites(verdict.locator(f".violation[data-clause='{v['clause']}']"),
                     expected_citation(base_url, json.loads(single)["variant"], v))
    assert shown_position(page)["seats"] == position_of(json.loads(single)["state"])["seats"]


def check_meld(page, cards: list[str]) -> None:
    """Asks "Is this meld allowed?" of ``cards`` (their names), tapped into the question's meld."""
    page.get_by_label("Your question").select_option("check")
    for name in cards:
        put(page, "the cards you want to play", name)
    page.get_by_role("button", name="Ask the referee").click()


def clear_meld(page) -> None:
    """Takes every card out of the question's meld, one tap each."""
    placed = page.locator("#build-play .card-button")
    while placed.count():
        placed.first.click()


def test_a_meld_is_checked_by_clicking_card_pictures_under_a_chosen_variant(open_page, base_url):
    from playwright.sync_api import expect
    cards = ["AS", "2S", "3S"]
    answers = {v: api(base_url, "/v1/melds/check", {"variant": v, "cards": cards})[1]
               for v in ("british", "british_ace_low")}
    assert answers["british"]["valid"] != answers["british_ace_low"]["valid"], "the variants should differ here"

    page = open_page("/")
    names = {"AS": "the ace of spades", "2S": "the two of spades", "3S": "the three of spades"}
    for variant in ("british", "british_ace_low"):
        page.get_by_label("Variant", exact=True).select_option(variant)
        clear_meld(page)
        check_meld(page, [names[code] for code in cards])
        expect(page.locator("#build-play .card-button")).to_have_count(len(cards))
        answer, verdict = answers[variant], page.locator("#build-answer .meld-verdict")
        if answer["valid"]:
            expect(verdict).to_contain_text("Yes, this meld is allowed")
            expect(verdict).to_contain_text(f"a {answer['kind']} worth {answer['value']} points")
        else:
            expect(verdict).to_contain_text("No, this meld is not allowed")
            assert_cites(verdict.locator(".violation"), expected_citation(base_url, variant, answer["violation"]))
        expect(verdict).to_contain_text(page.locator("#variant option:checked").inner_text().split(" (")[0])
        screenshot(page, f"meld-check-{variant}", "#build-answer")

    # a joker: the referee reads it, and the page says what it stands for, in words and in a picture
    clear_meld(page)
    check_meld(page, ["a joker", "the five of spades", "the six of spades"])
    _, answer = api(base_url, "/v1/melds/check", {"variant": "british_ace_low", "cards": ["JK", "5S", "6S"]})
    verdict = page.locator("#build-answer .meld-verdict")
    assert answer["ambiguous"] and len(answer["readings"]) > 1, "the joker can end the run at either end"
    # not a refusal: a question back, each reading the referee sees one button
    expect(verdict).to_have_class(re.compile(r"\bquestion\b"))
    expect(verdict).not_to_have_class(re.compile(r"\billegal\b"))
    expect(verdict).to_contain_text("It could be either: which did you mean?")
    assert "No, this meld is not allowed" not in verdict.inner_text()
    readings = verdict.get_by_role("button")
    expect(readings).to_have_count(len(answer["readings"]))
    for reading, button in zip(answer["readings"], readings.all()):
        expect(button).to_contain_text(card_names(reading["cards"]))
    chosen = answer["readings"][-1]
    readings.last.click()
    _, as_chosen = api(base_url, "/v1/melds/check", {"variant": "british_ace_low", "cards": chosen["cards"],
                                                     "declarations": {"kind": chosen["kind"]}})
    assert as_chosen["valid"]
    verdict = page.locator("#build-answer .meld-verdict")
    expect(verdict).to_contain_text("Yes, this meld is allowed")
    expect(verdict).to_contain_text("a joker standing for the")
    expect(verdict.locator(".card svg.joker")).to_have_count(len(as_chosen["jokers"]))
    expect(page.locator("#build-kind")).to_have_value(chosen["kind"])


def test_a_bad_log_shows_the_apis_problems_next_to_the_field(open_page, base_url):
    from playwright.sync_api import expect
    log = json.loads(DISPUTE.read_text(encoding="utf-8"))
    bad = copy.deepcopy(log)
    bad["start"]["state"]["players"][0]["hand"][0] = "1S"
    bad["actions"][1]["type"] = "throw"
    text = json.dumps(bad, indent=1)
    status, problem = api(base_url, "/v1/replay", text.encode())
    assert status == 422 and len(problem["errors"]) >= 2

    page = open_page("/")
    field = page.get_by_label("Game log")
    load_log(page, text)
    box = page.locator("#log-problems")
    expect(box).to_be_visible()
    expect(field).to_have_attribute("aria-invalid", "true")
    assert "log-problems" in field.get_attribute("aria-describedby").split()
    assert box.evaluate("(b) => b.closest('form') === document.getElementById('log-text').closest('form')")
    for error in problem["errors"]:
        item = box.locator(f"li.problem[data-pointer='{error['pointer']}']")
        expect(item).to_contain_text(error["detail"])
        expect(item.locator(".problem-pointer")).to_have_text(error["pointer"])
    expect(page.locator("#viewer")).to_be_hidden()
    screenshot(page, "bad-log-problems", "#log")

    # text that is not JSON at all: the API's own answer, beside the same field
    status, problem = api(base_url, "/v1/replay", b'{"variant": "british", "start": ')
    assert status == 400
    load_log(page, '{"variant": "british", "start": ')
    expect(box.locator("li.problem")).to_contain_text(problem["errors"][0]["detail"])
    expect(box).to_contain_text(problem["title"])

    # a good log clears the problems
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    expect(page.locator("#viewer")).to_be_visible()
    expect(box).to_be_empty()
    expect(field).not_to_have_attribute("aria-invalid", "true")


def test_a_shared_link_and_a_downloaded_file_reopen_the_same_position(open_page, base_url, tmp_path):
    from playwright.sync_api import expect
    page = open_page("/")
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    expect(page.locator("#verdict .verdict.illegal")).to_be_visible()
    page.get_by_role("button", name="Previous step").click()  # a position in the middle of the log
    expect(page.locator("#verdict .verdict.legal")).to_be_visible()
    before = shown_position(page)
    step_text = page.locator("#verdict h4").inner_text().split(": ", 1)[1]

    # a link of the older form (the position and the step made from it, deflated) still opens
    link = base_url + "/#position=" + page.evaluate(
        "async () => { const m = await import('/static/page.js'); return m.encodeShare(m.sharedLog()); }")
    fragment = link.split("#position=", 1)[1]
    assert re.fullmatch(r"[A-Za-z0-9_-]+", fragment) and "{" not in fragment

    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download this position").click()
    saved = tmp_path / "position.json"
    download_info.value.save_as(saved)
    shared = json.loads(saved.read_text(encoding="utf-8"))
    assert set(shared) >= {"variant", "start", "actions"} and len(shared["actions"]) == 1
    status, answer = api(base_url, "/v1/replay", shared)  # the file is a replay request the API reads too
    assert status == 200 and answer["start"]["position"]["players"] == shared["start"]["state"]["players"]

    # the link, opened in a new browser context (nothing carried over but the link itself)
    other = open_page(link)
    expect(other.locator("#viewer")).to_be_visible()
    expect(other.locator("#verdict h4")).to_contain_text(step_text)
    assert shown_position(other) == before
    screenshot(other, "shared-link-reopened", "#log")

    # the file, opened in a third one
    third = open_page("/")
    third.get_by_label("Open a log file").set_input_files(str(saved))
    expect(third.locator("#viewer")).to_be_visible()
    expect(third.locator("#verdict h4")).to_contain_text(step_text)
    assert shown_position(third) == before


# -- a position set out by hand, signed rulings ---------------------------------------------------------

RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight", "7": "seven",
              "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_names(codes: list[str]) -> str:
    """Cards as the page writes them in running text: "the two of spades and the two of hearts"; a joker
    read as a card, "JK(=4S)", is "a joker standing for the four of spades"."""
    def one(code: str) -> str:
        joker = re.fullmatch(r"JK\(=(.+)\)", code)
        card = joker.group(1) if joker else code
        words = f"the {RANK_WORDS[card[:-1]]} of {SUIT_WORDS[card[-1]]}"
        return f"a joker standing for {words}" if joker else words
    words = [one(c) for c in codes]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def in_words(text: str) -> str:
    """The referee's words as the page shows them: each card code named ("2D" -> "the two of diamonds")."""
    return re.sub(r"\bJK\b|\b(?:10|[2-9AKQJ])[SHDC]\b", lambda m: "a joker" if m.group(0) == "JK" else card_names([m.group(0)]), text)


def put(page, area: str, card: str) -> None:
    """Clicks a card picture into one part of the position being set out (``area`` as the page names it)."""
    page.get_by_role("radio", name=area, exact=True).check()
    page.get_by_role("button", name=f"Put {card} in {area}", exact=True).click()


def asked(page) -> tuple[dict, dict]:
    """Clicks "Ask the referee"; the request the page sent to /v1/adjudicate and its answer."""
    with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/adjudicate") as info:
        page.get_by_role("button", name="Ask the referee").click()
    return info.value.request.post_data_json, info.value.json()


def opened_table_with_a_run(page, question: str) -> None:
    """Three at the table, you have opened, and a run of the five, six and seven of clubs lies on it."""
    page.get_by_label("Your question").select_option(question)
    page.get_by_label("Players at the table").select_option("3")
    page.get_by_label("I have already come down (laid my first meld)").check()
    page.get_by_role("button", name="Put another meld on the table").click()
    for card in ("the five of clubs", "the six of clubs", "the seven of clubs"):
        put(page, "the first meld on the table", card)


def test_a_position_set_out_by_hand_gets_a_ruling_with_its_clause_and_source(open_page, base_url):
    from playwright.sync_api import expect
    page = open_page("/")
    _, variants = api(base_url, "/v1/variants")
    british = next(v for v in variants["variants"] if v["id"] == "british")["parameters"]

    # "May I add these three clubs to that run?": a run on the table, three cards to add, the rest of a hand
    opened_table_with_a_run(page, "build")
    for card in ("the eight of clubs", "the nine of clubs", "the ten of clubs"):
        put(page, "the cards you want to play", card)
    for card in ("the king of hearts", "a joker"):
        put(page, "the rest of your hand", card)
    put(page, "the top of the discard pile", "the two of diamonds")
    request, answer = asked(page)

    # the position sent is the one set out; what nobody laid out goes as counts worked out from the deal
    # (each hand holds what the variant deals, less what its player laid, plus the card you drew this
    # turn; the stock the rest of the pack), never as invented cards
    state, me = request["state"], request["state"]["players"][0]
    dealt = british["deal"]["cards_each"]
    assert request["variant"] == "british" and state["to_act"] == me["id"] and me["opened"] is True
    assert sorted(me["hand"]) == sorted(["KH", "JK", "8C", "9C", "10C"]) and me["hidden"] == dealt + 1 - 5
    assert [m["cards"] for m in state["melds"]] == [["5C", "6C", "7C"]] and state["discard"] == ["2D"]
    assert request["action"] == {"type": "build", "meld": state["melds"][0]["id"], "cards": ["8C", "9C", "10C"]}
    assert len(state["players"]) == 3
    assert state["melds"][0]["owner"] == "Player 2"
    assert [p["hidden"] for p in state["players"][1:]] == [dealt - 3, dealt] and all(p["hand"] == [] for p in state["players"][1:])
    assert state["stock"] == []
    held = (sum(len(p["hand"]) + p.get("hidden", 0) for p in state["players"]) + state["stock_hidden"]
            + len(state["discard"]) + 3)
    assert held == 52 * british["pack"]["decks"] + british["pack"]["jokers"]
    status, verdict = api(base_url, "/v1/adjudicate", request)  # the referee reads it as the page did
    assert status == 200 and verdict == answer and verdict["legal"] is False

    box = page.locator("#build-answer .verdict.illegal")
    expect(box).to_contain_text("No, you may not.")
    for v in verdict["violations"]:
        cited = expected_citation(base_url, "british", v)
        assert cited["rulings"], "this dispute rests on a ruling"
        assert_cites(box.locator(f".violation[data-clause='{v['clause']}']"), cited)
    assert page.locator(".build-areas .card svg, .build-areas .card-button svg").count() >= 9  # drawn as pictures
    assert CARD_CODE.findall(page.locator(".build-areas").inner_text()) == []
    screenshot(page, "position-by-hand-ruling", "#build")

    # the same table, another question: take the top discard into a new set (allowed: the player has opened)
    page.get_by_label("Your question").select_option("take")
    page.get_by_role("button", name="Take the eight of clubs out of the cards you want to play").click()
    page.get_by_role("button", name="Take the nine of clubs out of the cards you want to play").click()
    page.get_by_role("button", name="Take the ten of clubs out of the cards you want to play").click()
    for card in ("the two of spades", "the two of hearts"):
        put(page, "the cards you want to play", card)
    request, answer = asked(page)
    assert request["state"]["phase"] == "draw" and request["action"]["type"] == "turn"
    assert request["action"]["actions"][1]["melds"][0]["cards"] == ["2D", "2S", "2H"]
    assert answer == api(base_url, "/v1/adjudicate", request)[1] and answer["legal"] is True
    box = page.locator("#build-answer .verdict.legal")
    expect(box).to_contain_text("Yes, you may.")
    melded = next(e for e in answer["events"] if e["type"] == "melded")
    expect(box).to_contain_text(f"laid a {melded['kind']} ({card_names(melded['cards'])})")

    # not opened, with five cards of the hand left out: whether the discard may be taken depends on
    # cards nobody listed, and the page says so, with what the referee would need to see
    page.get_by_label("I have already come down (laid my first meld)").uncheck()
    page.get_by_label("Cards of yours not tapped in").fill("5")
    page.get_by_label("Cards in each other player's hand").fill("11")
    request, answer = asked(page)
    assert request["state"]["players"][0]["hidden"] == 5
    assert [p["hidden"] for p in request["state"]["players"][1:]] == [11, 11]
    assert answer == api(base_url, "/v1/adjudicate", request)[1] and answer["legal"] is None
    box = page.locator("#build-answer .verdict.undetermined")
    expect(box).to_contain_text("The referee needs to see more cards to decide.")
    for u in answer["undetermined"]:
        expect(box.locator(f".violation[data-clause='{u['clause']}']")).to_contain_text(in_words(u["message"]))
    expect(box).to_contain_text("It would need to see: the unseen cards of Player 1's hand")
    screenshot(page, "position-by-hand-undetermined", "#build")
    page.get_by_label("Cards of yours not tapped in").fill("0")
    page.get_by_label("Cards in each other player's hand").fill("")
    page.get_by_label("I have already come down (laid my first meld)").check()

    # a position the pack cannot make: the API's problem, beside the cards it is about
    for _ in range(3):
        put(page, "the rest of your hand", "the five of spades")
    request, shown = asked(page)
    assert request["state"]["players"][0]["hand"].count("5S") == 3
    status, problem = api(base_url, "/v1/adjudicate", request)
    assert status == 422 and problem == shown
    box = page.locator("#build-hand-problems")
    about_the_hand = [e for e in problem["errors"] if e["pointer"].startswith("/state/players/0/hand")]
    assert about_the_hand
    for error in about_the_hand:  # each said once: the same words about the same cards are one line
        expect(box.locator(f"li.problem[data-pointers~='{error['pointer']}']")).to_contain_text(error["detail"])
    lines = box.locator("li.problem .problem-words").all_inner_texts()
    assert len(lines) == len(set(lines))
    expect(page.locator("#build-answer")).to_be_empty()

    # asking with nothing laid out: the page says what is missing, beside each part
    page.get_by_role("button", name="Clear the position").click()
    page.get_by_role("button", name="Ask the referee").click()
    expect(page.locator("#build-play-problems")).to_contain_text("click the cards you want to play")
    expect(page.locator("#build-discard-problems")).to_contain_text("top of the discard pile")

    # a joker on the table that could stand for two cards: the page asks which, with the meld check's readings
    page.get_by_label("Your question").select_option("meld")
    page.get_by_role("button", name="Put another meld on the table").click()
    for card in ("the five of clubs", "the six of clubs", "the seven of clubs", "a joker"):
        put(page, "the first meld on the table", card)
    for card in ("the king of spades", "the king of hearts", "the king of diamonds", "the two of hearts"):
        put(page, "the cards you want to play", card)
    page.get_by_role("button", name="Ask the referee").click()
    _, check = api(base_url, "/v1/melds/check", {"variant": "british", "cards": ["5C", "6C", "7C", "JK"],
                                                 "declarations": {"kind": "run"}})
    assert check["ambiguous"] and len(check["readings"]) > 1
    readings = page.locator("#build-meld-m1-problems button.reading")
    expect(readings).to_have_count(len(check["readings"]))
    readings.first.click()
    request, answer = asked(page)
    assert request["state"]["melds"][0]["cards"] == check["readings"][0]["cards"]
    expect(page.locator("#build-answer .verdict")).to_contain_text("you may")


def _saved(download, path: Path) -> dict:
    download.save_as(path)
    return json.loads(path.read_text(encoding="utf-8"))


def _python_verifies(base_url: str, ruling: dict) -> bool:
    from kalooki_referee.api.signing import NotVerified, key_id, public_key, verify
    _, published = api(base_url, "/v1/keys")
    keys = {k["key_id"]: public_key(k["public_key"]) for k in published["keys"]}
    assert all(key_id(v) == k for k, v in keys.items())
    try:
        verify(ruling["request"], ruling["answer"], keys)
    except NotVerified:
        return False
    return True


def _check_in_page(page, text: str, key: str = "") -> str:
    from playwright.sync_api import expect
    page.get_by_label("Public key (optional)").fill(key)
    page.get_by_label("Signed ruling", exact=True).fill(text)
    page.locator("#signed-answer").evaluate("(n) => n.replaceChildren()")
    page.get_by_role("button", name="Check this ruling").click()
    result = page.locator("#signed-answer .signed-result")
    expect(result).to_be_visible()
    return result.get_attribute("data-verified")


def _one_byte_changed(text: str, old: str, new: str, after: str) -> str:
    """``text`` with the first ``old`` after ``after`` written as ``new`` (one character for one)."""
    assert len(old) == len(new) == 1
    start = text.index(after)
    at = text.index(old, start)
    return text[:at] + new + text[at + 1:]


def _payment_words(least: int, most: int) -> str:
    """A payment as the page words it: what a player pays (a negative figure) or gets."""
    span = lambda a, b: str(a) if a == b else f"{a} to {b}"  # noqa: E731
    if most < 0:
        return f"pays {span(-most, -least)}"
    if least > 0:
        return f"gets {span(least, most)}"
    return "0" if least == most == 0 else f"{least} to {most}"


def test_a_hand_won_while_other_hands_are_unseen_shows_every_figure_the_cards_decide(open_page, base_url):
    """"What do I owe?" at a real table: a player goes out while the other hands are counts; the page
    shows each figure the seen cards settle as a number, each other one as its least and its most, and
    whose unseen cards would decide it."""
    from playwright.sync_api import expect
    page = open_page("/")
    opened_table_with_a_run(page, "discard")
    put(page, "the card you throw", "the king of hearts")
    page.get_by_label("Cards of yours not tapped in").fill("0")  # the last card: the person says so
    request, answer = asked(page)
    # the other hands as counts worked out from the deal: Player 2 laid the run
    assert [p.get("hidden", 0) for p in request["state"]["players"][1:]] == [13 - 3, 13]
    assert answer == api(base_url, "/v1/adjudicate", request)[1]
    assert answer["legal"] is True and answer["settlement"]["winner"] == request["state"]["players"][0]["id"]
    settlement = answer["settlement"]
    box = page.locator("#build-answer .verdict")
    table = box.locator(".settlement table")
    expect(table).to_be_visible()
    open_figures = 0
    for kind, word in (("penalties", "Penalty"), ("payments", "Payment"), ("credits", "Credit"), ("scores", "Score")):
        figures = settlement.get(kind) or {}
        if not figures:
            expect(table.locator("thead")).not_to_contain_text(word)
            continue
        column = [h.strip() for h in table.locator("thead th").all_inner_texts()].index(word)
        for player, figure in figures.items():
            row = table.locator("tbody tr").filter(has=page.locator(f"th:text-is('{player}')"))
            shown = row.locator("td").nth(column - 1)
            least, most = (figure["min"], figure["max"]) if figure.get("undetermined") else (figure["value"],) * 2
            open_figures += bool(figure.get("undetermined"))
            expect(shown).to_have_text(_payment_words(least, most) if kind == "payments" else
                                       str(least) if least == most else f"{least} to {most}")
    # here the stake each loser pays is settled, their penalty points are not (the other hands are unseen)
    assert open_figures and any(not f.get("undetermined") for f in settlement["payments"].values())
    expect(box.locator(".open-figures li")).to_have_count(open_figures)
    expect(box.locator(".open-figures")).to_contain_text("the unseen cards of Player 2's hand")
    expect(box.locator(".table-now")).to_contain_text("Settle the figures the table shows now")
    screenshot(page, "position-won-with-unseen-hands", "#build")


def test_a_signed_ruling_verifies_in_the_browser_and_one_altered_byte_does_not(open_page, base_url, tmp_path):
    from playwright.sync_api import expect
    page = open_page("/")
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    verdict = page.locator("#verdict .verdict.illegal")
    with page.expect_download() as info:
        verdict.get_by_role("button", name="Sign this verdict").click()
    ruling = _saved(info.value, tmp_path / "ruling.json")
    expect(verdict.locator(".sign-note")).to_contain_text(ruling["answer"]["signature"]["key_id"])
    # the file holds the disputed step as one adjudication, and its signed verdict is the referee's
    log = json.loads(DISPUTE.read_text(encoding="utf-8"))
    _, replay = api(base_url, "/v1/replay", log)
    bad = replay["first_illegal"]
    assert ruling["request"]["state"] == bad["position_before"] and ruling["request"]["action"] == log["actions"][bad["index"]]
    status, plain = api(base_url, "/v1/adjudicate", ruling["request"])
    assert status == 200 and {k: v for k, v in ruling["answer"].items() if k != "signature"} == plain
    assert _python_verifies(base_url, ruling)

    text = (tmp_path / "ruling.json").read_text(encoding="utf-8")
    page.get_by_label("Open a signed ruling file").set_input_files(str(tmp_path / "ruling.json"))
    result = page.locator("#signed-answer .signed-result")
    expect(result).to_have_attribute("data-verified", "true")
    expect(result).to_contain_text("Verified.")
    expect(result).to_contain_text(ruling["answer"]["signature"]["key_id"])
    expect(result).to_contain_text(ruling["answer"]["violations"][0]["clause"])
    screenshot(page, "signed-ruling-verified", "#signed")

    # one byte of the request (a card of the action), or of the answer (a letter of the message): not verified
    altered = {"request": _one_byte_changed(text, "C", "D", '"action"'),
               "answer": _one_byte_changed(text, "n", "m", '"message"')}
    for part, changed in altered.items():
        assert sum(a != b for a, b in zip(changed, text)) == 1 and len(changed) == len(text)
        assert not _python_verifies(base_url, json.loads(changed)), part
        assert _check_in_page(page, changed) == "false", part
        expect(result).to_contain_text("Not verified.")
        expect(result).to_contain_text("altered")
    screenshot(page, "signed-ruling-altered", "#signed")

    # the key can be given by hand: the published one verifies, another key does not
    _, published = api(base_url, "/v1/keys")
    assert _check_in_page(page, text, published["keys"][0]["public_key"]) == "true"
    other = base64.b64encode(Ed25519PrivateKey.generate().public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)).decode()
    assert _check_in_page(page, text, other) == "false"

    # a file that is not a signed ruling: said beside the field
    page.get_by_label("Public key (optional)").fill("")
    page.get_by_label("Signed ruling", exact=True).fill('{"request": {}}')
    page.get_by_role("button", name="Check this ruling").click()
    expect(page.locator("#signed-problems li.problem[data-pointer='/answer']")).to_be_visible()
    expect(page.get_by_label("Signed ruling", exact=True)).to_have_attribute("aria-invalid", "true")


def test_the_pages_canonical_json_is_the_referees(open_page, base_url):
    # the browser's check signs nothing itself: it must write exactly the bytes the referee signed
    from kalooki_referee.rules.wire.replay import canonical
    page = open_page("/")
    log = json.loads(DISPUTE.read_text(encoding="utf-8"))
    _, replay = api(base_url, "/v1/replay", log)
    documents = [log, replay, {
        "\u20ac": 1, "\r": "line\nbreak\ttab\u0001\u001f", "\ufb33": [None, True, False], "1": {"b": [], "a": {}},
        "\U0001f600": "\U0001f600 \u00e9 \u2028", "a": -9007199254740991, "\u0080": "\"\\/</script>", "": 0}]
    for doc in documents:
        assert page.evaluate(
            "async (doc) => (await import('/static/rulings.js')).canonicalJson(doc)", doc) == canonical(doc).decode("utf-8")


# -- a phone first, then a desktop: every view fits, axe finds nothing ---------------------------------

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
AXE_DIR = ROOT / "tests" / "axe"
# Views whose first screen on a phone is saved too (test-artifacts/phone-screen-<view>.png; docs/img/
# holds copies for the README): the step buttons with the verdict under them, the picker and its answer.
PHONE_SCREENS = {"log-first-illegal-step": "#viewer .stepper", "meld-which-reading": "#build-answer",
                 "what-could-i-do": "#verdict", "score-sheet-inconsistent": "#sheet-answer"}


@pytest.fixture(scope="module")
def axe_script() -> str:
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        if shutil.which("npm") is None:
            pytest.skip("npm is needed to install the pinned axe-core (tests/axe/package.json) and is not installed")
        done = subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=AXE_DIR,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    return script.read_text(encoding="utf-8")


def axe_violations(page, axe_script: str) -> list:
    """Every rule axe-core has, its experimental ones too (label-content-name-mismatch among them), on the
    page as it stands; the violations as (rule, impact, how many, the first few elements)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_script + "\n;0")
    return page.evaluate("""async () => {
      const rules = axe.getRules().map(r => r.ruleId);
      const result = await axe.run(document, {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']});
      return result.violations.map(v => [v.id, v.impact, v.nodes.length, v.nodes.slice(0, 3).map(n => n.target.join(' '))]);
    }""")


def wait_settled(page) -> None:
    """Until the page has nothing pending: no "Reading the rules..." left, and the highlight of a card
    just placed gone."""
    from playwright.sync_api import expect
    expect(page.get_by_text("Reading the rules\u2026")).to_have_count(0)
    expect(page.locator(".just-placed")).to_have_count(0)


def each_view(page):
    """Walks the page through its views, yielding each one's name once it is on screen."""
    from playwright.sync_api import expect
    yield "start"

    page.locator("details.topic").first.locator(":scope > summary").click()
    page.locator("#rules details.ids").first.locator("summary").click()
    yield "rules"

    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    expect(page.locator("#verdict .verdict.illegal .violation").first).to_be_visible()
    for summary in page.locator("#verdict details.ids > summary").all():
        if summary.is_visible():
            summary.click()
    yield "log-first-illegal-step"

    page.get_by_role("button", name="Previous step").click()
    expect(page.locator("#verdict .verdict.legal")).to_be_visible()
    yield "log-allowed-step"

    check_meld(page, ["a joker", "the five of spades", "the six of spades"])
    expect(page.locator("#build-answer .meld-verdict.question")).to_be_visible()
    yield "meld-which-reading"

    page.locator("#build-answer button.reading").first.click()
    expect(page.locator("#build-answer .meld-verdict.legal")).to_be_visible()
    yield "meld-allowed"

    clear_meld(page)
    check_meld(page, ["the five of spades"])
    expect(page.locator("#build-answer .meld-verdict.illegal")).to_be_visible()
    yield "meld-refused"

    clear_meld(page)
    page.get_by_label("Your question").select_option("meld")
    for card in ("the five of clubs", "the six of clubs"):
        put(page, "the cards you want to play", card)
    put(page, "the rest of your hand", "the king of hearts")
    page.get_by_role("button", name="Ask the referee").click()
    expect(page.locator("#build-answer .verdict.illegal")).to_be_visible()
    yield "position-ruling"

    page.get_by_label("Cards in each other player's hand").fill("40")
    page.get_by_role("button", name="Ask the referee").click()
    expect(page.locator("#build .pack-count")).to_be_visible()
    yield "position-impossible"

    # coming down with two melds at once, the counts worked out from the deal
    page.get_by_role("button", name="Clear the position").click()
    page.get_by_label("Cards in each other player's hand").fill("")
    for card in ("the ten of spades", "the ten of hearts", "the ten of diamonds"):
        put(page, "the cards you want to play", card)
    page.get_by_role("button", name="Lay another meld as well").click()
    for card in ("the five of clubs", "the six of clubs", "the seven of clubs"):
        put(page, "your second new meld", card)
    page.get_by_role("button", name="Ask the referee").click()
    expect(page.locator("#build-answer .verdict.legal")).to_be_visible()
    yield "position-two-melds"

    page.locator("#build").get_by_role("button", name="What could I do here?").click()
    expect(page.locator("#build-answer .legal-moves")).to_be_visible()
    yield "position-what-could-i-do"

    # the questions about another player: a call in the contract game, its hand and contract shown
    page.get_by_role("button", name="Clear the position").click()
    page.get_by_label("Cards in each other player's hand").fill("")
    page.get_by_label("Variant", exact=True).select_option("jamaican")
    page.get_by_label("Your question").select_option("call")
    page.get_by_label("Which hand of the game").select_option("3")
    page.get_by_label("Which player").select_option("Player 4")
    put(page, "the rest of your hand", "the two of hearts")
    put(page, "the top of the discard pile", "the eight of hearts")
    page.get_by_role("button", name="Ask the referee").click()
    expect(page.locator("#build-answer .verdict")).to_be_visible()
    yield "position-call"

    page.get_by_label("Sample dispute").select_option(label="Jamaican: a call, an allow, an over-call challenged, a penalty")
    page.get_by_role("button", name="Open this dispute").click()
    expect(page.locator("#verdict .verdict.illegal .violation").first).to_be_visible()
    yield "sample-jamaican-call"

    page.get_by_role("button", name="Start", exact=True).click()
    page.locator("#explore").get_by_role("button", name="What could I do here?").click()
    expect(page.locator("#explore-list button.legal-move").first).to_be_visible()
    yield "what-could-i-do"

    page.locator("#explore-list button.legal-move").first.click()
    expect(page.locator("#branch-note")).to_be_visible()
    yield "what-if-branch"

    page.get_by_label("Variant", exact=True).select_option("british")
    page.get_by_label("Players in the game").select_option("3")
    for points, player in ((30, "Player 2"), (12, "Player 3")):
        page.locator(f".sheet-line[data-player='{player}']").get_by_label("Penalty points this hand").fill(str(points))
    page.locator(".sheet-line[data-player='Player 3']").get_by_label("Total written on the sheet (if any)").fill("13")
    page.get_by_role("button", name="Add this hand to the sheet").click()
    expect(page.locator("#sheet-answer .sheet-inconsistency")).to_be_visible()
    yield "score-sheet-inconsistent"

    page.get_by_role("button", name="Take back the last hand").click()
    page.locator(".sheet-line[data-player='Player 2']").get_by_role("button", name="Tap Player 2's cards left in hand").click()
    page.get_by_role("button", name="Put the king of hearts in Player 2's cards", exact=True).click()
    yield "score-sheet-cards-left"

    page.get_by_label("Signed ruling", exact=True).fill('{"request": {}}')
    page.get_by_role("button", name="Check this ruling").click()
    expect(page.locator("#signed-problems li.problem")).to_be_visible()
    yield "signed-not-a-ruling"


def too_small(page) -> list:
    """Every control on screen a finger cannot hit: buttons, selects, fields, disclosure summaries and the
    card picker under 44x44 px (a radio button or check box counts by its label, the part one taps)."""
    return page.evaluate("""() => {
      const small = [];
      const seen = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
        return r.width > 1 && r.height > 1 && s.visibility !== 'hidden' && !el.closest('.visually-hidden'); };
      for (const el of document.querySelectorAll('button, select, input, textarea, summary')) {
        if (!seen(el) && !(el.type === 'radio' || el.type === 'checkbox')) continue;
        let target = el;
        if (el.type === 'radio' || el.type === 'checkbox') {
          target = el.labels && el.labels[0];
          if (!target || !seen(target)) continue;
          const r = target.getBoundingClientRect(), i = el.getBoundingClientRect();
          if (i.width < 24 || i.height < 24) small.push(`${el.id || el.name}: box ${Math.round(i.width)}x${Math.round(i.height)}`);
        }
        const r = target.getBoundingClientRect();
        if (r.width < 44 || r.height < 44) {
          small.push(`${el.tagName.toLowerCase()}#${el.id || ''}.${el.className || ''} "${(target.innerText || target.value || '').slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
        }
      }
      return small;
    }""")


def scrolls_sideways(page) -> list:
    """Elements whose content is wider than their box and that scroll (or clip) it sideways."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')].filter(el => {
        const s = getComputedStyle(el);
        if (el.closest('.visually-hidden') || el.getClientRects().length === 0) return false;
        const scrolls = ['auto', 'scroll'].includes(s.overflowX) || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
        return scrolls && el.scrollWidth > el.clientWidth + 1;
      }).map(el => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${el.scrollWidth}>${el.clientWidth}`)""")


def test_every_view_fits_a_phone_and_a_desktop_and_axe_finds_nothing(open_page, axe_script):
    from playwright.sync_api import expect
    found = {}
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = open_page("/")
        page.set_viewport_size(viewport)
        for view in each_view(page):
            wait_settled(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{size}, {view}: the page scrolls sideways to {width} px"
            assert too_small(page) == [], f"{size}, {view}: controls smaller than 44x44 px"
            assert scrolls_sideways(page) == [], f"{size}, {view}: elements scrolling sideways inside their box"
            violations = axe_violations(page, axe_script)
            if violations:
                found[f"{size}, {view}"] = violations
            if size == "phone":
                screenshot(page, f"phone-{view}")
                if view in PHONE_SCREENS:  # what a phone shows at once, from the part the view is about
                    page.locator(PHONE_SCREENS[view]).evaluate("(n) => n.scrollIntoView({block: 'start'})")
                    page.screenshot(path=str(ARTIFACTS / f"phone-screen-{view}.png"))
            if view == "log-first-illegal-step":
                stepper, verdict = page.locator(".stepper").bounding_box(), page.locator("#verdict").bounding_box()
                below = verdict["y"] - (stepper["y"] + stepper["height"])
                assert 0 <= below <= 120, f"{size}: the verdict starts {below} px below the step buttons"
                position, steps = page.locator("#position").bounding_box(), page.locator("#step-list").bounding_box()
                if size == "desktop":  # the position and the list of steps side by side
                    assert steps["x"] >= position["x"] + position["width"] and steps["y"] < position["y"] + position["height"]
                else:  # one column on a phone
                    assert steps["y"] >= position["y"] + position["height"]
        expect(page.locator("body")).to_be_visible()
    assert found == {}


def test_the_keyboard_alone_places_cards_and_steps_through_a_log(open_page):
    from playwright.sync_api import expect
    page = open_page("/")
    page.set_viewport_size(PHONE)
    picker = page.locator("#build-palette")
    # one Tab stop for the whole picker
    expect(picker.locator("button")).to_have_count(53)
    expect(picker.locator("button[tabindex='0']")).to_have_count(1)
    page.get_by_role("radio", name="the cards you want to play", exact=True).focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#build-palette') !== null")
    start = page.evaluate("document.activeElement.dataset.card")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    placed = page.locator("#build-play .card-button")
    expect(placed).to_have_count(1)
    first = placed.first.get_attribute("data-card")
    assert first != start and page.evaluate("document.activeElement.dataset.card") == first  # the focus stayed
    page.keyboard.press("ArrowDown")  # the same rank, the next suit
    page.keyboard.press("Space")
    expect(placed).to_have_count(2)
    second = placed.nth(1).get_attribute("data-card")
    assert second[:-1] == first[:-1] and second != first
    assert page.evaluate("document.activeElement.closest('#build-palette') !== null")
    assert page.evaluate("document.activeElement.dataset.card") == second
    # where the cards went is in sight beside the picker, and said to a screen reader
    tray = page.locator("#build-tray")
    expect(tray).to_contain_text("the cards you want to play")
    expect(tray.locator(".card")).to_have_count(2)
    expect(page.locator("#build-placed")).to_contain_text("the cards you want to play")
    box = tray.bounding_box()
    assert box["y"] + box["height"] - picker.bounding_box()["y"] <= PHONE["height"], "the picker and the tray fit one screen"

    # the arrow keys step through a log, from any button of the viewer
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    label = page.locator("#step-label")
    page.get_by_role("button", name="Start", exact=True).click()
    expect(label).to_contain_text("Position 1 of")
    page.get_by_role("button", name="Next step").focus()
    page.keyboard.press("ArrowRight")
    expect(label).to_contain_text("Position 2 of")
    page.keyboard.press("ArrowLeft")
    expect(label).to_contain_text("Position 1 of")
    page.keyboard.press("End")
    total = re.search(r"of (\d+)", label.inner_text()).group(1)
    expect(label).to_contain_text(f"Position {total} of {total}")
    assert page.evaluate("document.activeElement.closest('#viewer') !== null"), ("the focus stays in the viewer", page.evaluate("document.activeElement.outerHTML.slice(0, 200)"))
    page.keyboard.press("ArrowLeft")
    expect(label).to_contain_text(f"Position {int(total) - 1} of {total}")
    page.keyboard.press("Home")
    expect(label).to_contain_text("Position 1 of")


# -- plain words first -------------------------------------------------------------------------------

IDS = re.compile(r"\b(?:dec|amb)\.\w+|(?<![\w.:/])/[a-z_]+/[a-z_/0-9]+|\b[Dd]ocuments? \d{3}\b")


def test_a_verdict_says_what_happened_whether_allowed_why_and_what_now_and_its_ids_sit_behind_details(open_page, base_url):
    from playwright.sync_api import expect
    log = json.loads(DISPUTE.read_text(encoding="utf-8"))
    _, replay = api(base_url, "/v1/replay", log)
    bad = replay["first_illegal"]
    _, clauses = api(base_url, "/v1/clauses")
    clause_ids = {c["id"] for c in clauses["clauses"]}
    page = open_page("/")
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    verdict = page.locator("#verdict .verdict.illegal")
    expect(verdict.locator(".violation").first).to_be_visible()
    wait_settled(page)
    shown = verdict.inner_text()  # what is on screen: a closed <details> shows only its summary
    order = [verdict.locator("h4").inner_text(), "Not allowed.", bad["violations"][0]["statement"], "What the table does now:"]
    at = [shown.find(part) for part in order]
    assert -1 not in at and at == sorted(at), (order, at)
    assert IDS.findall(shown) == [] and [c for c in clause_ids if c in shown] == []
    for v in bad["violations"]:
        for rid in v.get("rulings", []):
            assert rid not in shown
        details = verdict.locator(f".violation[data-clause='{v['clause']}'] details.ids")
        expect(details.filter(has_text=v["clause"])).not_to_have_count(0)
        details.last.locator("summary").click()
    for rid in {r for v in bad["violations"] for r in v.get("rulings", [])}:
        assert rid in verdict.inner_text()  # opened, the ids are there for the record

    # the rules of the variant, read in full, say no document number, ambiguity id or house rule pointer
    page.get_by_role("link", name="The rules").click()
    for topic in page.locator("#rules details.topic > summary").all():
        topic.click()
    rules_text = page.locator("#rules").inner_text()
    assert IDS.findall(rules_text) == [] and [c for c in clause_ids if c in rules_text] == []

    # a lone card: what a meld of any kind needs, from the variant's own figures
    _, variant = api(base_url, "/v1/variants/british")
    _, variants = api(base_url, "/v1/variants")
    melds = next(v for v in variants["variants"] if v["id"] == "british")["parameters"]["melds"]
    least = min(melds["run"]["min"], melds["set"]["min"])
    page.get_by_label("Variant", exact=True).select_option("british")
    check_meld(page, ["the five of spades"])
    answer = page.locator("#build-answer .meld-verdict.illegal")
    expect(answer).to_contain_text(f"a meld, whether a set or a run, has at least {least} cards; this is one card")
    expect(answer).to_contain_text("What the table does now:")
    assert "a run has" not in answer.inner_text()
    clear_meld(page)

    # a position the pack cannot make: counted out seat by seat, each thing said once
    page.get_by_label("Your question").select_option("meld")
    page.get_by_label("Players at the table").select_option("4")
    for card in ("the five of clubs", "the six of clubs", "the seven of clubs"):
        put(page, "the cards you want to play", card)
    page.get_by_label("Cards in each other player's hand").fill("40")
    request, problem = asked(page)
    assert problem["status"] == 422
    size = int(re.search(r"the pack has (\d+)", problem["errors"][0]["detail"]).group(1))
    box = page.locator("#build .pack-count")
    expect(box).to_contain_text(f"the pack has {size} cards")
    held = sum(len(p["hand"]) + p.get("hidden", 0) for p in request["state"]["players"]) + request["state"]["stock_hidden"]
    expect(box).to_contain_text(f"this position holds {held}, {held - size} too many")
    for seat in request["state"]["players"]:
        expect(box.locator("li").filter(has_text=f"{seat['id']}'s hand")).to_have_count(1)
    problems = page.locator("#build-question-problems")
    lines = problems.locator("li.problem").all_inner_texts()
    assert len(lines) == len(set(lines)) and len(lines) < len(problem["errors"])
    assert "/state/" not in problems.inner_text()

    # an answer that waits on unseen cards is not called illegal in the viewer
    page.get_by_role("button", name="Clear the position").click()
    page.get_by_label("Your question").select_option("take")
    page.get_by_label("Cards in each other player's hand").fill("11")
    page.get_by_label("Cards of yours not tapped in").fill("5")
    page.get_by_label("I have already come down (laid my first meld)").uncheck()
    put(page, "the top of the discard pile", "the two of diamonds")
    for card in ("the two of spades", "the two of hearts"):
        put(page, "the cards you want to play", card)
    request, answer = asked(page)
    assert answer["legal"] is None
    page.get_by_role("button", name="Show the whole position in the game viewer").click()
    expect(page.locator("#step-list li.undetermined")).to_have_count(1)
    expect(page.locator("#viewer-heading")).to_contain_text("cannot tell")
    expect(page.locator("#viewer-heading")).not_to_contain_text("illegal")
    expect(page.locator("#step-label")).to_contain_text("Position 1 of 1:")


# -- /docs on another host and port ------------------------------------------------------------------

# the API's own words, which stay behind "details": action types, field names, code, endpoints, meld ids
API_WORDS = re.compile(r"\(type |`|\bclient\b|/v1/|\bed25519\b|\bbase64\b|\bm\d+\b|\bids\b|"
                       r"\b(?:meld|penalty|draw|discard|pass|call|allow|challenge) action\b|\bMalformed\b|\bsets the house rule\b")


def words_outside_details(page, selector: str) -> str:
    return page.locator(selector).evaluate(
        "(n) => { const c = n.cloneNode(true); c.querySelectorAll('details.ids').forEach(d => d.remove()); return c.innerText; }")


@pytest.mark.parametrize("variant", ["jamaican", "north_american_uspcc", "british", "kalooki_co_uk"])
def test_the_rules_list_says_things_in_a_players_words(open_page, variant):
    from playwright.sync_api import expect
    page = open_page("/")
    page.get_by_label("Variant", exact=True).select_option(variant)
    page.get_by_role("link", name="The rules").click()
    page.wait_for_load_state("networkidle")  # the chosen variant's rules, read and drawn
    expect(page.locator("#rules details.topic").first).to_be_attached()
    for topic in page.locator("#rules details.topic > summary").all():
        topic.click()
    expect(page.locator("#rules details.topic:not([open])")).to_have_count(0)
    said = words_outside_details(page, "#rules")
    assert not API_WORDS.search(said), API_WORDS.search(said).group(0)


def test_the_viewer_names_melds_by_their_cards_and_keeps_the_apis_words_behind_details(open_page):
    from playwright.sync_api import expect
    page = open_page("/")
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    expect(page.locator("#verdict .verdict.illegal .violation").first).to_be_visible()
    steps = page.locator("#step-list").inner_text()
    assert re.search(r"adds .+ to the (?:run|set) of ", steps), steps
    for selector in ("#step-list", "#verdict", "#position", "#log-form", "#signed"):
        said = words_outside_details(page, selector)
        assert not API_WORDS.search(said), (selector, API_WORDS.search(said).group(0), said)


def test_the_boxes_are_named_after_the_question_and_the_counts_line_says_whose_melds(open_page):
    from playwright.sync_api import expect
    page = open_page("/")
    page.get_by_label("Variant", exact=True).select_option("british")
    page.get_by_label("Players at the table").select_option("4")
    heading = page.locator("#build-play-heading")
    for question, name in [("swap", "the cards you offer for the joker"), ("discard", "the card you throw"),
                           ("meld", "the cards you want to play")]:
        page.get_by_label("Your question").select_option(question)
        expect(heading).to_have_text(name[0].upper() + name[1:])
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_attached()
    page.get_by_label("Your question").select_option("swap")
    page.get_by_label("I have already come down (laid my first meld)").check()
    page.get_by_role("button", name="Put another meld on the table").click()
    page.get_by_label("laid by").select_option("Player 3")
    for card in ("the seven of hearts", "a joker", "the nine of hearts"):
        put(page, "the first meld on the table", card)
    counts = page.locator("#build-counts")
    expect(counts).to_contain_text("Player 3 holds 10 cards, not counting the 3 cards of their own melds on the table")
    expect(counts).to_contain_text("Player 2 holds 13 cards")
    expect(counts).to_contain_text("Player 4 holds 13 cards")
    assert "less any cards they laid" not in counts.inner_text()
    page.get_by_label("Variant", exact=True).select_option("jamaican")
    for question, label in [("call", "Which player calls the top discard"), ("allow", "Which player's call you allow")]:
        page.get_by_label("Your question").select_option(question)
        expect(page.get_by_label(label, exact=True)).to_be_visible()


def test_docs_try_it_out_adjudicates_on_a_non_default_port_reached_as_localhost(browser):
    from playwright.sync_api import expect
    with serving(_page_app()) as url:
        port = urlsplit(url).port
        assert port != 8000
        origin = f"localhost:{port}"
        context = browser.new_context(viewport=DESKTOP)
        outside, refused = [], []
        try:
            def only_this_origin(route):
                if urlsplit(route.request.url).netloc == origin:
                    route.continue_()
                else:
                    outside.append(route.request.url)
                    route.abort()
            context.route("**/*", only_this_origin)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
            page.goto(f"http://{origin}/docs#/play/adjudicate")
            operation = page.locator("#operations-play-adjudicate")
            expect(operation.get_by_role("button", name="Try it out")).to_be_visible(timeout=TIMEOUT_MS)
            operation.get_by_role("button", name="Try it out").click()
            with page.expect_response(lambda r: urlsplit(r.url).path == "/v1/adjudicate") as info:
                operation.get_by_role("button", name="Execute").click()
            response = info.value
            assert urlsplit(response.url).netloc == origin and response.status == 200
            assert response.json()["legal"] in (True, False, None)
            expect(operation.locator(".live-responses-table td.response-col_status:not(.col_header)").first).to_have_text("200")
        finally:
            context.close()
    assert outside == [] and refused == []


# -- a position shared as its notation (share.js, docs/notation.md) ----------------------------------------

def test_a_position_shared_by_code_and_by_link_opens_the_same_position(open_page, base_url, axe_script):
    from playwright.sync_api import expect
    page = open_page("/")
    load_log(page, DISPUTE.read_text(encoding="utf-8"))
    expect(page.locator("#verdict .verdict.illegal")).to_be_visible()
    page.get_by_role("button", name="Previous step").click()  # a position in the middle of the log
    expect(page.locator("#verdict .verdict.legal")).to_be_visible()
    before = shown_position(page)

    page.get_by_role("button", name="Share this position as a link").click()
    field = page.get_by_label("Link to this position")
    expect(field).to_have_value(re.compile("#p=K1/"))
    link = field.input_value()
    notation = page.get_by_label("This position as text").input_value()
    assert link == f"{base_url}/#p={notation}" and len(link) <= 400, link
    qr = page.get_by_role("img", name="QR code of the link to this position")
    expect(qr).to_be_visible()
    page.wait_for_function("() => { const i = document.getElementById('share-qr'); return i.complete && i.naturalWidth > 0; }")
    status, answer = api(base_url, "/v1/notation", {"notation": notation})
    assert status == 200 and answer["notation"] == notation

    for viewport in ({"width": 390, "height": 844}, {"width": 1280, "height": 800}):
        # by link: a fresh page opens it
        other = open_page(link)
        other.set_viewport_size(viewport)
        expect(other.locator("#viewer")).to_be_visible()
        assert shown_position(other) == before
        # by code: the notation pasted into the log box of a fresh page
        third = open_page("/")
        third.set_viewport_size(viewport)
        load_log(third, notation)
        expect(third.locator("#viewer")).to_be_visible()
        assert shown_position(third) == before
        third.get_by_role("button", name="Share this position as a link").click()
        expect(third.get_by_label("This position as text")).to_have_value(notation)
        expect(third.get_by_role("img", name="QR code of the link to this position")).to_be_visible()
        if viewport["width"] == 390:
            assert third.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert axe_violations(third, axe_script) == []

    # a bad notation is refused with the character where reading stopped
    fourth = open_page("/")
    load_log(fourth, "K1/british/P1:7X/d:1:1/-/-/-/-/")
    expect(fourth.locator("#log-problems")).to_contain_text("at character 15")


def test_a_move_breaking_several_rules_shows_each_with_what_the_table_charges(open_page, base_url):
    # a Jamaican player discards, without plucking, a card not held: two rules, the first charged by the table
    from playwright.sync_api import expect
    from kalooki_referee.vectors.suite import load_vectors
    body = next(v for v in load_vectors() if v.id == "jamaican.calls.discard-before-drawing-of-a-card-not-held").data["request"]
    status, verdict = api(base_url, "/v1/adjudicate", body)
    assert status == 200 and verdict["legal"] is False and len(verdict["violations"]) == 2
    page = open_page()
    page.set_viewport_size(PHONE)
    load_log(page, json.dumps(body))
    blocks = page.locator("#viewer .violation")
    expect(blocks).to_have_count(2)
    first, second = verdict["violations"]
    expect(blocks.nth(0).locator(".violation-message")).to_have_text(f"What went wrong: {in_words(first['message'])}")
    expect(blocks.nth(1).locator(".violation-message")).to_have_text(f"It also breaks a rule: {in_words(second['message'])}")
    charge = first["penalty"]
    expect(blocks.nth(0).locator(".violation-penalty")).to_contain_text(f"{charge['points']} points to {charge['player']}")
    expect(blocks.nth(1).locator(".violation-penalty")).to_have_count(0)
    screenshot(page, "several-rules-broken", "#viewer")
