"""gunicorn settings for serving the referee: `gunicorn -c gunicorn.conf.py 'api:create_app()'`."""
import multiprocessing
import os

bind = os.environ.get("KALOOKI_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("KALOOKI_WORKERS", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
timeout = 30
accesslog = "-"
errorlog = "-"
limit_request_line = 8190
