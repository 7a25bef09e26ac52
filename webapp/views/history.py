"""The history of changes (R-MANAGE-3): every change set the caller may see, newest first, and
the history of one note — who changed what, when and why, each with its Undo while it can
still be undone. An older Undo that answers 409 elsewhere points here.

Reads go through ``memories.history`` (``change_sets_visible``, ``note_history``) and Undo
through ``change_set_undo``, as the API's change views do. Content shows only where the
caller may see it; a blind delete shows who deleted how many notes, never what they said.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from memories import history
from memories.models import ChangeSet
from webapp.access import back_url, workspace_page
from webapp.toasts import toast
from workspaces.capabilities import Actor
from workspaces.models import Bot

PAGE_SIZE = 25
ACTION_LABELS = {
    "save": "Saved", "update": "Saved over", "hold": "Proposed (waiting for you)", "confirm": "Confirmed",
    "undo_requested": "Asked to undo", "edit": "Edited", "keep": "Kept", "discard": "Discarded", "delete": "Deleted",
    "trash": "Moved to the trash", "forget": "Forgot everything", "restore": "Restored", "undo": "Undid",
    "import": "Imported", "pin": "Pinned", "unpin": "Unpinned", "expire": "Expired", "purge": "Purged",
    "blind_delete": "Deleted unread",
}


@dataclass(frozen=True)
class NoteLine:
    note_id: str
    key: str | None  # None when the caller may not see the content
    before: str | None
    after: str | None
    size: int


@dataclass(frozen=True)
class ChangeRow:
    change: ChangeSet
    label: str
    who: str
    lines: list[NoteLine]
    can_undo: bool  # only hides a button: the service decides (a crafted POST is refused the same)


def _who(change: ChangeSet, people: dict, bots: dict) -> str:
    if change.actor_bot_id:
        return f"bot {bots.get(change.actor_bot_id, 'deleted bot')}"
    if change.actor_user_id:
        return people.get(change.actor_user_id, "a former member")
    return "Appenda"


def _rows(actor: Actor, changes: list[ChangeSet]) -> list[ChangeRow]:
    people = dict(get_user_model().objects.filter(id__in={c.actor_user_id for c in changes if c.actor_user_id})
                  .values_list("id", "email"))
    people[actor.user.pk] = "you"
    bots = dict(Bot.objects.filter(id__in={c.actor_bot_id for c in changes if c.actor_bot_id})
                .values_list("id", "name"))
    rows = []
    for change in changes:
        visible = getattr(change, "content_visible", True) and not change.blind
        lines = []
        for item in change.changes.all():
            before, after = item.before or {}, item.after or {}
            lines.append(NoteLine(
                note_id=str(item.note_id), key=(after.get("key") or before.get("key")) if visible else None,
                before=before.get("value") if visible and item.before else None,
                after=after.get("value") if visible and item.after else None, size=item.size))
        rows.append(ChangeRow(change, ACTION_LABELS.get(change.action, change.action.replace("_", " ").capitalize()),
                              _who(change, people, bots), lines,
                              can_undo=visible and not change.undone_at and change.action not in ("expire", "purge")
                              and (change.layer != "workspace" or actor.can("memory:write_workspace"))))
    return rows


def _paged(request, change_sets):
    page = Paginator(change_sets, PAGE_SIZE).get_page(request.GET.get("page"))
    return page, list(page.object_list)


@require_GET
@workspace_page("memory:read")
def changes_page(request, actor: Actor):
    page, changes = _paged(request, history.change_sets_visible(actor=actor))
    return render(request, "webapp/changes.html", {
        "ws": actor.workspace, "actor": actor, "rows": _rows(actor, changes), "page": page, "note": None,
    })


@require_GET
@workspace_page("memory:read")
def note_history_page(request, actor: Actor, note: str):
    page, changes = _paged(request, history.note_history(actor=actor, note_id=note))
    rows = _rows(actor, changes)
    key = next((line.key for row in rows for line in row.lines if line.note_id == note and line.key), None)
    return render(request, "webapp/changes.html", {
        "ws": actor.workspace, "actor": actor, "rows": rows, "page": page, "note": {"id": note, "key": key},
    })


@require_POST
@workspace_page("memory:read")
def change_undo(request, actor: Actor, change: str):
    undo = history.change_set_undo(actor=actor, change_set_id=change)
    count = undo.note_count
    toast(request, f"Undone: {count} note{'s' if count != 1 else ''} back as before.")
    return redirect(back_url(request, reverse("memory-changes", kwargs={"ws": actor.workspace.slug})))
