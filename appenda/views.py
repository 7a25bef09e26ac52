"""Plumbing views: downloads of region objects through signed, short-lived links (local folder store)."""

from __future__ import annotations

from django.core import signing
from django.http import FileResponse, Http404, HttpResponseForbidden

from appenda.storage import LINK_SALT, store_for_region


def object_download(request, token: str):
    try:
        unverified = signing.loads(token, salt=LINK_SALT)
        data = signing.loads(token, salt=LINK_SALT, max_age=int(unverified["t"]))
    except signing.SignatureExpired:
        return HttpResponseForbidden("This download link has expired; export again to get a new one.")
    except signing.BadSignature:
        return HttpResponseForbidden("This download link is not valid.")
    store = store_for_region(data["r"])
    try:
        handle = store.open(data["k"])
    except (FileNotFoundError, AttributeError):
        raise Http404("This export no longer exists; export again.") from None
    return FileResponse(handle, as_attachment=True, filename=data.get("f") or data["k"].rsplit("/", 1)[-1])
