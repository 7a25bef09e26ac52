"""Template helpers of the Memory page that other pages show too: the held count ("Waiting for
you") of the nav link and the tab title, a held note's time left, and sizes in bytes."""

from __future__ import annotations

from django import template
from django.utils import timezone

from webapp.selectors import held_count

register = template.Library()


@register.simple_tag(takes_context=True)
def held_total(context) -> int:
    """How many notes wait for the signed-in person in this page's workspace (0 off a workspace)."""
    if "held_total" in context:  # the Memory page counted them already, with its tabs
        return context["held_total"]
    request = context.get("request")
    actor = getattr(request, "actor", None)
    return held_count(actor) if actor is not None else 0


@register.filter
def expires_in(moment) -> str:
    """"expires in 3 h" — the time left of a held note, rounded down, in one unit."""
    if not moment:
        return ""
    seconds = int((moment - timezone.now()).total_seconds())
    if seconds <= 0:
        return "expires any moment now"
    if seconds < 60:
        return "expires in under a minute"
    if seconds < 3600:
        return f"expires in {seconds // 60} min"
    if seconds < 2 * 86400:
        return f"expires in {seconds // 3600} h"
    return f"expires in {seconds // 86400} days"


@register.filter
def kib(size: int) -> str:
    """Bytes as a person reads them: "1.2 KB" (1 KB = 1,024 bytes, as the budget counts)."""
    if size < 1024:
        return f"{size} bytes"
    return f"{size / 1024:.1f} KB"
