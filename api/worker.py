"""The gunicorn worker that `kalooki-referee serve` runs (api/gunicorn_conf.py): slow clients cost a
connection, never the worker.

A sync worker reads each request from the client itself, one connection at a time, so five clients
that send half a request hold five workers (the service once stopped that way for about 31 s).
This worker is gunicorn's own asyncio worker (``gunicorn.workers.gasgi``, in gunicorn itself: no
further package) with the app behind a small adapter, ``WholeRequests``:

* the event loop reads every connection's request line, headers and body side by side, as they
  arrive; a connection that dribbles costs a socket and a few kilobytes, never the worker;
* each request is read whole (at most the body limit and one byte more) before the app sees it,
  within deadlines on the whole of it, not between two reads: ``KALOOKI_HEAD_SECONDS`` (10) from
  the connection's opening to the end of the first request's headers (later requests on a kept-alive
  connection have gunicorn's keep-alive timeout), then ``KALOOKI_BODY_SECONDS`` (20) for the body;
* a request's head is bounded before anything reads its headers one by one: at most
  ``KALOOKI_MAX_HEADER_LINES`` (100) header lines of at most 8,190 bytes each (gunicorn's parser,
  api/gunicorn_conf.py) and ``KALOOKI_MAX_HEADER_BYTES`` (32 KiB) in all (``HeadDeadlineProtocol``,
  counted as the parser meets each line); past either bound the connection gets 431 and is closed.
  Every refusal the worker makes itself (400, 408, 414, 431, 501) is problem+json, like the app's;
* then the app runs in the loop's thread, the main thread, one request at a time, as in a sync
  worker: the request is pure CPU work, so one at a time per process is what the GIL would allow
  anyway, and the app's CPU deadline (api/deadline.py, a timer signal) interrupts it there;
* the answer is handed to the loop, which sends it while the app serves the next request.
"""
from __future__ import annotations

import asyncio
import io
import os
import sys
from typing import Any, Callable

WSGIApp = Callable[..., Any]
ASGICall = Callable[..., Any]

from gunicorn.asgi.protocol import ASGIProtocol
from gunicorn.asgi.parser import LimitRequestHeaders
from gunicorn.workers import gasgi

from werkzeug.http import HTTP_STATUS_CODES

from .wire import MAX_BODY_BYTES, WHOLE_BODY

HEAD_SECONDS = float(os.environ.get("KALOOKI_HEAD_SECONDS", 10))
BODY_SECONDS = float(os.environ.get("KALOOKI_BODY_SECONDS", 20))
# the bounds of a request's head (docs/limits.md): its header lines (gunicorn's limit_request_fields,
# set from the same variable in api/gunicorn_conf.py) and their bytes in all, names and values
MAX_HEADER_LINES = int(os.environ.get("KALOOKI_MAX_HEADER_LINES", 100))
MAX_HEADER_BYTES = int(os.environ.get("KALOOKI_MAX_HEADER_BYTES", 32 * 1024))
MAX_HEADER_LINE_BYTES = 8190  # one line, its end included (gunicorn's limit_request_field_size)


class _Overdue(Exception):
    pass


class WholeRequests:
    """An ASGI application that reads each HTTP request whole, then calls a WSGI application with it
    in the calling thread and sends its answer."""

    def __init__(self, wsgi_app: WSGIApp, multiprocess: bool, body_seconds: float = BODY_SECONDS,
                 max_body: int = MAX_BODY_BYTES):
        self.wsgi_app, self.multiprocess = wsgi_app, multiprocess
        self.body_seconds, self.max_body = body_seconds, max_body

    async def __call__(self, scope: dict[str, Any], receive: ASGICall, send: ASGICall) -> None:
        if scope["type"] == "lifespan":  # (turned off in gunicorn_conf.py; answered if asked)
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return  # no WebSocket: the connection is closed
        try:
            body = await asyncio.wait_for(self._body(receive), timeout=self.body_seconds)
        except (asyncio.TimeoutError, _Overdue):
            await self._send(send, *_overdue(self.body_seconds))
            return
        status, headers, chunks = self._call(scope, body)
        await self._send(send, status, headers, chunks)

    async def _body(self, receive: ASGICall) -> bytes:
        """The body, cut at one byte past the limit (the app refuses what is longer: 413, whether
        the length was announced or the body sent chunked)."""
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Overdue()
            chunk = message.get("body", b"")
            if chunk and size <= self.max_body:
                parts.append(chunk[:self.max_body + 1 - size])
                size += len(parts[-1])
            if not message.get("more_body") or size > self.max_body:
                return b"".join(parts)

    def _call(self, scope: dict[str, Any], body: bytes) -> tuple[int, list[tuple[bytes, bytes]], list[bytes]]:
        environ = wsgi_environ(scope, body, self.multiprocess)
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
            started[:] = [status, headers]
            return lambda data: chunks.append(data)

        chunks: list[bytes] = []
        result = self.wsgi_app(environ, start_response)
        try:
            chunks.extend(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        status, headers = started
        return (int(status.split(" ", 1)[0]),
                [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers], chunks)

    @staticmethod
    async def _send(send: ASGICall, status: int, headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> None:
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"".join(chunks)})


def _overdue(seconds: float) -> tuple[int, list[tuple[bytes, bytes]], list[bytes]]:
    """408, as problem+json, for a body not read whole within its deadline."""
    from .errors import http_problem

    response = http_problem(408, "Request Timeout", f"the request body did not arrive whole within {seconds:g} s")
    body = response.get_data()
    return 408, [(b"content-type", b"application/problem+json"), (b"content-length", b"%d" % len(body)),
                 (b"x-content-type-options", b"nosniff"), (b"cache-control", b"no-store"),
                 (b"connection", b"close")], [body]


def wsgi_environ(scope: dict[str, Any], body: bytes, multiprocess: bool) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an ASGI HTTP scope whose body has been read whole."""
    raw_path = scope.get("raw_path")
    path = raw_path.split(b"?", 1)[0].decode("latin-1") if raw_path else scope["path"].encode("utf-8").decode("latin-1")
    root = scope.get("root_path", "")
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path[len(root):] if root and path.startswith(root) else path,
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]), "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "SERVER_PROTOCOL": "HTTP/" + scope.get("http_version", "1.1"),
        "SERVER_SOFTWARE": "gunicorn",
        "wsgi.version": (1, 0), "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.input_terminated": True,
        "wsgi.multithread": False, "wsgi.multiprocess": multiprocess, "wsgi.run_once": False,
        WHOLE_BODY: True,  # (the body was read whole and cut at the limit and one byte: see WholeRequests)
    }
    if client:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = str(client[0]), str(client[1])
    repeated: dict[str, list[str]] = {}  # a name sent on several lines: its values, joined once at the end
    for name, value in scope.get("headers", ()):
        key = name.decode("latin-1").upper().replace("-", "_")
        text = value.decode("latin-1")
        if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            environ[key] = text
            continue
        key = "HTTP_" + key
        if key in environ:
            values = repeated.get(key)
            if values is None:
                values = repeated[key] = [environ[key]]
            values.append(text)
        else:
            environ[key] = text
    for key, values in repeated.items():
        environ[key] = ",".join(values)
    return environ


def _head_problem(status: int) -> bytes:
    """The problem+json body of a refusal the worker makes itself, as the app writes it for the
    same status (api/errors.py); for 431, the bounds of a head."""
    from werkzeug.exceptions import default_exceptions

    from .errors import http_problem

    exc = default_exceptions.get(status)
    name = HTTP_STATUS_CODES.get(status, "Error")
    detail = (f"a request's head is limited to {MAX_HEADER_LINES} header lines of at most "
              f"{MAX_HEADER_LINE_BYTES} bytes each and {MAX_HEADER_BYTES} bytes in all" if status == 431
              else exc.description if exc is not None and exc.description else name)
    return bytes(http_problem(status, name, detail).get_data())


class HeadDeadlineProtocol(ASGIProtocol):
    """gunicorn's connection protocol with the head of every request bounded: the first request's
    whole head within HEAD_SECONDS of the connection's opening (else the connection is closed), and
    every request's header lines at most MAX_HEADER_BYTES in all, counted as the parser reads each
    line, before anything works on them as a set (past it: 431).  Its own refusals are problem+json."""

    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes = 0
    _problems: dict[int, bytes] = {}  # (made once per status and kept: a refusal costs no JSON writing)

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._head_timer = self.worker.loop.call_later(HEAD_SECONDS, self._head_overdue)

    def _setup_callback_parser(self) -> None:
        super()._setup_callback_parser()
        # (the Python parser, which api/gunicorn_conf.py sets, calls this with each header line it reads)
        self._callback_parser._on_header = self._count_header

    def _count_header(self, name: bytes, value: bytes) -> None:
        self._head_bytes += len(name) + len(value) + 4  # (the colon, a space and the line's end)
        if self._head_bytes > MAX_HEADER_BYTES:
            raise LimitRequestHeaders("the request's header lines are too large in all")

    def _on_headers_complete(self) -> Any:
        self._cancel_head_timer()
        self._head_bytes = 0  # (the next request on this connection counts its own)
        return super()._on_headers_complete()

    def _send_error_response(self, status: int, message: str, extra_headers: Any = ()) -> None:
        """gunicorn's own refusals (a malformed request, a line or a head too large) as problem+json;
        ``message``, which may quote the request, is not sent."""
        body = self._problems.get(status)
        if body is None:
            body = self._problems[status] = _head_problem(status)
        extra = "".join(f"{name}: {value}\r\n" for name, value in extra_headers)
        head = (f"HTTP/1.1 {status} {HTTP_STATUS_CODES.get(status, 'Error')}\r\nContent-Type: application/problem+json\r\n"
                f"Content-Length: {len(body)}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n"
                f"{extra}Connection: close\r\n\r\n")
        self._safe_write(head.encode("latin-1") + body)

    def _head_overdue(self) -> None:
        self._head_timer = None
        if self._current_request is None and not self._closed:
            self._close_transport()
            if self._request_ready is not None:
                self._request_ready.set()  # the connection's task sees it closed and ends

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def connection_lost(self, exc: Exception | None) -> Any:
        self._cancel_head_timer()
        return super().connection_lost(exc)


class Worker(gasgi.ASGIWorker):
    """gunicorn's asyncio worker serving the WSGI app whole-request by whole-request (see above)."""

    def init_process(self) -> None:
        # the worker's server makes each connection's protocol by this module-level name
        gasgi.ASGIProtocol = HeadDeadlineProtocol
        super().init_process()

    def load_wsgi(self) -> None:
        self.asgi = WholeRequests(self.app.wsgi(), multiprocess=self.cfg.workers > 1)
