"""The page for people, in a real browser: Debian's chromium driven by Playwright (never `playwright
install`: the system browser at /usr/bin/chromium, which `.ci/run` installs when it is missing).

The page is served by the referee on 127.0.0.1 on a free port; the browser may reach nothing else.
What the page should show is asked of the same server's API, never written here.  Screenshots go to
test-artifacts/ (git-ignored)."""
from __future__ import annotations

import copy
import json
import re
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Blueprint, Flask

from kalooki_referee.api import create_app
from tests.helpers import serving

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
DISPUTE = ROOT / "examples" / "disputed-build.json"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 20_000
CARD_CODE = re.compile(r"\b(?:10|[2-9AKQJ])[SHDC]\b|\bJK\b")


# -- a stand-in for the rules as resources, until they land --------------------------------------

def _standin_resources() -> Blueprint:
    """GET /v1/sources, /v1/clauses, /v1/clauses/{id} and /v1/variants/{id}/rulings in the shapes the
    page reads, derived from the clause registry, the variant files and the vectors (a ruling touches
    a clause when its switch is one of the clause's parameters or a vector cites both).  Used only
    while the app has no such routes of its own."""
    from kalooki_referee.rules import all_variants, load_variant
    from kalooki_referee.rules.clauses import documents, registry
    from kalooki_referee.rules.errors import UnknownVariant
    from kalooki_referee.api.problems import problem
    from kalooki_referee.vectors.suite import vector_files

    decisions = {d["id"]: d for v in all_variants() for d in v.to_dict()["decisions"]}
    touches: dict[str, set[str]] = {c: set() for c in registry()}
    for path in vector_files():
        for vec in json.loads(path.read_text(encoding="utf-8"))["vectors"]:
            for clause in vec.get("clauses", []) if vec.get("decision") else []:
                touches.setdefault(clause, set()).add(vec["decision"])

    def parameters(c) -> list[str]:
        found = list((c.get("enforced_by") or {}).get("parameters", []))
        if c.get("parameter"):
            found.append(c["parameter"]["pointer"])
        return found

    clauses = {}
    for cid, c in registry().items():
        pointers = parameters(c)
        rulings = touches.get(cid, set()) | {d for d, dec in decisions.items() if dec.get("switch") in pointers}
        clauses[cid] = {"id": cid, "kind": c["kind"], "category": c["category"], "level": c["level"],
                        "statement": c["statement"], "variants": list(c.get("variants", [])),
                        "sources": [{**s, "title": documents()[s["document"]]["title"]} for s in c["sources"]],
                        "parameters": pointers, "rulings": sorted(rulings)}
    sections: dict[str, set[str]] = {d: set() for d in documents()}
    for c in clauses.values():
        for s in c["sources"]:
            sections[s["document"]].add(s["section"])
    sources = [{"id": d, "title": doc["title"], "url": None, "sections": sorted(sections[d])}
               for d, doc in documents().items()]

    bp = Blueprint("standin_resources", __name__)
    @bp.get("/v1/sources")
    def all_sources():
        return {"sources": sources}

    @bp.get("/v1/clauses")
    def all_clauses():
        return {"clauses": list(clauses.values())}

    @bp.get("/v1/clauses/<clause_id>")
    def one_clause(clause_id):
        if clause_id not in clauses:
            return problem(404, "Not found", f"no clause {clause_id!r}", "not-found")
        return clauses[clause_id]

    @bp.get("/v1/variants/<variant_id>/rulings")
    def rulings(variant_id):
        try:
            variant = load_variant(variant_id)
        except UnknownVariant as exc:
            return problem(404, "Not found", str(exc), "not-found")
        return {"variant": variant_id, "rulings": [
            {**d, "clauses": sorted(c for c, found in clauses.items() if d["id"] in found["rulings"])}
            for d in variant.to_dict()["decisions"]]}

    return bp


def _page_app() -> Flask:
    app = create_app()
    if not any(rule.rule == "/v1/sources" for rule in app.url_map.iter_rules()):
        app.register_blueprint(_standin_resources())
    return app


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
    expect(block).to_contain_text(cited["message"])
    expect(block).to_contain_text(cited["statement"])
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
    expect(page.locator("#step-label")).to_contain_text("Position 0 ")
    assert shown_position(page)["seats"] == position_of(replay["start"]["position"])["seats"]
    for i in range(bad["index"]):
        verdict = page.locator(f"#verdict .verdict[data-step='{i + 1}']")
        expect(verdict).to_contain_text("Allowed.")
        page.get_by_role("button", name="Next step").click()
        expect(page.locator("#step-label")).to_contain_text(f"Position {i + 1} ")
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
    screenshot(page, "dispute-first-illegal-step")

    # the rules of the variant are readable by topic, the broken rule among them with its ruling
    page.get_by_role("link", name="The rules").click()
    topic = page.locator("details.topic").filter(has=page.locator(f"article[data-clause='{cited[0]['clause']}']"))
    topic.locator("summary").click()
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
        page.get_by_role("button", name="Clear the meld").click()
        for code in cards:
            page.get_by_role("button", name=f"Add {names[code]} to the meld").click()
        expect(page.locator("#meld-cards .card-button")).to_have_count(len(cards))
        page.get_by_role("button", name="Is this meld allowed?").click()
        answer, verdict = answers[variant], page.locator("#meld-answer .meld-verdict")
        if answer["valid"]:
            expect(verdict).to_contain_text("Yes, this meld is allowed")
            expect(verdict).to_contain_text(f"a {answer['kind']} worth {answer['value']} points")
        else:
            expect(verdict).to_contain_text("No, this meld is not allowed")
            assert_cites(verdict.locator(".violation"), expected_citation(base_url, variant, answer["violation"]))
        expect(verdict).to_contain_text(page.locator("#variant option:checked").inner_text().split(" (")[0])
        screenshot(page, f"meld-check-{variant}", "#meld")

    # the keyboard alone does the same: focus a card, press Enter to add it, Space to take it out
    page.get_by_role("button", name="Clear the meld").click()
    page.get_by_role("button", name="Add the king of hearts to the meld").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#meld-cards .card-button[data-card='KH']")).to_have_count(1)
    page.get_by_role("button", name="Take the king of hearts (card 1) out of the meld").focus()
    page.keyboard.press("Space")
    expect(page.locator("#meld-cards .card-button")).to_have_count(0)

    # a joker: the referee reads it, and the page says what it stands for, in words and in a picture
    page.get_by_role("button", name="Clear the meld").click()
    for name in ("a joker", "the five of spades", "the six of spades"):
        page.get_by_role("button", name=f"Add {name} to the meld").click()
    page.get_by_role("button", name="Is this meld allowed?").click()
    _, answer = api(base_url, "/v1/melds/check", {"variant": "british_ace_low", "cards": ["JK", "5S", "6S"]})
    verdict = page.locator("#meld-answer .meld-verdict")
    if answer["valid"]:
        expect(verdict).to_contain_text("a joker standing for the")
        expect(verdict.locator(".card svg.joker")).to_have_count(len(answer["jokers"]))
    else:
        expect(verdict).to_contain_text(answer["violation"]["message"])


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

    page.get_by_role("button", name="Share this position as a link").click()
    field = page.get_by_label("Link to this position")
    expect(field).to_have_value(re.compile("#position="))
    link = field.input_value()
    assert link.startswith(base_url + "/#position=")
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
