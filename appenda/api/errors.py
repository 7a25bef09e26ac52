"""The single exception handler: every error leaves the API as ``{"code", "detail", ...}``.

It also turns a region that cannot be reached (database or object store) into a 503
``region_unavailable`` that names the region, so a client knows to retry later and other
regions keep serving.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from appenda.db.outage import (
    RETRY_AFTER_SECONDS,
    is_region_outage,
    outage_region,
    region_unavailable_body,
)
from appenda.errors import DomainError

log = logging.getLogger("appenda.api")

_DRF_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "malformed_request",
}


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for field, value in detail.items():
            message = _first_message(value)
            return message if field == "non_field_errors" else f"{field}: {message}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def region_unavailable_response(region: str | None, cause: Exception) -> Response:
    log.warning("Region %s is unavailable (%s); answering 503 region_unavailable.", region or "?", cause)
    return Response(region_unavailable_body(region), status=status.HTTP_503_SERVICE_UNAVAILABLE,
                    headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def api_exception_handler(exc, context):
    request = context.get("request")
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status)
    if is_region_outage(exc):
        workspace = getattr(request, "workspace", None) if request is not None else None
        return region_unavailable_response(outage_region(exc, workspace), exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("Nothing was found at this address, or you may not see it.")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": _first_message(exc.detail), "fields": exc.detail}
        return response
    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
    response.data = {"code": code, "detail": _first_message(exc.detail)}
    return response
