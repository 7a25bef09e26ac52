"""Every 503 says when to come back (issue 17): ``Retry-After`` on each path that answers 503."""

from __future__ import annotations

import importlib
import sys

import pytest
from django.db import OperationalError
from django.test import RequestFactory

from appenda import views
from appenda.api.errors import api_exception_handler
from appenda.errors import DomainError

# The modules that define domain errors, so every subclass is known below.
for module in ("appenda.db.local", "appenda.db.backends.sqlcipher.base", "memories.export"):
    try:
        importlib.import_module(module)
    except ImportError:  # SQLCipher missing: its error is not reachable either
        pass


def _all_subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _all_subclasses(sub)


DOMAIN_503 = sorted({cls for cls in _all_subclasses(DomainError) if cls.status == 503}, key=lambda c: c.__name__)


def test_the_domain_errors_answering_503_are_known():
    assert {"RegionUnavailable", "ExportFailed", "LocalFileMissing"} <= {cls.__name__ for cls in DOMAIN_503}


@pytest.mark.parametrize("error", [*(cls("down") for cls in DOMAIN_503),
                                   DomainError("overloaded", code="overloaded", status=503)],
                         ids=lambda e: e.code)
def test_every_domain_error_answering_503_carries_retry_after(error):
    response = api_exception_handler(error, {"request": None})
    assert response.status_code == 503 and int(response["Retry-After"]) > 0


def test_a_4xx_domain_error_has_no_retry_after():
    assert "Retry-After" not in api_exception_handler(DomainError("bad"), {"request": None})


def test_a_region_outage_in_a_view_carries_retry_after():
    response = api_exception_handler(OperationalError("connection refused"), {"request": None})
    assert response.status_code == 503 and int(response["Retry-After"]) > 0


@pytest.mark.parametrize("path", ["/api/v1/me/", "/w/"])
def test_a_region_outage_outside_a_view_carries_retry_after(path):
    request = RequestFactory().get(path)
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        assert sys.exc_info()[1] is not None
        response = views.server_error(request)
    assert response.status_code == 503 and int(response["Retry-After"]) > 0


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_503_on_a_web_page_carries_retry_after(rf, htmx):
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django_htmx.middleware import HtmxDetails

    from webapp.access import error_response

    request = rf.get("/w/acme/memory/", **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
    request.htmx = HtmxDetails(request)
    request.session = {}
    request._messages = FallbackStorage(request)
    response = error_response(request, DomainError("down", code="region_unavailable", status=503), "/")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
