"""What the sign-in page says once django-axes locks an account or an address out (issue 22)."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render


def _cool_off_words() -> str:
    cool_off = settings.AXES_COOLOFF_TIME
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else None
    return f"in {minutes} minute{'s' if minutes != 1 else ''}" if minutes else "later"


def lockout_response(request, original_response=None, credentials=None):
    """The sign-in page with the reason, 429 and Retry-After: the right password does not help now."""
    message = (f"Too many failed sign-ins for this account or from this address: signing in is paused. "
               f"Try again {_cool_off_words()}, or ask an instance admin to unlock it.")
    response = render(request, "ops/locked_out.html", {"message": message}, status=429)
    if settings.AXES_COOLOFF_TIME:
        response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
