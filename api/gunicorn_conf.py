"""gunicorn settings for serving the referee, packaged with it: `kalooki-referee serve` runs
`gunicorn -c python:kalooki_referee.api.gunicorn_conf "kalooki_referee.api:create_app()"`."""
import base64
import multiprocessing
import os

bind = os.environ.get("KALOOKI_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("KALOOKI_WORKERS", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
timeout = 30
accesslog = "-"
errorlog = "-"
limit_request_line = 8190

# Signed rulings (api/signing.py): with no key configured, one ephemeral key per server start, the same
# in every worker (each worker builds its own app), so that GET /v1/keys publishes the key every
# worker signs with.  A configured key (KALOOKI_SIGNING_KEY_FILE or KALOOKI_SIGNING_KEY) wins.
if not (os.environ.get("KALOOKI_SIGNING_KEY_FILE") or os.environ.get("KALOOKI_SIGNING_KEY")):
    os.environ.setdefault("KALOOKI_EPHEMERAL_SIGNING_KEY", base64.b64encode(os.urandom(32)).decode("ascii"))


def post_worker_init(worker):
    """The worker has loaded the app (variants, validators and the clause registry, filled by
    create_app): keep those long-lived objects out of every garbage collection, and collect the
    young generation less often, since a request makes many short-lived objects and keeps none."""
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
