"""gunicorn settings for `make serve`; each can be set from the environment.

gevent, not threads: each connection is a greenlet that waits in the worker's event loop, so a
phone that sends its request slowly, keeps an idle connection or holds a live stream open costs
a few kilobytes, not one of a handful of threads (bench/slow_clients.py measures it). gunicorn
patches the standard library for gevent before it loads the app; psycopg 3 and the Redis client
then wait cooperatively too (tests/test_serve.py checks both), and SQLite's calls are short and
never wait on the network.
"""

import gc
import os
import resource

bind = os.environ.get("SCOREKEEPER_BIND", "127.0.0.1:8000")
# Several worker processes share their rate limits only through Redis: without it, one
# process (SQLite is happiest with one writer process, too).
shared = os.environ.get("RATELIMIT_STORAGE_URI", "").startswith(("redis://", "rediss://"))
workers = int(os.environ.get("SCOREKEEPER_WORKERS", "4" if shared else "1"))
worker_class = "gevent"
# open connections per worker: requests, idle kept-alive phones and live streams together
worker_connections = int(os.environ.get("SCOREKEEPER_CONNECTIONS", "5000"))
# a worker whose event loop is blocked this long (stuck in a call that never yields) is
# restarted; a long request or a live stream that waits on the network is not cut
timeout = 30
graceful_timeout = 20  # on a restart, running requests get this long (streams end at once: below)
keepalive = 5  # an idle connection is closed after 5 s; so is one slower to send its headers
# request line and headers: small, as the app's own forms are (bodies: MAX_CONTENT_LENGTH)
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
accesslog = "-" if os.environ.get("SCOREKEEPER_ACCESS_LOG") else None

# every connection is a file descriptor: lift the soft limit (often 1,024) to the hard one
_soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
_wanted = workers * worker_connections + 100
if _soft != resource.RLIM_INFINITY and _soft < _wanted:
    resource.setrlimit(resource.RLIMIT_NOFILE,
                       (_wanted if _hard == resource.RLIM_INFINITY else min(_wanted, _hard),
                        _hard))


def post_worker_init(worker):
    """The app is loaded: what it holds for good (its modules, routes, settings) is moved out of
    the garbage collector's sight, so that a full collection, which stops every request of the
    worker, walks only what requests made (gc.freeze; entries posted at a tournament table in
    one process: the longest took 51-66 ms with a full collection inside, 5-6 ms frozen).

    When the worker is told to stop, end its live streams at once (their phones reconnect to
    the next worker): they would otherwise hold it for the whole graceful_timeout."""
    gc.collect()
    gc.freeze()
    if worker.cfg.worker_class_str != "gevent":  # another worker class given on the command line
        return
    import gevent

    from scorekeeper.table import live

    def watch():
        while worker.alive:
            gevent.sleep(0.5)
        live.end_streams()

    gevent.spawn(watch)
