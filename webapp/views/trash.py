"""The trash (R-MANAGE-4): the caller's trashed notes with when each is purged; restore one or
all. The forms call ``memories.trash``, the services the API's trash views call. "Forget
everything", which fills the trash, is on the export page (``webapp.views.exports``).
"""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from memories import trash
from webapp.access import workspace_page
from webapp.toasts import toast
from workspaces.capabilities import Actor
from workspaces.models import Bot


def _trash_url(actor: Actor) -> str:
    return reverse("memory-trash", kwargs={"ws": actor.workspace.slug})


def _plural(count: int, word: str = "note") -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


@require_GET
@workspace_page("memory:read")
def trash_page(request, actor: Actor):
    notes = list(trash.trash_list(actor=actor)[:500])
    ttl = settings.APPENDA["TRASH_TTL"]
    bots = {bot.id: bot.name for bot in Bot.objects.filter(workspace=actor.workspace, owner_id=actor.user.pk)}
    rows = [{"note": note, "purge_at": note.trashed_at + ttl, "bot_name": bots.get(note.bot_id)} for note in notes]
    return render(request, "webapp/trash.html", {
        "ws": actor.workspace, "actor": actor, "rows": rows, "ttl_days": ttl.days,
    })


@require_POST
@workspace_page("memory:read")
def trash_restore(request, actor: Actor, note: str):
    restored, _ = trash.trash_restore(actor=actor, note_id=note)
    toast(request, f"Restored {restored.key}.")
    return redirect(_trash_url(actor))


@require_POST
@workspace_page("memory:read")
def trash_restore_all(request, actor: Actor):
    change_sets = trash.trash_restore_all(actor=actor)
    toast(request, f"Restored {_plural(sum(c.note_count for c in change_sets))}.")
    return redirect(_trash_url(actor))
