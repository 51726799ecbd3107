"""gunicorn settings for serving the referee: `gunicorn -c gunicorn.conf.py 'api:create_app()'`.

The serving design (README, "Serving in production"): gunicorn never faces clients directly.  A
buffering reverse proxy (nginx, `deploy/nginx.conf`) reads each request whole before it hands it on
and reads each answer whole before it sends it out, so a slow or stalled client costs the proxy a
connection and never costs a worker.  Behind it, sync workers: a request is pure CPU work (no I/O
to wait on), so one request per process is what the GIL would allow anyway, and a sync worker runs
the request in its main thread, where the app's CPU deadline (api/deadline.py) can interrupt it.
"""
import multiprocessing
import os

bind = os.environ.get("KALOOKI_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("KALOOKI_WORKERS", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
# The last resort: a worker silent for this long (stuck outside Python, where the app's own
# deadline cannot reach) is killed and replaced.  The app answers its own deadline well before.
timeout = 30
graceful_timeout = 10
# A worker is replaced after this many requests (staggered by the jitter, so that the workers of
# one instance are not all replaced at once): whatever memory a large request made it take is
# given back to the system.
max_requests = int(os.environ.get("KALOOKI_MAX_REQUESTS", 5000))
max_requests_jitter = max_requests // 10
accesslog = "-"
errorlog = "-"
# Request-line and header limits, at least as large as the proxy's own (deploy/nginx.conf), so that
# behind the proxy a request that reaches gunicorn is never refused here with a page of text/html.
limit_request_line = 8190
limit_request_fields = 8192  # above the count of header lines nginx lets through (under 1,000 here)
limit_request_field_size = 8190
# gunicorn 25 and later open a control socket for `gunicornc`, by default at one path per user
# ($XDG_RUNTIME_DIR or ~/.gunicorn), which every instance on a host then shares: the last one
# started takes it over.  The referee does not use it; it stays off unless an operator gives each
# instance a path of its own.
if os.environ.get("KALOOKI_CONTROL_SOCKET"):
    control_socket = os.environ["KALOOKI_CONTROL_SOCKET"]
else:
    control_socket_disable = True


def post_worker_init(worker):
    """The worker has loaded the app (variants, validators and the clause registry, filled by
    create_app): keep those long-lived objects out of every garbage collection, and collect the
    young generation less often, since a request makes many short-lived objects and keeps none."""
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
