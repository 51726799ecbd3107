"""Signed rulings.

``POST /v1/adjudicate?sign=true`` adds to the answer a ``signature``: Ed25519 over the RFC 8785
canonical form of ``{"request": <the request body>, "answer": <the answer without its signature>}``.
Ed25519 signatures are deterministic, so the same request still gets the same bytes from the same key.

One key, whatever process signs: every signed answer must verify with the keys ``GET /v1/keys``
publishes, whichever worker or instance answered the fetch.  The key is, in this order:

* a PEM private key in the file ``KALOOKI_SIGNING_KEY_FILE``, or the raw 32-byte private key, base64,
  in ``KALOOKI_SIGNING_KEY`` (configured: the same for every instance given it, on any machine);
* with neither, served by gunicorn (several workers, and perhaps several instances on the host): the
  host key, ``signing-key.pem`` in ``KALOOKI_KEY_DIR`` (default ``$XDG_STATE_HOME/kalooki-referee``
  or ``~/.local/state/kalooki-referee``), made by the first process that needs it and read by every
  other, a file only its owner may read; a key directory that cannot be used stops the start;
* otherwise (one process: the Flask test client, ``flask run``): an ephemeral key made at start,
  which ``GET /v1/keys`` says is ephemeral.  A server that reports several processes
  (``wsgi.multiprocess``) is refused signing with it, rather than sign with a key no other process
  publishes (``check_shared``).

``verify`` is the check a third party runs offline (``kalooki-referee verify``, api/verify.py); it tells
an altered ruling from one signed by a key not in the key set it was given (``UnknownKey``)."""
from __future__ import annotations

import base64
import binascii
import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from kalooki_referee.rules.errors import MalformedInput, Problem
from kalooki_referee.rules.wire.replay import canonical

ALG = "Ed25519"
KEY_FILE_ENV = "KALOOKI_SIGNING_KEY_FILE"
KEY_ENV = "KALOOKI_SIGNING_KEY"
KEY_DIR_ENV = "KALOOKI_KEY_DIR"
HOST_KEY_NAME = "signing-key.pem"


class SigningKeyError(ValueError):
    """The signing key cannot be read or made (the service does not start)."""


class SigningUnavailable(Exception):
    """A signature asked of a process whose ephemeral key no other process of the server publishes."""


class NotVerified(Exception):
    """A signed ruling that does not verify, with the reason."""


class UnknownKey(NotVerified):
    """A signed ruling whose key is not in the key set it was checked against: not shown altered,
    but not shown intact either until it is checked with the keys of the server that signed it."""


def signed_message(request_body: Any, answer: Mapping[str, Any]) -> bytes:
    """The bytes a ruling's signature covers: the RFC 8785 canonical form of ``{"request": ...,
    "answer": ...}`` (the answer without its ``signature``)."""
    doc = {"request": request_body, "answer": {k: v for k, v in answer.items() if k != "signature"}}
    try:
        return canonical(doc)  # the project's RFC 8785 writer (the rfc8785 package where it must)
    except MalformedInput as refused:
        try:
            return rfc8785.dumps(doc)  # a non-integer number, which only the package writes in RFC 8785 form
        except rfc8785.CanonicalizationError:
            raise MalformedInput([
                Problem(p.pointer.removeprefix("/request") if p.pointer.startswith("/request") else "",
                        "a number RFC 8785 cannot write exactly (an integer beyond 2^53 - 1 in magnitude): "
                        "the ruling cannot be signed")
                for p in refused.problems]) from None


def key_id(public: Ed25519PublicKey) -> str:
    """A key's id: ``ed25519:`` and the first 16 hex digits of SHA-256 of its raw 32 bytes."""
    return "ed25519:" + hashlib.sha256(_raw(public)).hexdigest()[:16]


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


@dataclass(frozen=True)
class SigningKey:
    private: Ed25519PrivateKey
    ephemeral: bool  # made by this process at start, known to no other

    @property
    def key_id(self) -> str:
        return key_id(self.private.public_key())

    def published(self) -> dict[str, Any]:
        """The public key as ``GET /v1/keys`` lists it."""
        return {"key_id": self.key_id, "alg": ALG, "ephemeral": self.ephemeral,
                "public_key": base64.b64encode(_raw(self.private.public_key())).decode("ascii")}

    def sign(self, request_body: Any, answer: Mapping[str, Any]) -> dict[str, str]:
        """The ``signature`` of an answer to ``request_body``."""
        value = self.private.sign(signed_message(request_body, answer))
        return {"alg": ALG, "key_id": self.key_id, "value": base64.b64encode(value).decode("ascii")}


def _raw_private(text: str, name: str) -> Ed25519PrivateKey:
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise SigningKeyError(f"{name} is not base64") from None
    if len(raw) != 32:
        raise SigningKeyError(f"{name} holds {len(raw)} bytes; an Ed25519 private key is 32 raw bytes")
    return Ed25519PrivateKey.from_private_bytes(raw)


def _pem_private(path: str, name: str) -> Ed25519PrivateKey:
    try:
        with open(path, "rb") as fh:
            key = serialization.load_pem_private_key(fh.read(), password=None)
    except OSError as exc:
        raise SigningKeyError(f"{name}: cannot read {path}: {exc.strerror}") from None
    except (ValueError, TypeError) as exc:
        raise SigningKeyError(f"{name}: {path} is not an unencrypted PEM private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{name}: {path} holds a {type(key).__name__}, not an Ed25519 key")
    return key


def served_by_gunicorn() -> bool:
    """Whether this process is gunicorn's (its master, or a worker forked from it): then other
    processes sign too, and no key may be this process's own."""
    return "gunicorn.arbiter" in sys.modules


def host_key_path(environ: Mapping[str, str]) -> Path:
    """Where the host key is kept: ``KALOOKI_KEY_DIR``, or the user's state directory (XDG)."""
    if environ.get(KEY_DIR_ENV):
        return Path(environ[KEY_DIR_ENV]) / HOST_KEY_NAME
    state = environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "kalooki-referee" / HOST_KEY_NAME


def host_key(environ: Mapping[str, str]) -> Path:
    """The host key's file, made if there is none yet: written whole under another name and linked
    into place, so that of several processes starting at once one makes it and the others read it.
    The directory and the file must be the user's own and closed to everyone else (a key another
    user could have written is one they could sign with)."""
    path = host_key_path(environ)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not path.exists():
            pem = Ed25519PrivateKey.generate().private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
            draft = path.with_name(f".{HOST_KEY_NAME}.{os.getpid()}")
            fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(pem)
            try:
                os.link(draft, path)  # fails if another process linked its key first: that one is read
            except FileExistsError:
                pass
            finally:
                os.unlink(draft)
        for place in (path.parent, path):
            st = place.stat()
            if st.st_uid != os.geteuid() or st.st_mode & 0o077:
                raise SigningKeyError(f"the host signing key's {'directory' if place == path.parent else 'file'} "
                                      f"{place} must be this user's own and closed to others (mode 0700/0600)")
    except OSError as exc:
        raise SigningKeyError(f"cannot make or read the host signing key at {path}: {exc.strerror}; configure "
                              f"{KEY_FILE_ENV} (the same key for every instance) or {KEY_DIR_ENV}") from None
    return path


def load_key(environ: Mapping[str, str], shared: bool | None = None) -> SigningKey:
    """The signing key (see the module's description); ``shared``: whether other processes sign too
    (by default, whether this one is gunicorn's)."""
    path = environ.get(KEY_FILE_ENV)
    if path:
        return SigningKey(_pem_private(path, KEY_FILE_ENV), ephemeral=False)
    if environ.get(KEY_ENV):
        return SigningKey(_raw_private(environ[KEY_ENV], KEY_ENV), ephemeral=False)
    if served_by_gunicorn() if shared is None else shared:
        return SigningKey(_pem_private(str(host_key(environ)), "the host signing key"), ephemeral=False)
    return SigningKey(Ed25519PrivateKey.generate(), ephemeral=True)


def check_shared(key: SigningKey, environ: Mapping[str, Any]) -> None:
    """Refuse to sign with a process's own ephemeral key under a server that runs several processes
    (WSGI's ``wsgi.multiprocess``): their keys would differ and ``GET /v1/keys`` would publish one."""
    if key.ephemeral and environ.get("wsgi.multiprocess"):
        raise SigningUnavailable(
            "this server runs several processes and no signing key is configured: each process would sign "
            f"with a key of its own; configure {KEY_FILE_ENV} or {KEY_ENV} (docs/signing.md)")


def public_key(text: str) -> Ed25519PublicKey:
    """A public key given as base64 of its raw 32 bytes (as ``GET /v1/keys`` publishes it)."""
    try:
        raw = base64.b64decode(text.strip(), validate=True)
        return Ed25519PublicKey.from_public_bytes(raw)
    except (binascii.Error, ValueError):
        raise NotVerified("the public key is not base64 of 32 raw bytes") from None


def verify(request_body: Any, answer: Mapping[str, Any], keys: Mapping[str, Ed25519PublicKey]) -> str:
    """Check a signed ruling against public keys (by key id); the id of the key that signed it, or
    NotVerified with the reason."""
    signature = answer.get("signature") if isinstance(answer, Mapping) else None
    if not isinstance(signature, Mapping):
        raise NotVerified("the answer carries no signature")
    if signature.get("alg") != ALG:
        raise NotVerified(f"the signature's algorithm is {signature.get('alg')!r}, not {ALG}")
    kid = signature.get("key_id")
    candidates = [keys[kid]] if isinstance(kid, str) and kid in keys else list(keys.values())
    if not candidates:
        raise NotVerified("no public key to check it with")
    try:
        value = base64.b64decode(str(signature.get("value")), validate=True)
    except (binascii.Error, ValueError):
        raise NotVerified("the signature's value is not base64") from None
    try:
        message = signed_message(request_body, answer)
    except MalformedInput as exc:
        raise NotVerified(exc.detail) from None
    for public in candidates:
        try:
            public.verify(value, message)
        except InvalidSignature:
            continue
        if key_id(public) != kid:
            raise NotVerified(f"the signature is good but names key {kid!r}, not {key_id(public)!r}")
        return key_id(public)
    known = sorted(key_id(public) for public in keys.values())
    if kid not in known:
        raise UnknownKey(f"signed by key {kid!r}, which is not in this key set ({', '.join(known)}): nothing "
                         "shows it altered; check it against the keys of the server that signed it")
    raise NotVerified("the signature does not match this request and answer: one of them was altered")
