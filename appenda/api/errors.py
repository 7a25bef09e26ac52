"""The single exception handler: every error leaves the API as ``{"code", "detail", ...}``.

It also turns a region that cannot be reached (database or object store) into a 503
``region_unavailable`` that names the region, so a client knows to retry later and other
regions keep serving.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from appenda.errors import DomainError
from appenda.storage import StorageUnavailable

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
    where = f"region {region!r}" if region else "this workspace's region"
    return Response(
        {
            "code": "region_unavailable",
            "detail": f"The data store of {where} cannot be reached right now; nothing was changed. Try again in a minute.",
            "region": region,
        },
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": "30"},
    )


def api_exception_handler(exc, context):
    request = context.get("request")
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, StorageUnavailable):
        return region_unavailable_response(exc.region, exc)
    if isinstance(exc, (OperationalError, InterfaceError)) or type(exc) is DatabaseError:
        workspace = getattr(request, "workspace", None) if request is not None else None
        return region_unavailable_response(getattr(workspace, "region", None), exc)
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
