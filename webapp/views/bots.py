"""Bots of a workspace (R-AGENT-1, R-AGENT-2): each bot's memory choice and save rule, a new
token (shown once), delete with its notes kept, exported or deleted, and a new bot.

Every form calls the services the API's bot views call (``workspaces.services.bot_create``,
``bot_update``, ``workspaces.tokens.bot_token_rotate``, ``memories.bots.bot_delete``), which
check who may change a bot (its owner, or someone who manages agents) — the page only hides
controls a person could not use.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from appenda.errors import DomainError
from memories.bots import BOT_DELETE_CHOICES, bot_delete
from webapp.access import workspace_page
from webapp.toasts import toast
from workspaces import services
from workspaces.capabilities import Actor
from workspaces.models import Bot
from workspaces.tokens import bot_token_rotate

MEMORY_CHOICES = [
    ("mine_and_own", "Mine and its own", "Its turns read your notes and its own; it saves to its own."),
    ("own", "Its own only", "Its turns read and save only its own notes."),
    ("mine", "Mine", "Its turns read your notes and save to them."),
    ("none", "None", "Memory is off for this bot: no notes reach it and it cannot save."),
]
SAVE_RULES = [
    ("use_mine", "Use mine", "Its saves follow your own setting."),
    ("always", "Always confirm", "Every note it proposes waits for you to keep it."),
    ("never", "Never", "It cannot save notes."),
]
DELETE_CHOICES = [
    ("keep", "Keep its notes", "They stay, listed under “Deleted bots” on the Memory page."),
    ("export", "Export, then delete", "You download a zip of its notes; they go to the trash."),
    ("delete", "Delete its notes", "They go to the trash, where you can restore them for a while."),
]
assert [value for value, _, _ in DELETE_CHOICES] == list(BOT_DELETE_CHOICES)


@dataclass(frozen=True)
class BotRow:
    bot: Bot
    can_change: bool  # its owner, or someone who manages agents
    save_rule: str  # the form's value: "use_mine" for the owner's own level


def _rows(actor: Actor) -> list[BotRow]:
    bots = Bot.objects.filter(workspace=actor.workspace, deleted_at__isnull=True).select_related("owner") \
        .order_by("name", "id")
    return [BotRow(bot, bot.owner_id == actor.user.pk or actor.can("agents:manage"), bot.memory_save or "use_mine")
            for bot in bots]


def _page(request, actor: Actor, *, new_key: tuple[Bot, str, str] | None = None,
          error: DomainError | None = None, failed: str | None = None, status: int = 200):
    return render(request, "webapp/bots.html", {
        "ws": actor.workspace, "actor": actor, "rows": _rows(actor), "memory_choices": MEMORY_CHOICES,
        "save_rules": SAVE_RULES, "delete_choices": DELETE_CHOICES, "can_create": actor.can("bots:create"),
        "new_bot": new_key[0] if new_key else None, "new_key": new_key[1] if new_key else None,
        "new_key_why": new_key[2] if new_key else None, "error": error, "failed": failed,
    }, status=status)


def _bots_url(actor: Actor) -> str:
    return reverse("bots", kwargs={"ws": actor.workspace.slug})


@never_cache  # a new bot's or a rotated key is on the answer to a POST; no cache keeps either
@require_GET
@workspace_page("bots:read")
def bots_page(request, actor: Actor):
    return _page(request, actor)


@never_cache
@require_POST
@workspace_page("bots:read")
def bot_add(request, actor: Actor):
    try:
        bot, key = services.bot_create(actor=actor, name=request.POST.get("name", ""),
                                       memory=request.POST.get("memory") or "mine_and_own",
                                       memory_save=request.POST.get("memory_save") or "use_mine")
    except DomainError as error:
        if error.status in (403, 404):
            raise
        return _page(request, actor, error=error, failed="new", status=422)
    return _page(request, actor, new_key=(bot, key, "created"))


@require_POST
@workspace_page("bots:read")
def bot_edit(request, actor: Actor, bot: str):
    found = services.bot_visible(actor=actor, bot_id=bot)
    try:
        services.bot_update(actor=actor, bot=found, memory=request.POST.get("memory") or None,
                            memory_save=request.POST.get("memory_save") or "use_mine")
    except DomainError as error:
        if error.status in (403, 404):
            raise
        return _page(request, actor, error=error, failed=str(found.id), status=422)
    toast(request, f"Saved {found.name}: memory {_label(MEMORY_CHOICES, found.memory)}, "
                   f"saves {_label(SAVE_RULES, found.memory_save or 'use_mine')}.")
    return redirect(_bots_url(actor))


@never_cache
@require_POST
@workspace_page("bots:read")
def bot_rotate(request, actor: Actor, bot: str):
    found = services.bot_visible(actor=actor, bot_id=bot)
    _, key = bot_token_rotate(actor=actor, bot=found)
    return _page(request, actor, new_key=(found, key, "rotated"))


@require_POST
@workspace_page("bots:read")
def bot_remove(request, actor: Actor, bot: str):
    found = services.bot_visible(actor=actor, bot_id=bot)
    choice = request.POST.get("memory", "keep")
    outcome = bot_delete(actor=actor, bot=found, memory=choice)
    if outcome.export_response is not None:
        toast(request, f"Deleted {found.name}; its {outcome.trashed} note{'s' if outcome.trashed != 1 else ''} "
                       "were exported (the download) and moved to the trash.")
        return outcome.export_response
    if choice == "delete":
        message = f"Deleted {found.name}; its {outcome.trashed} note{'s' if outcome.trashed != 1 else ''} went to the trash."
    else:
        message = f"Deleted {found.name}; its notes are kept under “Deleted bots” on the Memory page."
    toast(request, message)
    return redirect(_bots_url(actor))


def _label(choices, value) -> str:
    return next((label.lower() for key, label, _ in choices if key == value), "as before")
