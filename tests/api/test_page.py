"""The page for people at `/` (api/static/): served with the right content types, and it references
nothing outside the referee (no CDN, no font or script from elsewhere).  The page's behaviour is
tested in a real browser by tests/api/test_page_browser.py (slow)."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from kalooki_referee.api.page import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "api" / "static"

CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
# The one absolute address the assets may hold: the SVG namespace, a name that is never fetched.
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
MODULE_IMPORT = re.compile(r"""\bfrom\s+["'](\./[\w.-]+\.js)["']|^import\s+["'](\./[\w.-]+\.js)["']""", re.M)
ADDRESS = re.compile(r"(?i)\b(?:https?|ftp|wss?):|(?<![\w/])//[\w.-]+\.[a-z]{2,}")


class _References(HTMLParser):
    """Every address an HTML document refers to (src, href, and the like)."""

    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "action", "poster", "srcset", "data", "formaction") and value is not None:
                self.refs.append((tag, name, value))


def _references(html: str) -> list[tuple[str, str, str]]:
    parser = _References()
    parser.feed(html)
    return parser.refs


def _external(text: str) -> list[str]:
    return [m.group(0) for m in ADDRESS.finditer(text.replace(SVG_NAMESPACE, ""))]


def test_the_page_and_its_assets_are_served_with_their_content_types(client):
    page = client.get("/")
    assert page.status_code == 200
    assert page.mimetype == "text/html" and page.mimetype_params.get("charset") == "utf-8"
    # its own policy alone (two would both be enforced), with framing refused
    assert page.headers.getlist("Content-Security-Policy") == [CONTENT_SECURITY_POLICY]
    assert "default-src 'self'" in CONTENT_SECURITY_POLICY and "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    refs = _references(page.get_data(as_text=True))
    assets = [v for tag, name, v in refs if (tag, name) in (("script", "src"), ("link", "href"))]
    assert len(assets) >= 2  # the stylesheet and the page's entry module
    for path in assets:
        assert path.startswith("/static/"), path
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.mimetype == CONTENT_TYPES[Path(path).suffix], (path, answer.mimetype)
    # every file of the app is one the page loads, itself or through a module's imports (nothing lies
    # unused), and is served with its content type
    served, todo = {"index.html"}, [Path(p).name for p in assets]
    while todo:
        name = todo.pop()
        if name in served:
            continue
        served.add(name)
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200 and answer.mimetype == CONTENT_TYPES[Path(name).suffix], name
        if name.endswith(".js"):
            todo += [Path(a or b).name for a, b in MODULE_IMPORT.findall(answer.get_data(as_text=True))]
    assert served == {p.name for p in STATIC.iterdir()}
    # browsers ask for /favicon.ico whatever the page links: they get the page's icon, not a 404
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    assert icon.get_data() == (STATIC / "favicon.svg").read_bytes()


def test_the_page_references_nothing_external(client):
    html = client.get("/").get_data(as_text=True)
    for tag, name, value in _references(html):
        assert value.startswith(("/", "#")) and not value.startswith("//"), (tag, name, value)
    assert _external(html) == []
    for path in sorted(STATIC.iterdir()):
        text = client.get(f"/static/{path.name}").get_data(as_text=True)
        assert _external(text) == [], path.name
        assert "@import" not in text, path.name


def test_the_check_for_external_references_finds_them():
    # the check above is only as good as this: it must see each kind of outside address
    for text in ['<script src="https://cdn.example/x.js">', "@import url(//fonts.example.com/a.css)",
                 'fetch("http://example.org/v1")', "wss://live.example/socket"]:
        assert _external(text), text
    assert _external(f'document.createElementNS("{SVG_NAMESPACE}", "svg")') == []


def test_the_recorded_dispute_replays_to_a_first_illegal_step_resting_on_a_ruling(client):
    # examples/disputed-build.json is the recorded hand the browser tests step through
    body = json.loads((ROOT / "examples" / "disputed-build.json").read_text(encoding="utf-8"))
    answer = client.post("/v1/replay", json=body).get_json()
    bad = answer["first_illegal"]
    assert bad is not None and 0 < bad["index"] < len(body["actions"])
    assert answer["steps"] and all(s["legal"] for s in answer["steps"])
    variant = client.get(f"/v1/variants/{body['variant']}").get_json()
    pointers = {d["switch"] for d in variant["decisions"]}
    # the disputed step breaks a rule that a ruling of the variant decides (its parameter switches it)
    assert any(v["clause"] == "build.run_max_two_per_end_per_turn" for v in bad["violations"])
    assert "/building/max_per_run_end_per_turn" in pointers


def test_the_page_links_to_the_api_documentation(client):
    refs = _references(client.get("/").get_data(as_text=True))
    assert ("a", "href", "/docs") in refs
    docs = client.get("/docs")
    assert docs.status_code == 200 and docs.mimetype == "text/html"
