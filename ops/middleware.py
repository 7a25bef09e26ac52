"""One middleware, first in the chain: a request id (taken from ``X-Request-ID`` when it is a
sane token, else new) bound to every log line of the request and returned in the response's
``X-Request-ID``; one log line per request; and the request's metrics (``ops.metrics``)."""

from __future__ import annotations

import logging
import re
import time
import uuid

import structlog

from ops import metrics

REQUEST_ID_HEADER = "X-Request-ID"
_SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")
_QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})  # probes and scrapes: metrics only

log = logging.getLogger("appenda.request")


class RequestObservabilityMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.headers.get(REQUEST_ID_HEADER, "")
        request_id = incoming if _SANE_ID.match(incoming) else uuid.uuid4().hex
        request.request_id = request_id
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            elapsed = time.perf_counter() - started
            self._observe(request, response, elapsed)
            response[REQUEST_ID_HEADER] = request_id
            return response
        finally:
            structlog.contextvars.clear_contextvars()

    def _observe(self, request, response, elapsed: float) -> None:
        match = getattr(request, "resolver_match", None)
        url_name = match.url_name if match else None
        route = url_name or (match.route if match else "unmatched")
        status = response.status_code
        metrics.REQUEST_SECONDS.labels(request.method, route, f"{status // 100}xx").observe(elapsed)
        key = (url_name, request.method)
        if key in metrics.SAVE_ROUTES:
            metrics.save_observed(status, getattr(response, "data", None))
        elif key in metrics.SEARCH_ROUTES and status < 300:
            metrics.SEARCH_SECONDS.observe(elapsed)
        if status == 429:
            metrics.THROTTLED.labels("api" if request.path.startswith("/api/") else "login").inc()
        metrics.pool_sample()
        if request.path not in _QUIET_PATHS:
            log.info("%s %s %s %.1f ms", request.method, request.path, status, elapsed * 1000,
                     extra={"method": request.method, "path": request.path, "route": route, "status": status,
                            "duration_ms": round(elapsed * 1000, 1)})
