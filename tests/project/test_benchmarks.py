"""The benchmarks' yardsticks stay what they claim to be: the floor (benchmarks/wsgi.py) answers README's
first-turn request with the referee's own bytes, and nothing it does not know how to answer; the bare
echo app (benchmarks/bare.py) echoes as the referee's echo does, with nothing around it."""
from __future__ import annotations

import orjson
import pytest

from benchmarks import bare
from benchmarks.wsgi import ECHO_PATH, FLOOR_PATH, add_echo
from kalooki_referee.api import create_app
from pathlib import Path

BODY = (Path(__file__).resolve().parents[2] / "examples" / "first-turn.json").read_bytes()


@pytest.fixture(scope="module")
def client():
    return add_echo(create_app()).test_client()


def post(client, path, body):
    return client.post(path, data=body if isinstance(body, bytes) else orjson.dumps(body),
                       content_type="application/json")


def test_the_floor_answers_the_first_turn_with_the_referees_bytes(client):
    floor, referee = post(client, FLOOR_PATH, BODY), post(client, "/v1/adjudicate", BODY)
    assert floor.status_code == referee.status_code == 200
    assert floor.get_data() == referee.get_data()
    assert post(client, ECHO_PATH, BODY).get_json() == orjson.loads(BODY)


def test_the_floor_checks_the_shape_the_repeated_names_and_the_cards(client):
    body = orjson.loads(BODY)
    assert post(client, FLOOR_PATH, {**body, "extra": 1}).status_code == 400          # openapi.yaml
    repeated = BODY.replace(b'"variant": "british",', b'"variant": "british", "variant": "british",', 1)
    assert repeated != BODY and post(client, FLOOR_PATH, repeated).status_code == 400  # repeated names
    stolen = orjson.loads(BODY)
    stolen["state"]["stock"] = stolen["state"]["stock"][1:]
    assert post(client, FLOOR_PATH, stolen).status_code == 501                          # a card missing


def test_the_floor_answers_nothing_else(client):
    body = orjson.loads(BODY)
    from_stock = {**body, "action": {"type": "turn", "actions": [{"type": "draw", "source": "stock"},
                                                                {"type": "discard", "card": "KC"}]}}
    assert post(client, FLOOR_PATH, from_stock).status_code == 501
    assert post(client, "/v1/adjudicate", from_stock).status_code == 200


def test_the_bare_app_echoes_as_the_referees_echo_with_nothing_around_it(client):
    mine = post(bare.create().test_client(), bare.ECHO_PATH, BODY)
    referee = post(client, ECHO_PATH, BODY)
    assert mine.status_code == referee.status_code == 200
    assert mine.get_data() == referee.get_data() and mine.get_json() == orjson.loads(BODY)
    # what the referee's app adds around every answer (ops, CORS, the deadline) is absent from the bare one
    assert "X-Request-ID" in referee.headers and "Content-Security-Policy" in referee.headers
    assert "X-Request-ID" not in mine.headers and "Content-Security-Policy" not in mine.headers
    app = bare.create()
    assert not app.before_request_funcs and not app.after_request_funcs and not app.teardown_request_funcs


def test_the_bare_app_serves_the_benchmarks_echo_path():
    """benchmarks.run loads both servers with one path: the bare app's must be the referee's echo's."""
    from benchmarks.run import BARE_ECHO

    assert bare.ECHO_PATH == ECHO_PATH == BARE_ECHO
    assert post(bare.create().test_client(), BARE_ECHO, {"a": [1, 2]}).get_json() == {"a": [1, 2]}
