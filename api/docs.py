"""The API documentation at ``/docs``: Swagger UI reading ``/openapi.yaml``, served offline.

The Swagger UI assets come from the ``swagger-ui-py`` package (its bundled Swagger UI 5, which reads
OpenAPI 3.1); only the page and the few lines that start Swagger UI are the project's.  Nothing is
loaded from another host: the page references its assets by path, and Swagger UI's online validator
is switched off."""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

bp = Blueprint("docs", __name__)

ASSET_DIR = Path(str(files("swagger_ui") / "static"))
# The files the page uses, with their media types (set here, not guessed from the platform's tables).
ASSETS = {
    "swagger-ui.css": "text/css",
    "swagger-ui-bundle.js": "text/javascript",
    "favicon-32x32.png": "image/png",
    "favicon-16x16.png": "image/png",
}

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Kalooki referee: API documentation</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" sizes="32x32" href="/docs/assets/favicon-32x32.png">
<link rel="icon" type="image/png" sizes="16x16" href="/docs/assets/favicon-16x16.png">
</head>
<body>
<noscript>This page needs JavaScript; the API contract itself is at <a href="/openapi.yaml">/openapi.yaml</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""

# Starts Swagger UI on the contract; no online validator (it would send the document's address to
# another host).
START = """window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.yaml",
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    validatorUrl: null
  });
});
"""


@bp.get("/docs")
def docs_page() -> Response:
    return Response(PAGE, mimetype="text/html")


@bp.get("/docs/start.js")
def docs_start() -> Response:
    return Response(START, mimetype="text/javascript")


@bp.get("/docs/assets/<name>")
def docs_asset(name: str) -> Response:
    if name not in ASSETS:
        abort(404, description="no such documentation asset")
    return send_from_directory(ASSET_DIR, name, mimetype=ASSETS[name], max_age=86400)
