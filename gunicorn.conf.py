"""gunicorn settings for `make serve`; each can be set from the environment.

Threads, not one request per process: a phone that keeps a connection open (or a slow upload)
holds one thread of a worker, not the whole worker. In front of the app a proxy (nginx, Caddy)
buffers slow clients and terminates TLS; see the README's deployment section.
"""

import os

bind = os.environ.get("SCOREKEEPER_BIND", "127.0.0.1:8000")
# Several worker processes share their rate limits only through Redis: without it, one
# process (its threads serve the phones; SQLite is happiest with one writer process, too).
shared = os.environ.get("RATELIMIT_STORAGE_URI", "").startswith(("redis://", "rediss://"))
workers = int(os.environ.get("SCOREKEEPER_WORKERS", "4" if shared else "1"))
worker_class = "gthread"
threads = int(os.environ.get("SCOREKEEPER_THREADS", "8"))
timeout = 30  # a request that takes longer is cut off and its worker restarted
graceful_timeout = 20
keepalive = 5
# request line and headers: small, as the app's own forms are (bodies: MAX_CONTENT_LENGTH)
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
max_requests = 2000  # recycle workers now and then
max_requests_jitter = 200
accesslog = "-" if os.environ.get("SCOREKEEPER_ACCESS_LOG") else None
