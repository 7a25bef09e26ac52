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


# --- copying a bot: its definition without notes or token ---------------------------------

BOT_EXPORT_FORMAT = "appenda-bot/1"


def bot_definition(bot: Bot) -> dict:
    """A bot's export file: what makes a copy behave the same — never its notes or its token."""
    return {"format": BOT_EXPORT_FORMAT, "name": bot.name, "memory": bot.memory,
            "memory_save": bot.memory_save or "use_mine"}


def bot_import(*, actor: Actor, definition) -> tuple[Bot, str]:
    """A new bot from an export file: the same memory choice and save rule, no notes (R-AGENT-1).

    A file without ``memory`` makes a bot "as before", like the bot it was written from.
    """
    from workspaces.services import bot_create

    if not isinstance(definition, dict):
        raise DomainError("Send the bot's export file as a JSON object.", code="invalid_bot_file")
    if definition.get("format", BOT_EXPORT_FORMAT) != BOT_EXPORT_FORMAT:
        raise DomainError(f"This is not an Appenda bot file ({BOT_EXPORT_FORMAT}).", code="invalid_bot_file")
    fields = {"memory": definition.get("memory")}
    if "memory_save" in definition:
        fields["memory_save"] = definition["memory_save"]
    name = definition.get("name")
    return bot_create(actor=actor, name=name if isinstance(name, str) else "", **fields)


def deleted_bots_notes(*, actor: Actor) -> list[tuple[Bot, list[Note]]]:
    """The caller's deleted bots whose notes were kept, with those notes ("Deleted bots", R-AGENT-2)."""
    if actor.bot is not None or not actor.can("memory:read"):
        return []
    bots = {b.id: b for b in Bot.objects.filter(workspace=actor.workspace, owner_id=actor.user.pk,
                                                deleted_at__isnull=False)}
    if not bots:
        return []
    from memories.selectors import live_notes

    notes = live_notes(actor.workspace).filter(layer=Layer.BOT, bot_id__in=list(bots)).order_by("key")
    grouped: dict = {}
    for note in notes:
        grouped.setdefault(note.bot_id, []).append(note)
    return [(bots[bot_id], grouped[bot_id]) for bot_id in sorted(grouped, key=lambda i: bots[i].name)]
