"""Cards as pictures: ``GET /v1/cards/{code}.svg`` draws a card of the wire format (docs/wire-format.md)
as a standalone SVG: every natural card, the joker (also with the card it stands for in a meld,
``JK(=7H)``, ``JK(=7)``) and the back (``back``).  The page draws its cards with these pictures too
(api/static/cards.js), so an app shows exactly what the page shows.  A picture never changes for a
code: it is served with an ETag and as cacheable for a year."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from xml.sax.saxutils import escape

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue

from kalooki_referee.rules.cards import CardError, rank_code
from kalooki_referee.rules.melds import parse_token

from .errors import problem

bp = Blueprint("cards", __name__)

SUITS = {"S": ("\u2660", "spades", False), "H": ("\u2665", "hearts", True),
         "D": ("\u2666", "diamonds", True), "C": ("\u2663", "clubs", False)}
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "ten", "9": "nine", "8": "eight",
              "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}
RED, BLACK = "#b3261e", "#111"
FONT = "system-ui, sans-serif"
BACK = "back"
CACHE_CONTROL = "public, max-age=31536000, immutable"


def _svg(label: str, classes: str, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84" width="60" height="84" role="img" '
            f'aria-label="{escape(label, {chr(34): "&quot;"})}" class="{classes}">'
            f"<title>{escape(label)}</title>{body}</svg>\n")


def _natural(rank: str, suit: str) -> str:
    symbol, suit_name, red = SUITS[suit]
    label = f"the {RANK_NAMES[rank]} of {suit_name}"
    colour = RED if red else BLACK
    return _svg(label, f"card-svg {'red' if red else 'black'}",
                '<rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#333" stroke-width="1"/>'
                f'<g fill="{colour}" font-family="{FONT}">'
                f'<text x="6" y="18" font-size="15" font-weight="700">{rank}</text>'
                f'<text x="6" y="32" font-size="13">{symbol}</text>'
                f'<text x="30" y="62" text-anchor="middle" font-size="30">{symbol}</text></g>')


def _joker(rank: str | None, suit: str | None) -> str:
    if rank is None:
        label, reading = "a joker", ""
    else:
        symbol, suit_name, red = SUITS[suit] if suit else ("", "", False)
        label = (f"a joker standing for the {RANK_NAMES[rank]} of {suit_name}" if suit
                 else f"a joker standing for a {RANK_NAMES[rank]}")
        reading = (f'<text x="30" y="74" text-anchor="middle" font-family="{FONT}" font-size="12" font-weight="700" '
                   f'fill="{RED if red else BLACK}">= {rank}{symbol}</text>')
    return _svg(label, "card-svg joker",
                '<rect x="1" y="1" width="58" height="82" rx="6" fill="#f3e8ff" stroke="#5b2a86" stroke-width="1.5"/>'
                f'<text x="30" y="42" text-anchor="middle" font-family="{FONT}" font-size="30" fill="#7b2cbf">\u2605</text>'
                f'<text x="30" y="17" text-anchor="middle" font-family="{FONT}" font-size="9" font-weight="700" '
                f'fill="#5b2a86" letter-spacing="1">JOKER</text>' + reading)


def _back() -> str:
    return _svg("the back of a card", "card-svg card-back",
                '<rect x="1" y="1" width="58" height="82" rx="6" fill="#23408e" stroke="#1b1b1b"/>'
                '<rect x="7" y="7" width="46" height="70" rx="4" fill="none" stroke="#c8d3f5" stroke-width="2" '
                'stroke-dasharray="3 2"/>')


@lru_cache(maxsize=512)
def picture(code: str) -> str | None:
    """The SVG of a card code (``9H``, ``10S``, ``JK``, ``JK(=7H)``, ``JK(=7)``) or of ``back``; None
    for anything else."""
    if code == BACK:
        return _back()
    try:
        token = parse_token(code)
    except CardError:
        return None
    if not token.card.is_joker:
        return _natural(rank_code(token.card.rank), token.card.suit)
    if not token.declared:
        return _joker(None, None)
    return _joker(rank_code(token.rank), token.suit or None)


@bp.get("/v1/cards/<code>.svg")
def card_route(code: str) -> ResponseReturnValue:
    svg = picture(code)
    if svg is None:
        return problem(404, "Not Found", f"{code!r} is not a card code (docs/wire-format.md) nor 'back'", "not-found")
    response = Response(svg, mimetype="image/svg+xml")
    response.set_etag(hashlib.sha256(svg.encode("utf-8")).hexdigest()[:32])
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response.make_conditional(request)
