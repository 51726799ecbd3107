"""Positions as text (docs/notation.md): ``POST /v1/notation`` turns a state into its notation and a
notation into its state (both checked as any state, and both given back in their canonical forms),
and ``GET /v1/notation/qr.svg`` draws the QR code of a link to a position (this service's page with
``#p=<notation>`` in the fragment), cacheable: the picture depends only on the notation asked for
and the service's configured public address (``KALOOKI_PUBLIC_URL``), never on the request's ``Host``."""
from __future__ import annotations

import hashlib
import io
import os
import re
from functools import lru_cache
from typing import Any

import segno
from flask import Blueprint, Flask, Response, current_app, request
from flask.typing import ResponseReturnValue

from kalooki_referee.rules.wire.notation import NotationError, read, write
from kalooki_referee.rules.wire.state import state_wire

from . import requests
from .errors import problem
from kalooki_referee.rules.wire.contract import openapi_document
from .wire import json_answer, json_body

bp = Blueprint("notation", __name__)

CACHE_CONTROL = "public, max-age=86400"
# characters: a position of the largest pack with long names fits many times over (declared once, in
# openapi.yaml's Notation)
MAX_NOTATION: int = openapi_document()["components"]["schemas"]["Notation"]["maxLength"]
LINK_FRAGMENT = "#p="

# The address the links of this service start with (the QR code's): configured, never taken from the
# request, whose Host a client chooses.  A path (``/``, the default: a link relative to wherever the
# code is shown) or an absolute http(s) URL, at most PUBLIC_URL_MAX characters, so that the link of
# the longest notation always fits in a QR code (2,953 bytes at most).
PUBLIC_URL_ENV = "KALOOKI_PUBLIC_URL"
DEFAULT_PUBLIC_URL = "/"
PUBLIC_URL_MAX = 256
_PUBLIC_URL_AUTHORITY = re.compile(r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")
_PUBLIC_URL_PATH = re.compile(r"[A-Za-z0-9._~!$&'()*+,;=:@%/-]*")  # (a URL path's characters, RFC 3986)


def public_url(value: str) -> str:
    """``KALOOKI_PUBLIC_URL`` checked and ending in ``/``: a path, or an http(s) URL with no query or
    fragment; anything else is refused when the app starts (ValueError)."""
    value = value.strip()
    path_start = 0
    authority = _PUBLIC_URL_AUTHORITY.match(value)
    if authority:
        path_start = authority.end()
        value = value if len(value) > path_start else value + "/"
    if (len(value) > PUBLIC_URL_MAX or not value[path_start:].startswith("/")
            or not _PUBLIC_URL_PATH.fullmatch(value[path_start:])):
        raise ValueError(f"{PUBLIC_URL_ENV} is a path or an http(s) URL with no query or fragment, "
                         f"at most {PUBLIC_URL_MAX} characters: {value[:80]!r}")
    return value if value.endswith("/") else value + "/"


def configure(app: Flask) -> None:
    """Read the public address once, when the app is made (config, else the environment)."""
    app.config[PUBLIC_URL_ENV] = public_url(str(app.config.get(PUBLIC_URL_ENV)
                                                or os.environ.get(PUBLIC_URL_ENV) or DEFAULT_PUBLIC_URL))


@bp.post("/v1/notation")
@json_body("NotationRequest")
def notation_route(body: Any) -> Response:
    req = requests.notation_request(body)
    return json_answer({"variant": req.variant_id, "notation": write(req.state, req.variant_id),
                        "state": state_wire(req.state)})


def link(root: str, notation: str) -> str:
    """The link to a position: the page at ``root`` (this service's public address) opening it."""
    return f"{root}{LINK_FRAGMENT}{notation}"


@lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    """The QR code of ``text`` as a standalone SVG: one path, no style or script (so any Content
    Security Policy shows it), sized by its viewBox, named in words."""
    out = io.BytesIO()
    segno.make(text, micro=False).save(out, kind="svg", xmldecl=False, svgns=True, scale=1, border=4,
                                       omitsize=True, title="QR code of a link to this position", dark="#000",
                                       light="#fff", svgclass="qr-code", lineclass=None, nl=True)
    return out.getvalue().decode("utf-8")


@bp.get("/v1/notation/qr.svg")
def qr_route() -> ResponseReturnValue:
    notation = request.args.get("notation", "")
    where = [{"pointer": "/notation", "detail": ""}]
    if not 1 <= len(notation) <= MAX_NOTATION:
        where[0]["detail"] = f"the query parameter notation is 1 to {MAX_NOTATION} characters long"
        return problem(400, "Bad query parameter", where[0]["detail"], "bad-query-parameter", where)
    try:
        read(notation)
    except NotationError as exc:
        where[0]["detail"] = exc.problems[0].detail
        return problem(400, "Bad query parameter", f"notation: {exc.problems[0].detail}", "bad-query-parameter", where)
    svg = qr_svg(link(current_app.config[PUBLIC_URL_ENV], notation))
    response = Response(svg, mimetype="image/svg+xml")
    response.set_etag(hashlib.sha256(svg.encode("utf-8")).hexdigest()[:32])
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response.make_conditional(request)
