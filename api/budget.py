"""A budget of worker time per client address, so that one address sending valid but costly requests
(long replays, listings at the edge of their search budgets) cannot hold the answers of the others.

Every route that computes (each POST: a verdict, a deal, a game, a listing) draws on its client's
bucket: a token bucket of a worker's seconds, ``KALOOKI_CLIENT_BURST`` seconds full (0.5 by default),
refilled at ``KALOOKI_CLIENT_RATE`` seconds per second (0.1 by default: a tenth of the worker), per
worker.  A request is let through while its client's balance is above zero and charged, once
answered, the time it held the worker (the wall clock from the app's start on it to its answer: on a
loaded machine a request holds the worker longer than its CPU time, and that is what the others wait
for).  While the balance is at or below zero the client gets 429 problem+json with ``Retry-After``,
at once, before its body is parsed.  So a client alone gets the worker for cheap requests (a
thousand answers of a millisecond before its first refusal, a hundred a second after), and a client
sending costly ones in a flood holds each worker a tenth of the time: the others rarely wait behind
one of its requests, and never behind more than one.

The client is the connection's address, or, when that address is a trusted proxy
(``KALOOKI_TRUSTED_PROXIES``, loopback by default, where deploy/nginx.conf runs), the last address of
``X-Forwarded-For``: the one the proxy itself appended.  ``KALOOKI_CLIENT_RATE=0`` turns the budget
off.  Each setting may be given in the app's config under the same name.
"""
from __future__ import annotations

import math
import os
from time import monotonic
from typing import Any

from flask import Flask, Response, request

from .errors import problem

RATE_ENV, BURST_ENV, TRUSTED_ENV = "KALOOKI_CLIENT_RATE", "KALOOKI_CLIENT_BURST", "KALOOKI_TRUSTED_PROXIES"
DEFAULT_RATE, DEFAULT_BURST, DEFAULT_TRUSTED = 0.1, 0.5, "127.0.0.1,::1"
MAX_CLIENTS = 10_000  # the addresses a worker keeps a balance for; past it, those whose bucket is full are forgotten
MAX_ADDRESS = 64  # characters of an address taken from X-Forwarded-For (an IPv6 address is at most 45)
_CHARGED_SINCE = "kalooki.budget"  # (the environ key of an admitted request: its client and when it started)


def client_address(environ: dict[str, Any], trusted: frozenset[str]) -> str:
    """The client a request is counted against: its peer, or behind a trusted proxy the address that
    proxy appended last to X-Forwarded-For."""
    peer = str(environ.get("REMOTE_ADDR") or "")
    if peer in trusted:
        forwarded = str(environ.get("HTTP_X_FORWARDED_FOR") or "")
        if forwarded:
            last = forwarded[-MAX_ADDRESS - 8:].rsplit(",", 1)[-1].strip()
            if 0 < len(last) <= MAX_ADDRESS:
                return last
    return peer


class Buckets:
    """The balance of worker seconds of each client address, refilled with the wall clock."""

    def __init__(self, rate: float, burst: float, max_clients: int = MAX_CLIENTS) -> None:
        self.rate, self.burst, self.max_clients = rate, burst, max_clients
        self.balances: dict[str, tuple[float, float]] = {}  # address -> (balance, when it was last set)

    def balance(self, client: str, now: float) -> float:
        kept = self.balances.get(client)
        if kept is None:
            return self.burst
        return min(self.burst, kept[0] + (now - kept[1]) * self.rate)

    def wait(self, client: str, now: float) -> float:
        """0 if ``client`` may be served now, else the seconds until its balance is above zero."""
        balance = self.balance(client, now)
        return 0.0 if balance > 0 else -balance / self.rate

    def charge(self, client: str, seconds: float, now: float) -> None:
        self.balances[client] = (self.balance(client, now) - seconds, now)
        if len(self.balances) > self.max_clients:
            self._forget(now)

    def _forget(self, now: float) -> None:
        """Drop the clients whose bucket has refilled (nothing to remember); if too many remain,
        the longest unseen."""
        for client in [c for c in self.balances if self.balance(c, now) >= self.burst]:
            del self.balances[client]
        excess = len(self.balances) - self.max_clients // 2
        if excess > 0:
            for client in sorted(self.balances, key=lambda c: self.balances[c][1])[:excess]:
                del self.balances[client]


def install(app: Flask) -> None:
    """Draw every POST of ``app`` on its client's bucket (``KALOOKI_CLIENT_RATE``,
    ``KALOOKI_CLIENT_BURST``, ``KALOOKI_TRUSTED_PROXIES``, from the app's config or the environment)."""
    def setting(name: str, default: Any) -> Any:
        return app.config.get(name, os.environ.get(name, default))

    rate, burst = float(setting(RATE_ENV, DEFAULT_RATE)), float(setting(BURST_ENV, DEFAULT_BURST))
    if rate <= 0:
        return
    trusted = frozenset(a.strip() for a in str(setting(TRUSTED_ENV, DEFAULT_TRUSTED)).split(",") if a.strip())
    buckets = app.extensions["kalooki_referee.budget"] = Buckets(rate, max(burst, 0.0))

    @app.before_request
    def _admit() -> Response | None:
        if request.method != "POST" or request.url_rule is None:
            return None
        environ = request.environ
        client = client_address(environ, trusted)
        wait = buckets.wait(client, monotonic())
        if wait > 0:
            retry = max(1, math.ceil(wait))
            response = problem(429, "Too Many Requests",
                               f"this client has used its share of the referee's time; "
                               f"try again in {retry} s", "too-many-requests")
            response.headers["Retry-After"] = str(retry)
            return response
        environ[_CHARGED_SINCE] = (client, monotonic())
        return None

    @app.teardown_request
    def _charge(exc: BaseException | None = None) -> None:
        started = request.environ.pop(_CHARGED_SINCE, None)
        if started is not None:
            now = monotonic()
            buckets.charge(started[0], now - started[1], now)
