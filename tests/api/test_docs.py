"""/docs: Swagger UI served offline from a package, reading /openapi.yaml.  The page and every asset it
references (and every asset those reference) come from the referee itself; nothing names another
host."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "action", "data", "poster", "srcset") and value:
                self.found.append(value)


_CSS_URL = re.compile(r"""url\(\s*(['"]?)(.*?)\1\s*\)|@import\s+(['"])(.*?)\3""", re.S)
_ABSOLUTE = re.compile(r"""["'`](?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[/"'`]""", re.I)


def _css_references(text: str) -> list[str]:
    return [m.group(2) or m.group(4) for m in _CSS_URL.finditer(text) if (m.group(2) or m.group(4))]


def _is_local(reference: str) -> bool:
    parts = urlsplit(reference)
    return not parts.scheme and not parts.netloc


def test_docs_page_and_every_asset_are_served_locally(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html and "//" not in html.replace("<!DOCTYPE", "")
    parser = _References()
    parser.feed(html)
    assert parser.found
    seen, queue = set(), [urljoin("/docs", r) for r in parser.found]
    scripts = []
    while queue:
        reference = queue.pop()
        if reference in seen:
            continue
        seen.add(reference)
        assert _is_local(reference), reference
        response = client.get(reference)
        assert response.status_code == 200, reference
        if response.mimetype == "text/css":
            for inner in _css_references(response.get_data(as_text=True)):
                if inner.startswith("data:"):
                    continue
                assert _is_local(inner), (reference, inner)
                queue.append(urljoin(reference, inner))
        if response.mimetype == "text/javascript":
            scripts.append(response.get_data(as_text=True))
    assert any(r.endswith(".css") for r in seen) and len(scripts) >= 2
    # the script that starts Swagger UI reads the referee's own contract and asks no online validator
    start = next(s for s in scripts if "SwaggerUIBundle(" in s and len(s) < 5000)
    assert '"/openapi.yaml"' in start and "validatorUrl: null" in start
    assert not _ABSOLUTE.search(start)
    assert client.get("/openapi.yaml").status_code == 200


def test_docs_assets_come_from_the_package_bytes_for_bytes(client):
    from kalooki_referee.api.docs import ASSET_DIR, ASSETS
    for name, mimetype in ASSETS.items():
        response = client.get(f"/docs/assets/{name}")
        assert response.status_code == 200 and response.mimetype == mimetype
        assert response.data == (ASSET_DIR / name).read_bytes()


def test_an_unknown_docs_asset_is_a_404_problem(client):
    for name in ("nothing.js", "..%2Fcore.py", "swagger-editor-bundle.js"):
        response = client.get(f"/docs/assets/{name}")
        assert response.status_code == 404 and response.mimetype == "application/problem+json", name
