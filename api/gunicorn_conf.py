"""gunicorn settings for serving the referee, packaged with it: `kalooki-referee serve` runs
`gunicorn -c python:kalooki_referee.api.gunicorn_conf "kalooki_referee.api:create_app()"`."""
import multiprocessing
import os

bind = os.environ.get("KALOOKI_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("KALOOKI_WORKERS", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
timeout = 30
accesslog = "-"
errorlog = "-"
limit_request_line = 8190


def post_worker_init(worker):
    """The worker has loaded the app (variants, validators and the clause registry, filled by
    create_app): keep those long-lived objects out of every garbage collection, and collect the
    young generation less often, since a request makes many short-lived objects and keeps none."""
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
