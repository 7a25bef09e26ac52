"""Error pages for paths no view answered: JSON ``{"code", "detail"}`` under /api/, HTML elsewhere."""

from __future__ import annotations

from django.http import JsonResponse
from django.views import defaults


def not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "not_found", "detail": f"There is no API endpoint at {request.path}; see /api/v1/docs/."},
            status=404,
        )
    return defaults.page_not_found(request, exception)


def server_error(request):
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "server_error", "detail": "Something went wrong on our side; nothing was changed. Try again, "
                                               "and tell your admin if it keeps happening."},
            status=500,
        )
    return defaults.server_error(request)
