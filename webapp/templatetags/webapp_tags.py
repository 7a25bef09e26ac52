"""Template helpers of the web app: pending toasts, capability checks, labels of layers."""

from __future__ import annotations

from django import template

from webapp.toasts import toasts_pop
from workspaces.capabilities import is_instance_admin as _is_instance_admin

register = template.Library()

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
def layer_label(layer: str) -> str:
    return LAYER_LABELS.get(layer, layer)
