"""A deadline on the CPU time of one request, answered as a problem.

Every request is bounded before the rules core sees it (sizes, counts, search budgets), so no
request should come near this: it is the net under those limits.  Without it, a request that ran
away would keep its worker until gunicorn's timeout killed the process, and the client would get
gunicorn's text/html error page.  With it, the work is interrupted and the client gets a 422
problem saying the request was too costly; the worker goes on serving.

The deadline counts the process's CPU time (``ITIMER_VIRTUAL``), not the wall clock, so that a
loaded machine does not turn a request that is cheap into a refused one, and the same request
gets the same answer.  A timer signal can only interrupt the main thread, which is where a sync
worker (the serving design, gunicorn.conf.py) and the Flask test client run a request; in any
other thread the deadline is not set and gunicorn's own timeout remains the net.
"""
from __future__ import annotations

import os
import signal
import threading
from types import FrameType

from flask import Flask, Response

from .errors import problem

DEFAULT_SECONDS = float(os.environ.get("KALOOKI_DEADLINE_SECONDS", 5.0))


class DeadlineExceeded(Exception):
    pass


def _expired(signum: int, frame: FrameType | None) -> None:
    raise DeadlineExceeded()


def _stop() -> None:
    signal.setitimer(signal.ITIMER_VIRTUAL, 0)


def install(app: Flask) -> None:
    """Arm the deadline (``app.config["DEADLINE_SECONDS"]``, 0 for none) around every request."""
    seconds = float(app.config.setdefault("DEADLINE_SECONDS", DEFAULT_SECONDS))
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        return

    if threading.current_thread() is threading.main_thread():  # the handler is set once per process
        signal.signal(signal.SIGVTALRM, _expired)

    main_thread, get_ident, sigvtalrm = threading.main_thread, threading.get_ident, signal.SIGVTALRM
    armed_by: list[int | None] = [None]  # the thread whose request armed the timer (only a main thread can)

    @app.before_request
    def _arm() -> None:
        # (the main thread's ident read at each request: a forked worker's main thread is the one that forked)
        ident = get_ident()
        if ident == main_thread().ident and signal.getsignal(sigvtalrm) is _expired:
            signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
            armed_by[0] = ident

    @app.teardown_request
    def _disarm(exc: BaseException | None = None) -> None:
        if armed_by[0] == get_ident():  # (this thread's request armed it: no second look at the thread and handler)
            armed_by[0] = None
            _stop()

    @app.errorhandler(DeadlineExceeded)
    def _too_costly(exc: DeadlineExceeded) -> Response:
        _stop()
        return problem(422, "Request too costly",
                       f"the referee stopped working on this request after {seconds:g} s of CPU time",
                       "too-costly")
