"""The ``kalooki-referee`` command.

    kalooki-referee serve [--port PORT | --bind HOST:PORT] [--workers N] [--public-url URL] [-- GUNICORN_ARGS...]
    kalooki-referee verify RULING.json --public-key KEY   (or --request/--answer, --keys; see --help)
    kalooki-referee version

``serve`` runs gunicorn with the packaged configuration (kalooki_referee/api/gunicorn_conf.py), the
same however the package was installed; ``--bind`` (``--port N``: ``127.0.0.1:N``), ``--workers`` and
``--public-url`` set ``KALOOKI_BIND``, ``KALOOKI_WORKERS`` and ``KALOOKI_PUBLIC_URL`` (the address the
service's links start with, api/notation.py), which that configuration and the app read.  The
conformance runner is ``kalooki-conformance``.  ``serve`` and ``verify`` need the ``server`` extra
(``pip install 'kalooki-referee[server]'``); without it they say so in one line and exit 2.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys

from kalooki_referee import __version__

APP = "kalooki_referee.api:create_app()"
CONFIG = "python:kalooki_referee.api.gunicorn_conf"


SERVER_MODULES = ("flask", "gunicorn", "cryptography")  # what the `server` extra brings and these commands load


def missing_server() -> str | None:
    """The one-line reason ``serve`` and ``verify`` cannot run here (None: they can)."""
    absent = [name for name in SERVER_MODULES if importlib.util.find_spec(name) is None]
    if not absent:
        return None
    return (f"kalooki-referee: this command needs the service, which is not installed ({', '.join(absent)} missing): "
            "install kalooki-referee[server]")


def serve_argv(bind: str | None, workers: int | None, extra: list[str],
               public_url: str | None = None) -> tuple[list[str], dict[str, str]]:
    """The gunicorn command line and environment that ``serve`` runs."""
    env = dict(os.environ)
    if public_url:
        env["KALOOKI_PUBLIC_URL"] = public_url
    if bind:
        env["KALOOKI_BIND"] = bind
    if workers:
        env["KALOOKI_WORKERS"] = str(workers)
    return [sys.executable, "-m", "gunicorn", "-c", CONFIG, *extra, APP], env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kalooki-referee", description="The Kalooki referee.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the API with gunicorn and the packaged settings")
    where = serve.add_mutually_exclusive_group()
    where.add_argument("--bind", help="HOST:PORT to listen on (default $KALOOKI_BIND or 127.0.0.1:8000)")
    where.add_argument("--port", type=int, help="the port to listen on, on 127.0.0.1 (the same as --bind 127.0.0.1:PORT)")
    serve.add_argument("--workers", type=int, help="worker processes (default $KALOOKI_WORKERS or 2 x cores + 1)")
    serve.add_argument("--public-url", help="the address the service's links (QR codes) start with, e.g. "
                       "https://referee.example/ (default $KALOOKI_PUBLIC_URL or /, a relative link)")
    serve.add_argument("gunicorn_args", nargs=argparse.REMAINDER,
                       help="after --, further gunicorn options")
    commands.add_parser("verify", add_help=False,
                        help="check offline that a signed ruling was not altered (kalooki-referee verify --help)")
    commands.add_parser("version", help="print the version")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["serve"], ["verify"]):
        reason = missing_server()
        if reason:
            print(reason, file=sys.stderr)
            return 2
    if argv[:1] == ["verify"]:
        from kalooki_referee.api.verify import verify_main
        return verify_main(argv[1:])
    args = parser.parse_args(argv)
    if args.command == "version":
        print(__version__)
        return 0
    extra = [a for a in args.gunicorn_args if a != "--"]
    bind = f"127.0.0.1:{args.port}" if args.port is not None else args.bind
    command, env = serve_argv(bind, args.workers, extra, args.public_url)
    os.execvpe(command[0], command, env)  # gunicorn takes this process's place (signals go to it)
    return 0  # pragma: no cover - not reached


if __name__ == "__main__":
    sys.exit(main())
