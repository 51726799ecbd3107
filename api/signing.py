"""Signed rulings.

``POST /v1/adjudicate?sign=true`` adds to the answer a ``signature``: Ed25519 over the RFC 8785
canonical form of ``{"request": <the request body>, "answer": <the answer without its signature>}``.
Ed25519 signatures are deterministic, so the same request still gets the same bytes from the same key.

The key: a PEM private key in the file ``KALOOKI_SIGNING_KEY_FILE``, or the raw 32-byte private key,
base64, in ``KALOOKI_SIGNING_KEY``; with neither, an ephemeral key made at start (api/gunicorn_conf.py
makes one per server start for all its workers and hands it over in ``KALOOKI_EPHEMERAL_SIGNING_KEY``),
which ``GET /v1/keys`` says is ephemeral.  ``verify`` is the check a third party runs offline
(``kalooki-referee verify``, api/verify.py)."""
from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from typing import Any, Mapping

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from kalooki_referee.rules.errors import MalformedInput, Problem
from kalooki_referee.rules.replay import canonical

ALG = "Ed25519"
KEY_FILE_ENV = "KALOOKI_SIGNING_KEY_FILE"
KEY_ENV = "KALOOKI_SIGNING_KEY"
EPHEMERAL_ENV = "KALOOKI_EPHEMERAL_SIGNING_KEY"


class SigningKeyError(ValueError):
    """The configured signing key cannot be read (the service does not start)."""


class NotVerified(Exception):
    """A signed ruling that does not verify, with the reason."""


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
    ephemeral: bool

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


def load_key(environ: Mapping[str, str]) -> SigningKey:
    """The signing key the environment configures (see the module's description)."""
    path = environ.get(KEY_FILE_ENV)
    if path:
        try:
            with open(path, "rb") as fh:
                key = serialization.load_pem_private_key(fh.read(), password=None)
        except OSError as exc:
            raise SigningKeyError(f"{KEY_FILE_ENV}: cannot read {path}: {exc.strerror}") from None
        except (ValueError, TypeError) as exc:
            raise SigningKeyError(f"{KEY_FILE_ENV}: {path} is not an unencrypted PEM private key ({exc})") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise SigningKeyError(f"{KEY_FILE_ENV}: {path} holds a {type(key).__name__}, not an Ed25519 key")
        return SigningKey(key, ephemeral=False)
    if environ.get(KEY_ENV):
        return SigningKey(_raw_private(environ[KEY_ENV], KEY_ENV), ephemeral=False)
    if environ.get(EPHEMERAL_ENV):
        return SigningKey(_raw_private(environ[EPHEMERAL_ENV], EPHEMERAL_ENV), ephemeral=True)
    return SigningKey(Ed25519PrivateKey.generate(), ephemeral=True)


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
    raise NotVerified("the signature does not match this request and answer: one of them was altered, "
                      "or another key signed it")
