"""gunicorn settings for serving the referee, packaged with it: `kalooki-referee serve` runs
`gunicorn -c python:kalooki_referee.api.gunicorn_conf "kalooki_referee.api:create_app()"`."""
import base64
import glob
import multiprocessing
import os
import shutil
import tempfile

bind = os.environ.get("KALOOKI_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("KALOOKI_WORKERS", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
timeout = 30
# No access log from gunicorn: the app writes one JSON line per request to standard error (api/ops.py),
# with the request id, the route's status and duration and the verdict; gunicorn's own messages
# (workers booting, timeouts) stay on standard error.
accesslog = None
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


# Prometheus metrics across workers: each worker writes its figures to files in one directory and
# GET /metrics sums them.  Given PROMETHEUS_MULTIPROC_DIR, that directory is used and emptied of the
# previous run's files when the server starts; otherwise a fresh temporary directory is made for this
# server and removed when it stops.  The variable is set here, in the master, before any worker loads
# the app, so every worker inherits it.
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = os.environ["KALOOKI_OWN_METRICS_DIR"] = \
        tempfile.mkdtemp(prefix="kalooki-metrics-")


def on_starting(server):
    """Start counting from zero: a given directory may hold the files of an earlier run."""
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(directory, exist_ok=True)
    for stale in glob.glob(os.path.join(directory, "*.db")):
        os.remove(stale)


def child_exit(server, worker):
    """A worker is gone: its counts stay in the sums, its live gauges are dropped."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    own = os.environ.get("KALOOKI_OWN_METRICS_DIR")  # made above (also after a reload re-reads this file)
    if own:
        shutil.rmtree(own, ignore_errors=True)
