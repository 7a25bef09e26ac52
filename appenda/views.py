"""Plumbing views: downloads of region objects through signed, short-lived links (local folder
store), and the 500 handler that turns a region outage raised outside a view into a 503."""

from __future__ import annotations

import logging
import sys
import time

from django.core import signing
from django.http import FileResponse, Http404, HttpResponse, HttpResponseForbidden, JsonResponse
from django.urls import Resolver404, resolve

from appenda.api import fallback
from appenda.db.outage import RETRY_AFTER_SECONDS, is_region_outage, outage_answer
from appenda.storage import LINK_SALT, StorageUnavailable, store_for_region

log = logging.getLogger("appenda.api")


def object_download(request, token: str):
    try:
        unverified = signing.loads(token, salt=LINK_SALT)  # signature checked, age not yet
        data = signing.loads(token, salt=LINK_SALT, max_age=int(unverified["t"]))
    except signing.SignatureExpired:
        return HttpResponseForbidden("This download link has expired; ask for the export again to get a new one.")
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return HttpResponseForbidden("This download link is not valid.")
    if data.get("x") is not None and time.time() >= int(data["x"]):
        return HttpResponse("This export has expired; export again.", status=410, content_type="text/plain")
    store = store_for_region(data["r"])
    try:
        handle = store.open(data["k"])
    except (FileNotFoundError, AttributeError):
        raise Http404("This export no longer exists; export again.") from None
    except StorageUnavailable as exc:
        log.warning("Download from store %s failed: %s", data["r"], exc)
        return HttpResponse("The storage of this export cannot be reached right now; try again in a minute.",
                            status=503, content_type="text/plain", headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    return FileResponse(handle, as_attachment=True, filename=data.get("f") or data["k"].rsplit("/", 1)[-1])


def _workspace_of(request):
    """The workspace named in the URL (resolved here: a middleware may fail before the view is
    chosen), when the control database can still tell."""
    try:
        match = getattr(request, "resolver_match", None) or resolve(request.path_info)
    except Resolver404:
        return None
    ref = match.kwargs.get("ws")
    if not ref:
        return None
    try:
        from appenda.api.base import workspace_by_ref

        return workspace_by_ref(ref)
    except Exception:  # the control database is down too: answer without the region's name
        return None


def server_error(request, *args, **kwargs):
    """handler500: a data store that cannot serve answers its 503 (appenda.db.outage), wherever it was raised;
    any other error is the fallback's 500 (JSON under /api/, the HTML page elsewhere)."""
    exc = sys.exc_info()[1]
    if not is_region_outage(exc):
        return fallback.server_error(request)
    status, body, headers = outage_answer(exc, getattr(request, "workspace", None) or _workspace_of(request))
    log.warning("Answering %s %s (%s: %s).", status, body["code"], type(exc).__name__, exc)
    if request.path.startswith("/api/"):
        return JsonResponse(body, status=status, headers=headers)
    return HttpResponse(body["detail"], status=status, content_type="text/plain; charset=utf-8", headers=headers)
