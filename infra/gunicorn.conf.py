"""Gunicorn configuration for running Appenda in production.

    gunicorn -c infra/gunicorn.conf.py appenda.wsgi:application

Worker model: ``gthread`` (a few processes, several threads each), chosen so that overload and
a hung dependency stay bounded (R-OPS-1, R-REGION-3):

* Requests wait in the worker's own queue, where we can see them: each is stamped when it is
  queued (``post_worker_init`` below) and ``appenda.admission`` answers 503 ``overloaded`` at
  once to one that waited more than ``APPENDA_MAX_QUEUE_WAIT_MS``. Sync workers leave the queue
  in the kernel's listen backlog, invisible without a proxy's ``X-Request-Start``: above
  capacity they let latency grow until clients time out (issue 21: 151 client timeouts at 3x).
  benchmarks/bench_load.py runs both models at 1x, 3x, 1x (figures in benchmarks/RESULTS.md):
  gthread sheds with 503s and recovers within seconds; sync sheds nothing and its backlog
  keeps latency in seconds after the overload ends.
* A request spends most of its time waiting on PostgreSQL with the GIL released, so threads
  overlap those waits; and a region that hangs holds at most ``APPENDA_REGION_BULKHEAD``
  threads of a worker (``appenda.db.bulkhead``), the others keep serving the other regions. A
  sync worker is one thread: one hung query takes the whole worker.
* Not gevent: psycopg and the CPU-bound detectors would need monkey-patching, and one slow
  detector run would stall every request of the process.

Per process, each database gets a pool of ``APPENDA_DB_POOL_SIZE`` connections (default here:
one per thread, so a thread never waits for one), all kept open (``APPENDA_DB_POOL_MIN_SIZE``:
a pool that grows on demand makes requests wait for connections to open); PostgreSQL sees
workers x threads x databases connections (3 x 8 x 3 = 72 by default).

Everything can be tuned through the environment:

    PORT                      port to bind on 0.0.0.0 (default 8000)
    GUNICORN_BIND             full bind address(es), comma separated; overrides PORT
    WEB_CONCURRENCY           number of worker processes (default CPUs + 1, max 8)
    GUNICORN_THREADS          threads per worker (default 8; 1 = sync workers, no queue shedding)
    GUNICORN_TIMEOUT          seconds before a silent worker is killed (default 30)
    GUNICORN_GRACEFUL_TIMEOUT seconds workers get to finish on restart (default 30)
    GUNICORN_KEEPALIVE        keep-alive seconds (default 5; raise behind a LB)
    GUNICORN_MAX_REQUESTS     recycle workers after N requests (default 1000, 0 = off)
    GUNICORN_LOG_LEVEL        debug/info/warning/error (default info)
    FORWARDED_ALLOW_IPS       proxies trusted for X-Forwarded-* (default 127.0.0.1)
    GUNICORN_CONTROL_SOCKET   path for gunicorn's runtime control socket (gunicornc);
                              off unless set
    APPENDA_DB_POOL_SIZE      connections per database per worker (default: threads)
    APPENDA_DB_POOL_MIN_SIZE  of those, kept open while idle (default: all of them)
    APPENDA_REGION_BULKHEAD   threads of a worker that may wait on one region (default: threads / 2)
    APPENDA_MAX_QUEUE_WAIT_MS queue wait after which a request is shed (default 1000)
"""

import multiprocessing
import os
import time


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


_port = _int("PORT", 8000)
bind = [b.strip() for b in os.environ.get("GUNICORN_BIND", f"0.0.0.0:{_port}").split(",") if b.strip()]

workers = _int("WEB_CONCURRENCY", min(multiprocessing.cpu_count() + 1, 8))
threads = _int("GUNICORN_THREADS", 8)
worker_class = "gthread" if threads > 1 else "sync"
# Read by the workers' settings (they fork from this process and load the app after).
os.environ.setdefault("APPENDA_DB_POOL_SIZE", str(threads))
os.environ.setdefault("APPENDA_DB_POOL_MIN_SIZE", os.environ["APPENDA_DB_POOL_SIZE"])
os.environ.setdefault("APPENDA_REGION_BULKHEAD", str(max(threads // 2, 1)))

# One thread per request for the numeric libraries (OpenBLAS for the search's cosines, OpenMP):
# the workers' threads already keep the cores busy, and a library thread pool per worker
# (several per core) spins and waits on cores other requests hold; read when a worker first
# imports numpy, after the fork. Measured by benchmarks/bench_load.py (RESULTS.md).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _int("GUNICORN_KEEPALIVE", 5)

# Recycle workers now and then to contain slow leaks; jitter avoids all workers restarting at
# once. Not often: a new worker reloads the model and its workspaces' indexes (slow first
# searches) and recycling drops a keep-alive POST or two. With caches bounded in bytes RSS grew about
# 0.8 MB/min in a 10-minute save-heavy soak (benchmarks/bench_soak.py), so 10,000 requests is ample.
max_requests = _int("GUNICORN_MAX_REQUESTS", 10000)
max_requests_jitter = max(max_requests // 10, 0)

# Guard against oversized request lines / headers.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# Logs: access and errors to stdout/stderr for the container runtime.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
capture_output = True

# Behind a reverse proxy / load balancer.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
proxy_allow_ips = forwarded_allow_ips

# Heartbeat files on tmpfs: avoids worker stalls on slow/overlay disks.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# Fork workers before loading the app so each gets its own DB connections.
preload_app = False
proc_name = "appenda"

# Gunicorn >= 27 opens a control socket under ~/.gunicorn by default; that
# needs a writable home and is an extra admin surface, so make it opt-in.
_control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "").strip()
if _control_socket:
    control_socket = _control_socket
else:
    control_socket_disable = True


def post_worker_init(worker):
    """Stamps each request when a gthread worker queues it, and tells ``appenda.admission`` how
    long it waited when a thread takes it (the figure it sheds by)."""
    if not hasattr(worker, "tpool"):
        return  # sync worker: no queue of its own
    from appenda.admission import mark_dequeued

    enqueue, handle = worker.enqueue_req, worker.handle

    def enqueue_req(conn):
        conn.appenda_queued_at = time.monotonic()
        enqueue(conn)

    def handle_stamped(conn):
        queued_at = getattr(conn, "appenda_queued_at", None)
        mark_dequeued(time.monotonic() - queued_at if queued_at is not None else None)
        return handle(conn)

    worker.enqueue_req = enqueue_req
    worker.handle = handle_stamped
