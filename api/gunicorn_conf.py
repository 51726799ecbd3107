"""gunicorn settings for serving the referee, packaged with it: `kalooki-referee serve` runs
`gunicorn -c python:kalooki_referee.api.gunicorn_conf "kalooki_referee.api:create_app()"`.

The serving design (docs/serving.md): a slow or stalled client never holds a
worker, with or without a proxy in front.  The worker class is api/worker.py's: gunicorn's own
asyncio worker reads every connection side by side, each request whole within deadlines on its head
(KALOOKI_HEAD_SECONDS) and its body (KALOOKI_BODY_SECONDS), and only then runs the app, in the main
thread, one request at a time as a sync worker would (a request is pure CPU work, so one at a time
per process is what the GIL would allow anyway), where the app's CPU deadline (api/deadline.py) can
interrupt it.  Behind nginx (deploy/nginx.conf), which buffers too, the same holds.
"""
import contextlib
import glob
import multiprocessing
import os
import shutil
import tempfile
from typing import Any

bind = os.environ.get("KALOOKI_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("KALOOKI_WORKERS", multiprocessing.cpu_count() * 2 + 1))
worker_class = "kalooki_referee.api.worker.Worker"
asgi_lifespan = "off"  # (the WSGI app has no ASGI startup or shutdown of its own)
# A worker's connections, slow ones included, each cost a socket (a file descriptor) and a few
# kilobytes; the deadlines close a slow one within HEAD + BODY seconds, so the open ones are bounded
# by the rate they arrive at times 30 s, and by the process's file limit (RLIMIT_NOFILE, `ulimit -n`:
# raise it where thousands of slow connections are to be held without a proxy in front).
# The last resort: a worker silent for this long (stuck outside Python, where the app's own
# deadline cannot reach) is killed and replaced.  The app answers its own deadline well before.
timeout = 30
graceful_timeout = 10
# The app is loaded once, in the master, and each worker starts as a fork of it: loading it (every
# variant, every validator, the clause registry) takes about 2.5 s of CPU, which a worker replaced
# every few thousand requests would otherwise spend again each time (a quarter of the CPU at a
# thousand requests a second).  Nothing the app holds is per process: the signing key is the
# configured one or the host's (api/signing.py), the metrics follow the worker's pid, and the CPU deadline's
# signal handler is inherited by the fork.
preload_app = True
# A worker is replaced after this many requests (staggered by the jitter, so that the workers of
# one instance are not all replaced at once): whatever memory a large request made it take is
# given back to the system.
max_requests = int(os.environ.get("KALOOKI_MAX_REQUESTS", 5000))
max_requests_jitter = max_requests // 10
# No access log from gunicorn: the app writes one JSON line per request to standard error (api/ops.py),
# with the request id, the route's status and duration and the verdict; gunicorn's own messages
# (workers booting, timeouts) stay on standard error.
accesslog = None
errorlog = "-"
# The bounds of a request's head (docs/limits.md), nginx's and gunicorn's defaults: a request line
# and each header line of at most 8,190 bytes, at most KALOOKI_MAX_HEADER_LINES header lines (100),
# and at most KALOOKI_MAX_HEADER_BYTES of them in all (32 KiB, counted by api/worker.py's protocol).
# Each is checked as the parser reads the lines, before anything works on them as a set; past one
# the client gets 431 (414 for the request line) as problem+json, the app's form, behind a proxy or not.
limit_request_line = 8190
limit_request_fields = int(os.environ.get("KALOOKI_MAX_HEADER_LINES", 100))
limit_request_field_size = 8190
# gunicorn's Python parser: the one whose header lines the worker counts (api/worker.py); the
# optional C parser (gunicorn_h1c) would read them without it.
http_parser = "python"
# gunicorn 25 and later open a control socket for `gunicornc`, by default at one path per user
# ($XDG_RUNTIME_DIR or ~/.gunicorn), which every instance on a host then shares: the last one
# started takes it over.  The referee does not use it; it stays off unless an operator gives each
# instance a path of its own.
if os.environ.get("KALOOKI_CONTROL_SOCKET"):
    control_socket = os.environ["KALOOKI_CONTROL_SOCKET"]
else:
    control_socket_disable = True

# Signed rulings (api/signing.py): with no key configured (KALOOKI_SIGNING_KEY_FILE or
# KALOOKI_SIGNING_KEY), every worker of every instance on the host signs with the host key, one file
# (KALOOKI_KEY_DIR) that the first process to start makes and the others read: never a key per
# process or per instance, which GET /v1/keys could not all publish.  Nothing to set here.


def post_worker_init(worker: Any) -> None:
    """The worker has loaded the app (variants, validators and the clause registry, filled by
    create_app): keep those long-lived objects out of every garbage collection (api/ops.py)."""
    from kalooki_referee.api.ops import settle_collector

    settle_collector()


# Prometheus metrics across workers: each worker writes its figures to files in one directory and
# GET /metrics sums them.  Given PROMETHEUS_MULTIPROC_DIR, that directory is used and emptied of the
# previous run's files when the server starts; otherwise a fresh temporary directory is made for this
# server and removed when it stops.  The variable is set here, in the master, before any worker loads
# the app, so every worker inherits it.
# The directory made here is named after the master's pid, so that a later start can tell the
# directories of servers that died without cleaning up (killed with SIGKILL) and remove them.
OWN_METRICS_PREFIX = "kalooki-metrics-"
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = os.environ["KALOOKI_OWN_METRICS_DIR"] = \
        tempfile.mkdtemp(prefix=f"{OWN_METRICS_PREFIX}{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (another user's process)
        return True
    return True


def remove_dead_servers_metrics(parent: str) -> list[str]:
    """Remove the metrics directories this configuration made in ``parent`` for servers whose master
    is no longer running (and that belong to this user): the directories it removed."""
    removed = []
    for path in glob.glob(os.path.join(parent, OWN_METRICS_PREFIX + "*-*")):
        pid = os.path.basename(path)[len(OWN_METRICS_PREFIX):].split("-", 1)[0]
        try:
            mine = os.stat(path).st_uid == os.getuid()
        except OSError:
            continue
        if pid.isdigit() and mine and not _alive(int(pid)) and os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def on_starting(server: Any) -> None:
    """Start counting from zero: a given directory may hold the files of an earlier run, and the
    directories of servers that were killed before they could remove their own are removed."""
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(directory, exist_ok=True)
    for stale in glob.glob(os.path.join(directory, "*.db")):
        os.remove(stale)
    remove_dead_servers_metrics(tempfile.gettempdir())


def child_exit(server: Any, worker: Any) -> None:
    """A worker is gone (replaced, or killed, even with SIGKILL): its live gauges are dropped and its
    counts are folded into the files of the workers gone before it, so that they stay in the sums
    while the directory holds a bounded number of files, whatever the number of workers replaced."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]
    fold_dead_worker_metrics(os.environ["PROMETHEUS_MULTIPROC_DIR"], worker.pid)


def fold_dead_worker_metrics(directory: str, pid: int) -> None:
    """Add the counters and histograms of the dead worker ``pid`` to ``counter_dead.db`` and
    ``histogram_dead.db`` (which a scrape sums as any worker's file) and remove its own files."""
    from prometheus_client.mmap_dict import MmapedDict

    for kind in ("counter", "histogram"):
        dead = os.path.join(directory, f"{kind}_{pid}.db")
        if not os.path.exists(dead):
            continue
        kept = os.path.join(directory, f"{kind}_dead.db")
        sums: dict[str, tuple[float, float]] = {}
        for path in (kept, dead):
            if os.path.exists(path):
                for key, value, stamp, _ in MmapedDict.read_all_values_from_file(path):  # type: ignore[no-untyped-call]
                    total, _ = sums.get(key, (0.0, 0.0))
                    sums[key] = (total + value, stamp)
        fresh = kept + ".new"  # (not a *.db file: no scrape reads it half written)
        with contextlib.suppress(FileNotFoundError):
            os.remove(fresh)
        out = MmapedDict(fresh)  # type: ignore[no-untyped-call]
        try:
            for key, (value, stamp) in sums.items():
                out.write_value(key, value, stamp)  # type: ignore[no-untyped-call]
        finally:
            out.close()  # type: ignore[no-untyped-call]
        os.replace(fresh, kept)
        os.remove(dead)


def on_exit(server: Any) -> None:
    own = os.environ.get("KALOOKI_OWN_METRICS_DIR")  # made above (also after a reload re-reads this file)
    if own:
        shutil.rmtree(own, ignore_errors=True)
