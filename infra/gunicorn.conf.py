"""Gunicorn configuration for running Appenda in production.

    gunicorn -c infra/gunicorn.conf.py <project>.wsgi:application

Everything can be tuned through the environment:

    PORT                      port to bind on 0.0.0.0 (default 8000)
    GUNICORN_BIND             full bind address(es), comma separated; overrides PORT
    WEB_CONCURRENCY           number of worker processes (default 2 x CPUs + 1, max 8)
    GUNICORN_THREADS          threads per worker (default 1 -> sync workers)
    GUNICORN_TIMEOUT          seconds before a silent worker is killed (default 30)
    GUNICORN_GRACEFUL_TIMEOUT seconds workers get to finish on restart (default 30)
    GUNICORN_KEEPALIVE        keep-alive seconds (default 5; raise behind a LB)
    GUNICORN_MAX_REQUESTS     recycle workers after N requests (default 1000, 0 = off)
    GUNICORN_LOG_LEVEL        debug/info/warning/error (default info)
    FORWARDED_ALLOW_IPS       proxies trusted for X-Forwarded-* (default 127.0.0.1)
    GUNICORN_CONTROL_SOCKET   path for gunicorn's runtime control socket (gunicornc);
                              off unless set
"""

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


_port = _int("PORT", 8000)
bind = [b.strip() for b in os.environ.get("GUNICORN_BIND", f"0.0.0.0:{_port}").split(",") if b.strip()]

workers = _int("WEB_CONCURRENCY", min(multiprocessing.cpu_count() * 2 + 1, 8))
threads = _int("GUNICORN_THREADS", 1)
worker_class = "gthread" if threads > 1 else "sync"

timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _int("GUNICORN_KEEPALIVE", 5)

# Recycle workers now and then to contain slow leaks; jitter avoids all
# workers restarting at once.
max_requests = _int("GUNICORN_MAX_REQUESTS", 1000)
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
