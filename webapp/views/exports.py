"""Export and forget (R-MANAGE-4): make a zip of the notes the caller may see and download it
while it lasts; and "Forget everything", which moves all of one's own notes of a layer (mine,
or one of one's bots') to the trash after the person types a word to confirm.

The forms call ``memories.export`` and ``memories.trash``, the services the API's export and
forget views call. A download asks for a fresh short-lived link each time (an expired export
is deleted and says so).
"""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from appenda.errors import DomainError
from memories import trash
from memories.export import (
    export_get_for_download,
    export_link,
    exports_of_caller,
    memory_export_create,
)
from webapp.access import workspace_page
from webapp.toasts import toast
from workspaces.capabilities import Actor
from workspaces.models import Bot

FORGET_WORD = "forget"


def _export_url(actor: Actor) -> str:
    return reverse("memory-export", kwargs={"ws": actor.workspace.slug})


def _plural(count: int) -> str:
    return f"{count} note{'s' if count != 1 else ''}"


def _forget_targets(actor: Actor) -> list[tuple[str, str]]:
    bots = Bot.objects.filter(workspace=actor.workspace, owner_id=actor.user.pk).order_by("deleted_at", "name")
    return [("mine", "My notes (Mine)"),
            *[(f"bot:{bot.id}", f"The notes of my bot {bot.name}{' (deleted)' if bot.deleted_at else ''}")
              for bot in bots]]


def _page(request, actor: Actor, *, forget_error: DomainError | None = None, form: dict | None = None,
          status: int = 200):
    exports = [{"export": export, "counts": [(layer, count) for layer, count in sorted((export.counts or {}).items())
                                              if count]}
               for export in exports_of_caller(actor=actor)[:20]]
    return render(request, "webapp/export.html", {
        "ws": actor.workspace, "actor": actor, "exports": exports, "forget_targets": _forget_targets(actor),
        "forget_word": FORGET_WORD, "forget_error": forget_error, "form": form or {"target": "mine"},
        "ttl_hours": int(settings.APPENDA["EXPORT_TTL"].total_seconds() // 3600),
        "trash_days": settings.APPENDA["TRASH_TTL"].days,
    }, status=status)


@require_http_methods(["GET", "POST"])
@workspace_page("memory:read")
def export_page(request, actor: Actor):
    if request.method != "POST":
        return _page(request, actor)
    export = memory_export_create(actor=actor)
    total = sum((export.counts or {}).values())
    toast(request, f"Your export of {_plural(total)} is ready: download it below.")
    return redirect(_export_url(actor))


@require_GET
@workspace_page("memory:read")
def export_download(request, actor: Actor, export: str):
    found = export_get_for_download(actor=actor, export_id=export)
    url, _ = export_link(workspace=actor.workspace, export=found)
    return redirect(url)


@require_POST
@workspace_page("memory:read")
def forget(request, actor: Actor):
    form = {"target": request.POST.get("target", "mine"), "confirm_text": request.POST.get("confirm_text", "")}
    target = form["target"]
    layer, bot_ref = ("bot", target.removeprefix("bot:")) if target.startswith("bot:") else ("mine", None)
    try:
        if form["confirm_text"].strip().lower() != FORGET_WORD:
            raise DomainError(f"Type “{FORGET_WORD}” in the box to confirm; nothing was moved to the trash.",
                              code="confirmation_required")
        change_set = trash.memory_forget(actor=actor, layer=layer, bot_ref=bot_ref, confirm=True)
    except DomainError as error:
        if error.status in (403, 404):
            raise
        return _page(request, actor, forget_error=error, form=form, status=422)
    count = change_set.note_count if change_set else 0
    if count:
        toast(request, f"Moved {_plural(count)} to the trash. You can restore them for "
                       f"{settings.APPENDA['TRASH_TTL'].days} days.")
    else:
        toast(request, "There was nothing to forget: no notes were moved.")
    return redirect(reverse("memory-trash", kwargs={"ws": actor.workspace.slug}))
