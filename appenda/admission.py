"""Load shedding: a request that cannot be served in time is refused at once (R-OPS-1).

Above capacity, requests queue; a client that waits long gives up (or times out) while the
server still works on its abandoned request, and everyone's latency grows without bound. So a
request is answered 503 ``overloaded`` with ``Retry-After`` before any work (no database, no
session) when:

* it waited in the queue longer than ``APPENDA_MAX_QUEUE_WAIT_MS`` (default 1000): the time
  from when gunicorn's gthread worker queued it for a thread (``infra/gunicorn.conf.py`` marks
  it, see ``mark_dequeued``) or, behind a proxy, from its ``X-Request-Start`` header
  (``t=<seconds|ms|µs since the epoch>``, as nginx and Heroku send it), to when a thread took it;
* this process already serves ``APPENDA_MAX_IN_FLIGHT`` requests (default 0 = no limit: under
  gunicorn the threads bound it; ``runserver`` makes a thread per request, and its bursts are
  bounded by the database pool instead).

Health checks (``/healthz``, ``/readyz``) are never shed: a shedding server is alive.
"""

from __future__ import annotations

import os
import threading
import time

from django.http import HttpResponse, JsonResponse

from appenda.db.outage import OVERLOAD_RETRY_AFTER_SECONDS

MAX_QUEUE_WAIT_SECONDS = int(os.environ.get("APPENDA_MAX_QUEUE_WAIT_MS", "1000")) / 1000
MAX_IN_FLIGHT = int(os.environ.get("APPENDA_MAX_IN_FLIGHT", "0"))
_NEVER_SHED = ("/healthz", "/readyz", "/livez")

_thread = threading.local()


def mark_dequeued(waited_seconds: float | None) -> None:
    """Called by the server (gunicorn hook) in the thread that takes a request: how long it queued."""
    _thread.queue_wait = waited_seconds


def _proxy_queue_wait(header: str) -> float | None:
    raw = header.strip().removeprefix("t=")
    try:
        stamp = float(raw)
    except ValueError:
        return None
    for scale in (1, 1e3, 1e6):  # seconds, milliseconds or microseconds since the epoch
        if stamp / scale < 1e10:
            return max(0.0, time.time() - stamp / scale)
    return None


def queue_wait(request) -> float | None:
    """Seconds this request waited before a thread took it, when the server or a proxy said."""
    waited = getattr(_thread, "queue_wait", None)
    _thread.queue_wait = None  # one request's figure, never the next one's on this thread
    header = request.META.get("HTTP_X_REQUEST_START")
    if header:
        from_proxy = _proxy_queue_wait(header)
        if from_proxy is not None:
            waited = max(waited or 0.0, from_proxy)
    return waited


def overloaded_response(request, reason: str):
    detail = f"The server is busier than it can handle right now ({reason}); nothing was done. " \
             f"Try again in {OVERLOAD_RETRY_AFTER_SECONDS} seconds."
    headers = {"Retry-After": str(OVERLOAD_RETRY_AFTER_SECONDS)}
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "overloaded", "detail": detail}, status=503, headers=headers)
    return HttpResponse(detail, status=503, content_type="text/plain; charset=utf-8", headers=headers)


class AdmissionMiddleware:
    """Sheds load before any work; place it before every middleware that reads a database."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.max_queue_wait = MAX_QUEUE_WAIT_SECONDS
        self._slots = threading.BoundedSemaphore(MAX_IN_FLIGHT) if MAX_IN_FLIGHT > 0 else None

    def __call__(self, request):
        waited = queue_wait(request)
        if request.path.startswith(_NEVER_SHED):
            return self.get_response(request)
        if waited is not None and self.max_queue_wait > 0 and waited > self.max_queue_wait:
            return overloaded_response(request, f"the request waited {waited:.1f} s in the queue")
        if self._slots is None:
            return self.get_response(request)
        if not self._slots.acquire(blocking=False):
            return overloaded_response(request, "every request slot of this server process is busy")
        try:
            return self.get_response(request)
        finally:
            self._slots.release()
