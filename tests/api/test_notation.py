"""POST /v1/notation and GET /v1/notation/qr.svg (api/notation.py, docs/notation.md)."""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from urllib.parse import quote

import pytest
import segno
from hypothesis import HealthCheck, given, settings, strategies as st

from kalooki_referee.api import create_app
from kalooki_referee.api.notation import MAX_NOTATION, PUBLIC_URL_MAX, link, public_url, qr_svg

PUBLIC = "https://referee.example:8443/kalooki/"


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True, "KALOOKI_PUBLIC_URL": PUBLIC.rstrip("/")}).test_client()


def _dealt(client):
    return client.post("/v1/deal", json={"variant": "british", "players": 4, "seed": "share"}).get_json()["state"]


def test_a_state_and_its_notation_give_the_same_answer(client):
    state = _dealt(client)
    written = client.post("/v1/notation", json={"variant": "british", "state": state})
    assert written.status_code == 200
    answer = written.get_json()
    assert answer["variant"] == "british" and answer["state"] == state
    assert answer["notation"].startswith("K1/british/P1:")
    read = client.post("/v1/notation", json={"notation": answer["notation"]})
    assert read.status_code == 200 and read.get_json() == answer


def test_a_bad_notation_is_a_problem_at_notation_naming_the_character(client):
    response = client.post("/v1/notation", json={"notation": "K1/british/P1:7X/d:1:1/-/-/-/-/"})
    assert response.status_code == 422 and response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["type"].endswith("/malformed-input")
    assert body["errors"] == [{"code": "MALFORMED_INPUT", "pointer": "/notation", "detail": "at character 15: expected a card (rank A K Q J T "
                                                                  "9-2 then suit S H D C, or JK), found '7X'"}]


def _notation(client):
    return client.post("/v1/notation", json={"variant": "british", "state": _dealt(client)}).get_json()["notation"]


def test_the_qr_code_is_a_cacheable_svg_of_the_link(client):
    notation = _notation(client)
    response = client.get(f"/v1/notation/qr.svg?notation={quote(notation, safe='')}")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "public, max-age=86400" and response.headers["ETag"]
    svg = response.get_data(as_text=True)
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox")
    # nothing a Content Security Policy would block: no script, no style element or attribute
    assert not [e for e in root.iter() if e.tag.endswith(("script", "style")) or "style" in e.attrib]
    # the picture is segno's QR code of the link to the position on this service's page, at its
    # configured public address
    url = link(PUBLIC, notation)
    assert url == f"{PUBLIC}#p={notation}"
    out = io.BytesIO()
    segno.make(url, micro=False).save(out, kind="svg", xmldecl=False, svgns=True, scale=1, border=4, omitsize=True,
                                      title="QR code of a link to this position", dark="#000", light="#fff",
                                      svgclass="qr-code", lineclass=None, nl=True)
    assert svg == out.getvalue().decode() == qr_svg(url)
    # and a QR code of another link is another picture
    assert qr_svg(url + "x") != svg
    again = client.get(f"/v1/notation/qr.svg?notation={quote(notation, safe='')}",
                       headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_the_qr_code_of_a_bad_notation_is_a_400_naming_the_character(client):
    response = client.get("/v1/notation/qr.svg?notation=" + quote("K1/british/P1:7C,z/d:1:1/-/-/-/-/", safe=""))
    assert response.status_code == 400
    body = response.get_json()
    assert body["errors"] == [{"code": "BAD_QUERY_PARAMETER", "pointer": "/notation",
                               "detail": "at character 18: 'z' is not a seat mark (o b l s<score> c<calls>)"}]
    assert client.get("/v1/notation/qr.svg").status_code == 400


# -- the link is the configured address's, whatever the request's Host ------------------------------

_HOSTS = st.one_of(
    st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=300),
    st.lists(st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=63), min_size=1, max_size=45)
    .map(".".join),   # up to 2.9 KB of long labels
    st.text(st.characters(min_codepoint=0x80, max_codepoint=0xFF), min_size=1, max_size=100),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(host=_HOSTS)
def test_the_qr_code_is_the_same_bytes_whatever_the_host(client, host):
    notation = "K1/british/P1:7C,o;P2:AS2H+8;P3:+13;P4:+12,s30/d:4:2,a1x1/8D+55/9H4C/x1:1sKSKHKC;1r5C-TC;1rJK(=9D)TDJD/-/seed-1"
    path = f"/v1/notation/qr.svg?notation={quote(notation, safe='')}"
    plain = client.get(path)
    overrides = {"HTTP_HOST": host, "SERVER_NAME": host[:255]}
    hosted = client.get(path, environ_overrides=overrides)
    assert plain.status_code == 200 and hosted.status_code < 500
    if hosted.status_code == 400:
        # a Host that is no host name (a label over 63 characters, an empty one) is refused by every
        # route alike, as RFC 9112 asks of a Host with an invalid value: the framework's refusal
        assert hosted.mimetype == "application/problem+json"
        assert client.get("/health", environ_overrides=overrides).status_code == 400
        return
    assert hosted.status_code == 200
    assert hosted.data == plain.data == qr_svg(link(PUBLIC, notation)).encode()
    assert "Vary" not in hosted.headers and hosted.headers["Cache-Control"] == "public, max-age=86400"


def test_a_host_of_long_labels_gets_the_same_qr_code(client):
    notation = "K1/british/P1:7C,o;P2:AS2H+8;P3:+13;P4:+12,s30/d:4:2,a1x1/8D+55/9H4C/x1:1sKSKHKC;1r5C-TC;1rJK(=9D)TDJD/-/seed-1"
    path = f"/v1/notation/qr.svg?notation={quote(notation, safe='')}"
    host = ".".join(["a" * 63] * 45)   # 2.9 KB of labels as long as a host name allows
    answer = client.get(path, environ_overrides={"HTTP_HOST": host})
    assert answer.status_code == 200 and answer.data == qr_svg(link(PUBLIC, notation)).encode()


def test_without_a_configured_address_the_link_is_relative(monkeypatch):
    monkeypatch.delenv("KALOOKI_PUBLIC_URL", raising=False)
    plain = create_app({"TESTING": True}).test_client()
    notation = "K1/british/P1:7C,o;P2:AS2H+8;P3:+13;P4:+12,s30/d:4:2,a1x1/8D+55/9H4C/x1:1sKSKHKC;1r5C-TC;1rJK(=9D)TDJD/-/seed-1"
    answer = plain.get(f"/v1/notation/qr.svg?notation={quote(notation, safe='')}", headers={"Host": "evil.example"})
    assert answer.data == qr_svg(f"/#p={notation}").encode()
    monkeypatch.setenv("KALOOKI_PUBLIC_URL", "http://127.0.0.1:8000")
    answer = create_app({"TESTING": True}).test_client().get(f"/v1/notation/qr.svg?notation={quote(notation, safe='')}")
    assert answer.data == qr_svg(f"http://127.0.0.1:8000/#p={notation}").encode()


@pytest.mark.parametrize("value, kept", [
    ("/", "/"), ("/referee", "/referee/"), ("https://a.example", "https://a.example/"),
    ("http://[::1]:8000/k/", "http://[::1]:8000/k/"), ("https://a.example:443/x%20y", "https://a.example:443/x%20y/"),
])
def test_a_public_address_is_a_path_or_an_http_url(value, kept):
    assert public_url(value) == kept


@pytest.mark.parametrize("value", ["ftp://a.example/", "https://a.example/?q=1", "/#x", "a.example", "https://a b/",
                                   "javascript:alert(1)", "/" + "a" * PUBLIC_URL_MAX, "https://a.example/\u00e9"])
def test_any_other_public_address_is_refused_when_the_app_starts(value):
    with pytest.raises(ValueError, match="KALOOKI_PUBLIC_URL"):
        create_app({"TESTING": True, "KALOOKI_PUBLIC_URL": value})


def test_the_longest_link_fits_in_a_qr_code():
    root = public_url("https://" + "a" * (PUBLIC_URL_MAX - len("https://") - 1) + "/")
    assert len(root) == PUBLIC_URL_MAX
    svg = qr_svg(link(root, "x" * MAX_NOTATION))   # (lower case: segno's byte mode, the densest text)
    assert svg.startswith("<svg")
