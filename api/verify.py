"""``kalooki-referee verify``: check a signed ruling offline.

A signed ruling is the request sent to ``POST /v1/adjudicate?sign=true`` and the answer it got: one
JSON file ``{"request": ..., "answer": ...}``, or the two files given with ``--request`` and
``--answer``.  The public key is given as ``--public-key`` (base64 of its 32 raw bytes, as
``GET /v1/keys`` publishes it) or ``--keys`` (a file holding the answer of ``GET /v1/keys``).  Nothing
is fetched: the check needs only the files.

Exit status: 0 when the signature verifies; 1 when it does not (the request or the answer was
altered); 3 when it was signed by a key that is not in the key set given (its key id is none of
theirs: check it against the keys of the server that signed it); 2 when the files or the key
cannot be read."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .signing import NotVerified, UnknownKey, public_key, verify


def _read_json(path: str) -> Any:
    text = Path(path).read_bytes()
    return json.loads(text.decode("utf-8"))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kalooki-referee verify",
        description="Check offline that a ruling signed by the Kalooki referee was not altered.")
    parser.add_argument("ruling", nargs="?", help='a JSON file {"request": ..., "answer": ...}')
    parser.add_argument("--request", help="the request body sent to POST /v1/adjudicate?sign=true")
    parser.add_argument("--answer", help="the signed answer it got")
    key = parser.add_mutually_exclusive_group(required=True)
    key.add_argument("--public-key", help="the referee's public key, base64 (as GET /v1/keys gives it)")
    key.add_argument("--keys", help="a file holding the answer of GET /v1/keys")
    return parser


def verify_main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if (args.ruling is not None and (args.request or args.answer)) or \
            (args.ruling is None and not (args.request and args.answer)):
        parser.error("give either one ruling file, or both --request and --answer")
    try:
        if args.ruling is not None:
            ruling = _read_json(args.ruling)
            if not isinstance(ruling, dict) or "request" not in ruling or "answer" not in ruling:
                print(f"{args.ruling}: not a ruling file (an object with request and answer)", file=sys.stderr)
                return 2
            request_body, answer = ruling["request"], ruling["answer"]
        else:
            request_body, answer = _read_json(args.request), _read_json(args.answer)
        if args.public_key is not None:
            keys = {"given": public_key(args.public_key)}
        else:
            published = _read_json(args.keys)
            keys = {k["key_id"]: public_key(k["public_key"]) for k in published["keys"] if k.get("alg") == "Ed25519"}
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # json.JSONDecodeError is a ValueError
        print(f"cannot read: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, NotVerified) as exc:
        print(f"cannot read the keys: {exc}", file=sys.stderr)
        return 2
    if not isinstance(answer, dict):
        print("NOT VERIFIED: the answer is not a JSON object")
        return 1
    try:
        kid = verify(request_body, answer, keys)
    except UnknownKey as exc:
        print(f"NOT VERIFIED (unknown key): {exc}")
        return 3
    except NotVerified as exc:
        print(f"NOT VERIFIED: {exc}")
        return 1
    print(f"verified: signed by {kid}; this answer is the referee's to this request, unaltered")
    return 0


if __name__ == "__main__":
    sys.exit(verify_main())
