"""Signed rulings: POST /v1/adjudicate?sign=true signs {"request", "answer"} in RFC 8785 form with
Ed25519; GET /v1/keys publishes the key; kalooki-referee verify checks a saved ruling offline, and
fails when one byte of the request or of the answer is altered."""
from __future__ import annotations

import base64
import json
import sys
import types
import runpy
import tomllib
from pathlib import Path

import pytest
import rfc8785
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from kalooki_referee.api import create_app
from kalooki_referee.api.signing import HOST_KEY_NAME, KEY_DIR_ENV, KEY_ENV, KEY_FILE_ENV, SigningKeyError
from kalooki_referee import cli
from kalooki_referee.api.verify import verify_main

ROOT = Path(__file__).resolve().parents[2]
ENV = (KEY_FILE_ENV, KEY_ENV, KEY_DIR_ENV)


@pytest.fixture
def no_key(monkeypatch):
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def _app():
    return create_app({"TESTING": True})


def _request_text() -> bytes:
    return (ROOT / "examples" / "out-of-turn.json").read_bytes()


def _signed(client, body: bytes = None):
    body = body if body is not None else _request_text()
    response = client.post("/v1/adjudicate?sign=true", data=body, content_type="application/json")
    assert response.status_code == 200, response.data[:300]
    return response


def _save(tmp_path: Path, request_bytes: bytes, answer_bytes: bytes, keys: dict) -> dict[str, Path]:
    paths = {"request": tmp_path / "request.json", "answer": tmp_path / "answer.json", "keys": tmp_path / "keys.json"}
    paths["request"].write_bytes(request_bytes)
    paths["answer"].write_bytes(answer_bytes)
    paths["keys"].write_text(json.dumps(keys), encoding="utf-8")
    return paths


def _check(paths: dict[str, Path]) -> int:
    return verify_main(["--request", str(paths["request"]), "--answer", str(paths["answer"]),
                        "--keys", str(paths["keys"])])


def test_a_signed_ruling_verifies_with_the_published_key(no_key, tmp_path, capsys):
    client = _app().test_client()
    response = _signed(client)
    keys = client.get("/v1/keys").get_json()
    [published] = keys["keys"]
    assert published["alg"] == "Ed25519" and published["ephemeral"] is True
    answer = response.get_json()
    assert answer["signature"]["alg"] == "Ed25519" and answer["signature"]["key_id"] == published["key_id"]
    # what is signed: the RFC 8785 form (the rfc8785 package) of the request and the answer less its signature
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(published["public_key"]))
    unsigned = {k: v for k, v in answer.items() if k != "signature"}
    public.verify(base64.b64decode(answer["signature"]["value"]),
                  rfc8785.dumps({"request": json.loads(_request_text()), "answer": unsigned}))
    # signing adds the signature and changes nothing else
    plain = client.post("/v1/adjudicate", data=_request_text(), content_type="application/json").get_json()
    assert unsigned == plain
    # offline, both ways of giving the ruling and the key
    paths = _save(tmp_path, _request_text(), response.data, keys)
    assert _check(paths) == 0
    assert "verified" in capsys.readouterr().out
    ruling = tmp_path / "ruling.json"
    ruling.write_text(json.dumps({"request": json.loads(_request_text()), "answer": answer}), encoding="utf-8")
    assert verify_main([str(ruling), "--public-key", published["public_key"]]) == 0


def test_a_game_ruling_is_signed_and_verifies_as_a_hand_ruling_does(no_key):
    # POST /v1/adjudicate judges a hand (a Verdict) or a game (a GameVerdict, with the game's own
    # fields): both are signed over what the wire carries, and both verify with the published key
    from kalooki_referee.api.signing import public_key, verify

    client = _app().test_client()
    game = client.post("/v1/games", json={"variant": "british", "players": ["A", "B", "C"], "seed": "sign"}).get_json()["game"]
    hand = game["hand"]
    to_act = next(p for p in hand["players"] if p["id"] == hand["to_act"])
    action = {"type": "turn", "actions": [{"type": "draw", "source": "discard"},
                                          {"type": "discard", "card": to_act["hand"][0]}]}
    [published] = client.get("/v1/keys").get_json()["keys"]
    keys = {published["key_id"]: public_key(published["public_key"])}
    answers = {}
    for level, body in (("game", {"variant": "british", "game": game, "action": action}),
                        ("hand", {"variant": "british", "state": hand, "action": action})):
        answer = _signed(client, json.dumps(body).encode()).get_json()
        assert answer["legal"] is True
        assert verify(body, answer, keys) == published["key_id"]
        answers[level] = answer
    assert "game" in answers["game"] and "game" not in answers["hand"]
    assert answers["game"]["state"] == answers["hand"]["state"]


def test_the_same_request_gets_the_same_signed_bytes(no_key):
    client = _app().test_client()
    assert _signed(client).data == _signed(client).data
    # the same request written differently (spacing, key order) is the same request
    reordered = json.dumps(dict(reversed(list(json.loads(_request_text()).items()))), indent=3).encode()
    assert _signed(client, reordered).data == _signed(client).data


def test_altering_one_byte_of_the_request_or_the_answer_fails(no_key, tmp_path, capsys):
    client = _app().test_client()
    request_bytes, answer_bytes = _request_text(), _signed(client).data
    keys = client.get("/v1/keys").get_json()
    paths = _save(tmp_path, request_bytes, answer_bytes, keys)
    assert _check(paths) == 0
    for part, original in (("request", request_bytes), ("answer", answer_bytes)):
        outcomes = set()
        for at in range(0, len(original), 4):
            altered = bytearray(original)
            altered[at] ^= 0x01
            paths[part].write_bytes(bytes(altered))
            outcome = _check(paths)
            assert outcome != 0, (part, at, bytes(altered[max(0, at - 20):at + 20]))
            outcomes.add(outcome)
        paths[part].write_bytes(original)
        assert 1 in outcomes, part  # some alterations still parse: the signature itself refuses them
    capsys.readouterr()
    assert _check(paths) == 0


def test_a_ruling_does_not_verify_with_another_key_or_for_another_request(no_key, tmp_path):
    client = _app().test_client()
    answer_bytes = _signed(client).data
    other = _app().test_client().get("/v1/keys").get_json()  # another app: another ephemeral key
    paths = _save(tmp_path, _request_text(), answer_bytes, other)
    assert _check(paths) == 3  # signed by a key not in that key set: told apart from an alteration
    paths = _save(tmp_path, (ROOT / "examples" / "first-turn.json").read_bytes(), answer_bytes,
                  client.get("/v1/keys").get_json())
    assert _check(paths) == 1
    unsigned = json.loads(answer_bytes)
    del unsigned["signature"]
    paths["request"].write_bytes(_request_text())
    paths["answer"].write_text(json.dumps(unsigned), encoding="utf-8")
    assert _check(paths) == 1


def test_a_configured_raw_key_signs_and_is_published_as_not_ephemeral(no_key):
    private = Ed25519PrivateKey.generate()
    raw = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption())
    no_key.setenv(KEY_ENV, base64.b64encode(raw).decode())
    first, second = _app().test_client(), _app().test_client()
    [key] = first.get("/v1/keys").get_json()["keys"]
    assert key["ephemeral"] is False
    assert base64.b64decode(key["public_key"]) == private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert second.get("/v1/keys").get_json()["keys"] == [key]
    assert _signed(first).data == _signed(second).data  # two instances, one key: the same bytes


def test_a_configured_pem_key_file_wins(no_key, tmp_path):
    private = Ed25519PrivateKey.generate()
    pem = tmp_path / "referee-key.pem"
    pem.write_bytes(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    no_key.setenv(KEY_FILE_ENV, str(pem))
    no_key.setenv(KEY_ENV, base64.b64encode(b"\x01" * 32).decode())
    [key] = _app().test_client().get("/v1/keys").get_json()["keys"]
    assert key["ephemeral"] is False
    assert key["public_key"] == base64.b64encode(private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)).decode()


@pytest.mark.parametrize("name, value, words", [
    (KEY_ENV, "not base64!", "not base64"),
    (KEY_ENV, base64.b64encode(b"\x01" * 31).decode(), "31 bytes"),
    (KEY_FILE_ENV, "/nonexistent/referee-key.pem", "cannot read"),
    (KEY_FILE_ENV, "x25519", "not an Ed25519 key"),
    (KEY_FILE_ENV, "garbage", "not an unencrypted PEM private key"),
])
def test_a_bad_key_configuration_stops_the_start(no_key, tmp_path, name, value, words):
    if value == "x25519":
        value = str(tmp_path / "x.pem")
        Path(value).write_bytes(X25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    elif value == "garbage":
        value = str(tmp_path / "g.pem")
        Path(value).write_text("-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n")
    no_key.setenv(name, value)
    with pytest.raises(SigningKeyError, match=words):
        _app()


@pytest.fixture
def under_gunicorn(no_key, tmp_path):
    """This process taken for one of gunicorn's (api/signing.py looks for its arbiter), with the host
    key kept in a directory of the test's own."""
    no_key.setitem(sys.modules, "gunicorn.arbiter", types.ModuleType("gunicorn.arbiter"))
    no_key.setenv(KEY_DIR_ENV, str(tmp_path / "keys"))
    # gunicorn_conf.py, read below as the master reads it, would otherwise leave its metrics directory
    # in this process's environment, and later apps would count their metrics there
    (tmp_path / "metrics").mkdir()
    no_key.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "metrics"))
    return tmp_path / "keys"


def test_under_gunicorn_every_worker_and_instance_signs_with_the_host_key(under_gunicorn, tmp_path, capsys):
    runpy.run_path(str(ROOT / "api" / "gunicorn_conf.py"))  # the master reads its configuration
    first, second = _app().test_client(), _app().test_client()  # two workers, or two instances
    keys = first.get("/v1/keys").get_json()
    assert keys == second.get("/v1/keys").get_json() and keys["keys"][0]["ephemeral"] is False
    # a ruling signed by one verifies with the keys the other publishes
    paths = _save(tmp_path, _request_text(), _signed(first).data, second.get("/v1/keys").get_json())
    assert _check(paths) == 0
    # the key is a file only its owner may read, in a directory closed to others
    key_file = under_gunicorn / HOST_KEY_NAME
    assert key_file.stat().st_mode & 0o777 == 0o600 and under_gunicorn.stat().st_mode & 0o777 == 0o700
    # a configured key wins over the host's
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(KEY_ENV, base64.b64encode(b"\x02" * 32).decode())
        assert _app().test_client().get("/v1/keys").get_json()["keys"][0]["key_id"] != keys["keys"][0]["key_id"]


def test_a_host_key_others_could_have_written_stops_the_start(under_gunicorn):
    _app()
    (under_gunicorn / HOST_KEY_NAME).chmod(0o644)
    with pytest.raises(SigningKeyError, match="closed to others"):
        _app()
    (under_gunicorn / HOST_KEY_NAME).chmod(0o600)
    under_gunicorn.chmod(0o777)
    with pytest.raises(SigningKeyError, match="closed to others"):
        _app()


def test_an_ephemeral_key_never_signs_for_a_server_of_several_processes(no_key):
    # a WSGI server other than gunicorn that runs several processes: each would make its own key
    client = _app().test_client()
    response = client.post("/v1/adjudicate?sign=true", data=_request_text(), content_type="application/json",
                           environ_overrides={"wsgi.multiprocess": True})
    assert response.status_code == 503 and response.mimetype == "application/problem+json"
    assert response.get_json()["type"].endswith("/signing-unavailable") and KEY_FILE_ENV in response.get_json()["detail"]
    # unsigned answers are given as ever, and a configured key signs
    assert client.post("/v1/adjudicate", data=_request_text(), content_type="application/json",
                       environ_overrides={"wsgi.multiprocess": True}).status_code == 200
    no_key.setenv(KEY_ENV, base64.b64encode(b"\x02" * 32).decode())
    assert _app().test_client().post("/v1/adjudicate?sign=true", data=_request_text(), content_type="application/json",
                                     environ_overrides={"wsgi.multiprocess": True}).status_code == 200


def test_verify_tells_an_unknown_key_from_an_alteration(no_key, tmp_path, capsys):
    client = _app().test_client()
    answer = _signed(client).get_json()
    other = _app().test_client().get("/v1/keys").get_json()
    paths = _save(tmp_path, _request_text(), json.dumps(answer).encode(), other)
    assert _check(paths) == 3
    out = capsys.readouterr().out
    assert "unknown key" in out and answer["signature"]["key_id"] in out and other["keys"][0]["key_id"] in out
    assert "altered" not in out.replace("nothing shows it altered", "")
    # with the right key set, an altered answer is an alteration (1), not an unknown key
    answer["legal"] = not answer["legal"]
    paths = _save(tmp_path, _request_text(), json.dumps(answer).encode(), client.get("/v1/keys").get_json())
    assert _check(paths) == 1 and "altered" in capsys.readouterr().out


@pytest.mark.parametrize("query, signed", [("", False), ("?sign=false", False), ("?sign=true", True)])
def test_signing_is_asked_for(no_key, query, signed):
    response = _app().test_client().post("/v1/adjudicate" + query, data=_request_text(),
                                         content_type="application/json")
    assert response.status_code == 200 and ("signature" in response.get_json()) is signed


@pytest.mark.parametrize("value", ["yes", "1", "TRUE", ""])
def test_a_bad_sign_option_is_a_400_problem(no_key, value):
    response = _app().test_client().post(f"/v1/adjudicate?sign={value}", data=_request_text(),
                                         content_type="application/json")
    assert response.status_code == 400 and response.mimetype == "application/problem+json"


def test_kalooki_referee_verify_checks_a_ruling(no_key, tmp_path, capsys):
    # the installed command: `kalooki-referee verify` is the console script's subcommand
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["kalooki-referee"] == "kalooki_referee.cli:main"
    client = _app().test_client()
    answer = _signed(client).get_json()
    [published] = client.get("/v1/keys").get_json()["keys"]
    ruling = tmp_path / "ruling.json"
    ruling.write_text(json.dumps({"request": json.loads(_request_text()), "answer": answer}), encoding="utf-8")
    assert cli.main(["verify", str(ruling), "--public-key", published["public_key"]]) == 0
    answer["legal"] = not answer["legal"]
    ruling.write_text(json.dumps({"request": json.loads(_request_text()), "answer": answer}), encoding="utf-8")
    assert cli.main(["verify", str(ruling), "--public-key", published["public_key"]]) == 1


def test_the_verify_command_says_what_it_cannot_read(tmp_path, capsys):
    missing = str(tmp_path / "missing.json")
    assert verify_main([missing, "--public-key", base64.b64encode(b"\x00" * 32).decode()]) == 2
    with pytest.raises(SystemExit) as exit_:
        verify_main(["--public-key", "AAAA"])  # no ruling at all
    assert exit_.value.code == 2
