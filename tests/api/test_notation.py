"""POST /v1/notation and GET /v1/notation/qr.svg (api/notation.py, docs/notation.md)."""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from urllib.parse import quote

import pytest
import segno

from kalooki_referee.api import create_app
from kalooki_referee.api.notation import link, qr_svg


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


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
    # the picture is segno's QR code of the link to the position on this service's page
    url = link("http://localhost/", notation)
    assert url == f"http://localhost/#p={notation}"
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
