"""The page for people at ``/``: a small static app (``api/static/``) over the v1 API, with no build
step and nothing fetched from elsewhere (its Content-Security-Policy allows this origin only)."""
from __future__ import annotations

from flask import Blueprint, Response, current_app

bp = Blueprint("page", __name__)

# The page's scripts, styles and requests come from this origin alone; cards are inline SVG.
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                           "form-action 'self'; frame-ancestors 'none'")


@bp.get("/")
def index_route() -> Response:
    response = current_app.send_static_file("index.html")
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response


@bp.get("/favicon.ico")
def favicon_route() -> Response:
    """Browsers ask for /favicon.ico whatever the page says: the page's icon, not a 404."""
    return current_app.send_static_file("favicon.svg")
