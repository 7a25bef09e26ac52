"""Deleting a bot and what happens to its notes (R-AGENT-2): keep (default), export then
delete, or delete. Deleted notes go to the trash; kept notes show under "Deleted bots"."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.http import HttpResponse
from django.utils import timezone

from appenda.errors import DomainError, Forbidden
from memories.audit import change_set_record, note_snapshot
from memories.export import export_zip_bytes
from memories.models import Layer, Note
from workspaces.capabilities import Actor
from workspaces.models import ApiToken, Bot

BOT_DELETE_CHOICES = ("keep", "export", "delete")


@dataclass
class BotDeleteOutcome:
    trashed: int
    export_response: HttpResponse | None = None


def bot_delete(*, actor: Actor, bot: Bot, memory: str = "keep") -> BotDeleteOutcome:
    if memory not in BOT_DELETE_CHOICES:
        raise DomainError("memory is keep, export or delete.", code="invalid_memory_choice")
    if bot.owner_id != actor.user.pk and not actor.can("agents:manage"):
        raise Forbidden("Only the bot's owner or someone who manages agents can delete it.")
    workspace = actor.workspace
    alias = workspace.db_alias
    now = timezone.now()
    notes = Note.objects.for_workspace(workspace).filter(layer=Layer.BOT, bot_id=bot.id, trashed_at__isnull=True)
    export = None
    with transaction.atomic(using=alias), transaction.atomic():
        trashed = 0
        if memory in ("export", "delete"):
            selected = list(notes.select_for_update())
            if memory == "export":
                export = export_zip_bytes(workspace=workspace, notes=selected)
            changes = []
            for note in selected:
                before = note_snapshot(note)
                note.trashed_at = now
                changes.append((note, before, note_snapshot(note)))
            notes.filter(id__in=[n.id for n in selected]).update(trashed_at=now)
            if changes:
                change_set_record(workspace=workspace, action="trash", actor_user_id=actor.user.pk, changes=changes,
                                  reason=f"bot {bot.name} deleted")
            trashed = len(selected)
        bot.deleted_at = now
        bot.save(update_fields=["deleted_at"])
        bot.account.is_active = False
        bot.account.save(update_fields=["is_active"])
        ApiToken.objects.filter(user=bot.account, revoked_at__isnull=True).update(revoked_at=now)
    response = None
    if export is not None:
        response = HttpResponse(export, content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="bot-{bot.id}-notes.zip"'
    return BotDeleteOutcome(trashed, response)
