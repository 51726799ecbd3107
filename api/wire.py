"""What crosses the wire: the request body read as one decorator (its size, its JSON, its repeated
names, its depth and its shape against openapi.yaml), query parameters that are names, and the JSON
answer written with orjson.

    @bp.post("/v1/deal")
    @json_body("DealRequest")
    def deal_route(body: dict[str, Any]) -> Response: ...
"""
from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from functools import cached_property
from operator import itemgetter
from typing import IO, Any, cast

import orjson
from flask import Request, Response, request
from werkzeug.exceptions import RequestEntityTooLarge

from kalooki_referee.rules.errors import MalformedInput, Problem, pointer
from kalooki_referee.rules.wire import contract
from kalooki_referee.rules.wire.contract import MAX_JSON_DEPTH, MAX_PROBLEMS, value_depth

from .errors import Refusal, bad_query, refusal

MAX_BODY_BYTES = 1 * 1024 * 1024
# Set in a request's WSGI environ by a server that hands the app the body whole, at most
# MAX_BODY_BYTES and one byte, as its ``wsgi.input`` (api/worker.py): the app then reads that input
# as it is, not through werkzeug's stream guarding a limit the server already kept.
WHOLE_BODY = "kalooki.whole_body"

View = Callable[..., Response]


def plain(value: object) -> object:
    """What orjson cannot serialise by itself: read-only mappings (frozen variant data)."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def json_answer(body: object, status: int = 200) -> Response:
    """``body`` as the answer: compact, keys sorted, UTF-8 as is (the same bytes as json.dumps(...,
    sort_keys=True, separators=(",", ":"), ensure_ascii=False), faster: orjson)."""
    text = orjson.dumps(body, default=plain, option=orjson.OPT_SORT_KEYS)
    return Response(text, status=status, mimetype="application/json")


def as_written(answer: object) -> Any:
    """``answer`` as the wire carries it (read-only mappings made plain, tuples made lists)."""
    return orjson.loads(orjson.dumps(answer, default=plain))


class WholeBodyRequest(Request):
    """Flask's request, reading a body its server handed over whole (``WHOLE_BODY``) as it is:
    werkzeug would otherwise read it through a stream that guards the size limit chunk by chunk (a
    fifth of what a small request costs the app beyond a bare Flask app's, counted over HTTP).
    ``create_app`` makes it the app's request class."""

    @cached_property
    def stream(self) -> IO[bytes]:
        if self.environ.get(WHOLE_BODY) and not self.shallow:
            return cast(IO[bytes], self.environ["wsgi.input"])
        return super().stream  # (werkzeug's own)


def json_body(component: str) -> Callable[[View], View]:
    """The view is called with the request body, checked against openapi.yaml's ``component``
    schema, as its first argument."""
    def decorate(view: View) -> View:
        @functools.wraps(view)
        def with_body(*args: Any, **kwargs: Any) -> Response:
            return view(read_body(component), *args, **kwargs)
        return with_body
    return decorate


def read_body(component: str) -> Any:
    """The request body, checked against openapi.yaml's ``component`` schema."""
    # (the usual header compared as it is; werkzeug's parse of the media type only for any other)
    if request.environ.get("CONTENT_TYPE") != "application/json" and not request.is_json:
        raise refusal(415, "Unsupported media type", "send the request body as application/json",
                      "unsupported-media-type")
    raw = request.get_data(cache=False) or b"null"
    if len(raw) > MAX_BODY_BYTES:  # sent without a Content-Length (chunked): werkzeug let one byte more through
        raise RequestEntityTooLarge()
    return decode(component, raw)


def decode(component: str, raw: bytes) -> Any:
    """The edge's decoder: ``raw`` (a JSON text) read and checked against openapi.yaml's
    ``component`` schema, returned as plain JSON values; a 400 Refusal for text that is not JSON
    or nests too deeply, MalformedInput (every problem, each with its pointer) for JSON the schema
    or the names of its objects refuse.  tests/api/test_decoder.py proves that it accepts and
    refuses what openapi.yaml does."""
    try:
        body = orjson.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise refusal(400, "Malformed JSON", f"the body is not valid JSON: {str(exc)[:200]}",
                      "malformed-json", [{"pointer": "", "detail": "not valid JSON", "code": "MALFORMED_JSON"}]) from None
    valid = contract.is_valid(component, body)
    if not valid:  # a size no request reaches (a list, an object, a name, a string): named before any walk
        contract.refuse_overlong(body)
    repeated = repeated_names(raw, body)
    if repeated:
        raise MalformedInput([Problem(where, "this name appears more than once in its object (which of its "
                                             "values was meant is not guessed)") if where else
                              Problem("", f"names appear more than once in the objects of this body; in a body over "
                                          f"{LOCATED_BYTES // 1024} KiB they are not located one by one")
                              for where in repeated[:MAX_PROBLEMS]])
    # Nothing may recurse on a deeply nested body (the full validator, the rules core's merges, the
    # answer's serialiser).  A body the schema accepts can nest freely only in its free-form parts
    # (`rules`, a game's `sheet` rows), so only those are measured; any other body is measured whole
    # before the full validator lists its problems.
    if valid:
        if isinstance(body, dict) and _free_depth(body) > MAX_JSON_DEPTH:
            raise _too_deep()
        return body
    if _depth(raw) > MAX_JSON_DEPTH:
        raise _too_deep()
    contract.validate(component, body, checked=True)
    return body


def text_option(name: str, longest: int = 64) -> str | None:
    """A query parameter that is a name: absent, or 1 to ``longest`` characters (else a 400)."""
    value = request.args.get(name)
    if value is not None and not 1 <= len(value) <= longest:
        raise bad_query(f"the query parameter {name} is 1 to {longest} characters long")
    return value


class _Repeats(dict[str, Any]):
    """An object read from JSON text in which some names appear more than once."""
    repeated: list[str]


LOCATED_BYTES = 64 * 1024  # a longer body is refused for its repeated names without reading it again


def _member_reader() -> Callable[[list[tuple[str, object]]], dict[str, Any]]:
    """A hook for json.loads that marks the objects repeating a name (at most MAX_PROBLEMS of them)."""
    marked = [0]

    def members(pairs: list[tuple[str, object]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) == len(pairs) or marked[0] >= MAX_PROBLEMS:
            return obj
        marked[0] += 1
        counts = Counter(map(itemgetter(0), pairs))  # (in C: no Python step per member)
        out = _Repeats(obj)
        out.repeated = [k for k, n in counts.items() if n > 1][:MAX_PROBLEMS]
        return out
    return members


def _colons(text: bytes) -> int:
    """The colons of a JSON text, each written as itself or escaped (\\u003a: a literal backslash
    before the letters counts on both sides of the comparison below, so it cancels out)."""
    return text.count(b":") + text.count(b"\\u003a") + text.count(b"\\u003A")


def repeated_names(raw: bytes, body: object) -> list[str]:
    """The pointers of the object members of ``raw`` whose name its object gives more than once
    (orjson keeps the last value without a word).

    The fast test: every member of every object is written with one colon outside any string;
    orjson writes ``body`` back with the same strings and one colon per member it kept, and writes
    a colon inside a string as itself where ``raw`` may have escaped it.  So the same count of
    colons, escaped ones included, means no name was dropped.  Otherwise the text is read again,
    noting the names each object repeats (at most MAX_PROBLEMS objects marked) when it is at most
    LOCATED_BYTES long; a longer one gets one problem with no pointer, so that the cost of finding
    them is bounded whatever the body."""
    try:
        # (with no escape \u in ``raw``, no string holds an escaped colon, nor the text of one, which
        # only a backslash could begin and a backslash is itself escaped: the colons alone are counted;
        # a look for one byte, the backslash, is several times cheaper than one for two)
        if (raw.count(b":") == orjson.dumps(body).count(b":") if b"\\" not in raw or b"\\u" not in raw
                else _colons(raw) == _colons(orjson.dumps(body))):
            return []
    except orjson.JSONEncodeError:  # nested deeper than orjson writes: read again below
        pass
    if len(raw) > LOCATED_BYTES:
        return [""]
    try:
        tree = json.loads(raw, object_pairs_hook=_member_reader())
    except (ValueError, RecursionError):  # nested too deeply to read here: refused for its depth
        return []
    found: list[str] = []
    stack: list[tuple[Any, str]] = [(tree, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, _Repeats):
            found += [where + pointer(k) for k in node.repeated]
        if isinstance(node, dict):
            stack.extend((v, where + pointer(k)) for k, v in node.items() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, where + pointer(i)) for i, v in enumerate(node) if isinstance(v, (dict, list)))
    return sorted(found)


def _too_deep() -> Refusal:
    return refusal(400, "Malformed JSON", f"the body is nested more than {MAX_JSON_DEPTH} levels deep",
                   "malformed-json", [{"pointer": "", "detail": "nested too deeply", "code": "MALFORMED_JSON"}])


def _free_depth(body: dict[str, Any]) -> int:
    """How deeply the schema's free-form parts of a request nest."""
    game = body.get("game")
    parts = [body.get("rules"), game.get("sheet") if isinstance(game, dict) else None]
    return max([value_depth(p) for p in parts if p is not None] or [0])


_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')  # (runs of plain bytes matched whole, not byte by byte)
_NOT_BRACKETS = re.compile(rb"[^\[\]{}]+")
_INNERMOST = re.compile(rb"\[\]|\{\}")


def _depth(raw: bytes) -> int:
    """How deeply arrays and objects nest in ``raw``, a JSON text already parsed (so its strings are
    well formed and its brackets balanced), counted up to one past MAX_JSON_DEPTH: the strings
    blanked out and everything but the brackets dropped, then the innermost pairs removed level by
    level, each level one pass of the regular expression engine (no Python loop over the text)."""
    brackets = _NOT_BRACKETS.sub(b"", _STRINGS.sub(b'""', raw))
    depth = 0
    while brackets and depth <= MAX_JSON_DEPTH:
        brackets = _INNERMOST.sub(b"", brackets)
        depth += 1
    return depth
