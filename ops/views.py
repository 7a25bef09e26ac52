"""/healthz (the process answers), /readyz (every part it needs answers) and /metrics (Prometheus)."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from appenda.db.outage import RETRY_AFTER_SECONDS
from ops import health, metrics


@never_cache
@require_GET
def healthz(request):
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def readyz(request):
    checks = health.readiness_checks()
    body = {"status": "ready", "checks": {check.key: check.as_dict() for check in checks}}
    try:
        body["jobs"] = health.jobs_summary()
    except Exception:  # the control database is down: already said by its check
        body["jobs"] = {}
    down = [check.label for check in checks if not check.ok]
    if not down:
        return JsonResponse(body)
    body.update(status="not_ready", code="not_ready", not_ready=down,
                detail=f"Not ready: {', '.join(down)} cannot be reached or is missing; see checks for why. "
                       "Requests that need them fail until they are back.")
    return JsonResponse(body, status=503, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def _metrics_allowed(request) -> bool:
    token = getattr(settings, "APPENDA_METRICS_TOKEN", None)
    if token:
        sent = request.headers.get("Authorization", "")
        return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())
    try:  # without a token: only from this machine (a scraper on the same host or a sidecar)
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


@never_cache
@require_GET
def metrics_view(request):
    if not _metrics_allowed(request):
        return JsonResponse({"code": "metrics_forbidden", "detail": (
            "Metrics need the Authorization: Bearer <APPENDA_METRICS_TOKEN> header, or a request from this "
            "machine when no token is set.")}, status=403)
    return HttpResponse(metrics.exposition(), content_type="text/plain; version=0.0.4; charset=utf-8")
