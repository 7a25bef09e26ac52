"""The single exception handler: every error leaves the API as ``{"code", "detail", ...}``.

It also turns a data store that cannot serve into its 503 (``appenda.db.outage``):
``region_unavailable`` naming the region (other regions keep serving), ``control_unavailable``,
or ``overloaded``; and a deadlock into a 409 ``concurrent_change``.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.db import DataError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from appenda.db.outage import RETRY_AFTER_SECONDS, is_region_outage, outage_answer
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


def outage_response(cause: Exception, workspace) -> Response:
    """A data store that cannot serve now: 503 region_unavailable, control_unavailable or
    overloaded, or 409 concurrent_change for a lost race (``appenda.db.outage``)."""
    status_code, body, headers = outage_answer(cause, workspace)
    log.warning("Answering %s %s (%s: %s).", status_code, body["code"], type(cause).__name__, cause)
    set_rollback()
    return Response(body, status=status_code, headers=headers)


# What the database refused, by the words of its message (PostgreSQL's and psycopg's).
_DATA_ERRORS = (
    (("too long",), "too_long", "A value is longer than its field allows; shorten it."),
    (("nul", "unicode", "byte sequence", "surrogate", "encod"), "invalid_text",
     "A value contains a NUL byte or characters that are not UTF-8 text; send plain text."),
)
_DATA_ERROR_OTHER = ("invalid_value", "A value is out of the range its field takes (a number too large, "
                                      "a date out of range…); check the values sent.")


def data_error_response(exc: Exception) -> Response:
    """A value the database refused is the caller's input, so a 400, never a 500. It is also
    a check the input contracts (``appenda.api.contract``) or a service missed, hence the warning."""
    message = str(exc).lower()
    code, detail = next(((code, detail) for words, code, detail in _DATA_ERRORS
                         if any(word in message for word in words)), _DATA_ERROR_OTHER)
    log.warning("The database refused a value as %s (%s: %s); a contract or service should have refused it "
                "first.", code, type(exc).__name__, exc)
    set_rollback()
    return Response({"code": code, "detail": detail}, status=status.HTTP_400_BAD_REQUEST)


def api_exception_handler(exc, context):
    request = context.get("request")
    if isinstance(exc, DomainError):
        # Every 503 says when to come back (export_failed, a local workspace file missing or locked…).
        retry = {"Retry-After": str(RETRY_AFTER_SECONDS)} if exc.status == status.HTTP_503_SERVICE_UNAVAILABLE else None
        return Response(exc.as_dict(), status=exc.status, headers=retry)
    if isinstance(exc, DataError) or (isinstance(exc, UnicodeEncodeError) and "surrogate" in exc.reason):
        return data_error_response(exc)
    if is_region_outage(exc):
        workspace = getattr(request, "workspace", None) if request is not None else None
        return outage_response(exc, workspace)
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
