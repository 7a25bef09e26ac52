"""The one list shape of the API: ``{count, next, previous, results}`` with ``limit``/``offset``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response

from appenda.api.contract import Contract, Integer


class Page(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500


class PageQuery(Contract):
    """A page of a list: ``limit`` and ``offset`` (the one page shape, ``appenda.api.pagination``)."""

    error_codes = {"limit": "invalid_filter", "offset": "invalid_filter"}

    limit = Integer(required=False, min_value=1, max_value=Page.max_limit,
                    help_text=f"How many results at most (default {Page.default_limit}, at most {Page.max_limit}).")
    offset = Integer(required=False, min_value=0, max_value=10**9, help_text="How many results to skip.")


def paginated(request, view, items: Sequence, to_json: Callable) -> Response:
    """A page of ``items`` (a queryset or a list), each shown with ``to_json``."""
    paginator = Page()
    page = paginator.paginate_queryset(items, request, view=view)
    return paginator.get_paginated_response([to_json(item) for item in page])
