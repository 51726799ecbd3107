"""The keys blueprint: the public key rulings are signed with (``GET /v1/keys``)."""
from __future__ import annotations

from flask import Blueprint, Response, current_app

from . import signing
from .wire import json_answer

bp = Blueprint("keys", __name__)


def signing_key() -> signing.SigningKey:
    """The key this app signs rulings with (read by create_app)."""
    key: signing.SigningKey = current_app.extensions["kalooki_signing_key"]
    return key


@bp.get("/v1/keys")
def keys_route() -> Response:
    return json_answer({"keys": [signing_key().published()]})
