"""Template helpers of the web app: pending toasts, capability checks, labels of layers."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from webapp.toasts import toasts_pop
from workspaces.capabilities import is_instance_admin as _is_instance_admin

register = template.Library()

# A bot's memory choice in the reference page's words (R-AGENT-1); None is a bot saved before the choice.
BOT_MEMORY_LABELS = {"mine_and_own": "mine and its own", "own": "its own only", "mine": "mine", "none": "none",
                     None: "as before"}
LAYER_LABELS = {"mine": "Mine", "workspace": "Workspace", "bot": "Bot", "instance": "Instance rule",
                "conversation": "Conversation"}


@register.simple_tag(takes_context=True)
def pending_toasts(context):
    return toasts_pop(context.get("request"))


@register.simple_tag(takes_context=True)
def instance_admin(context) -> bool:
    request = context.get("request")
    return bool(request and _is_instance_admin(request.user))


@register.filter
def can(actor, capability: str) -> bool:
    return bool(actor and actor.can(capability))


@register.filter
def bot_memory_label(memory) -> str:
    return BOT_MEMORY_LABELS.get(memory or None, str(memory))


@register.filter
def layer_label(layer: str) -> str:
    return LAYER_LABELS.get(layer, layer)


@register.filter
def ago(moment) -> str:
    """"just now" for the last minute, else "3 hours ago" (timesince alone says "0 minutes")."""
    if not moment:
        return ""
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment)} ago"
