"""The trash and the notes that leave for good (R-MANAGE-4, R-TAINT-4).

"Forget everything" moves a person's own notes of one layer to the trash (``trashed_at``), in
one change set; the trash lists them and restores one or all. Trashed notes are never recalled
or searched (``selectors.live_notes``). Two commands finish the job across every region
database: ``purge_trash`` deletes trash entries older than ``APPENDA["TRASH_TTL"]`` and
``expire_held`` deletes held notes nobody kept within ``APPENDA["HELD_TTL"]`` — both audited.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from appenda.errors import Conflict, DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from memories.audit import change_set_record, note_snapshot
from memories.history import held_note_refresh
from memories.models import ChangeSet, Layer, Note, NoteChange
from memories.scopes import bot_scope, owned_scopes, user_scope
from memories.search import marker as search_marker
from memories.selectors import live_notes
from workspaces.capabilities import Actor
from workspaces.models import Bot

FORGET_LAYERS = (Layer.MINE, Layer.BOT)


def _person_only(actor: Actor) -> None:
    if actor.bot is not None:
        raise Forbidden("Only a person can forget or restore notes; a bot's token cannot.", code="person_required")


def _forget_scope(actor: Actor, layer, bot_ref) -> str:
    if layer in (None, "", Layer.MINE):
        return user_scope(actor.user.pk)
    if layer == Layer.BOT:
        bot_id = parse_uuid(bot_ref)
        bot = Bot.objects.filter(id=bot_id, workspace=actor.workspace, owner=actor.user).first() if bot_id else None
        if bot is None:
            raise DomainError("Name one of your bots in 'bot' to forget its notes.", code="bot_not_found")
        return bot_scope(bot.id)
    raise DomainError(
        "Forget everything works on notes that are yours alone: layer mine, or bot with one of your bots.",
        code="layer_not_allowed", status=403,
    )


def memory_forget(*, actor: Actor, layer=None, bot_ref=None, confirm=False) -> ChangeSet | None:
    """Moves every note of one of the caller's own scopes to the trash, in one change set."""
    _person_only(actor)
    scope = _forget_scope(actor, layer, bot_ref)
    if confirm is not True:
        raise DomainError(
            'Forgetting moves all these notes to the trash. Send "confirm": true to go ahead; '
            f"you can restore them from the trash for {settings.APPENDA['TRASH_TTL'].days} days.",
            code="confirmation_required",
        )
    workspace = actor.workspace
    now = timezone.now()
    with transaction.atomic(using=workspace.db_alias):
        notes = list(live_notes(workspace).filter(scope=scope).select_for_update().order_by("key"))
        if not notes:
            return None
        changes = []
        for note in notes:
            before = note_snapshot(note)
            note.trashed_at = now
            changes.append((note, before, note_snapshot(note)))
        Note.objects.for_workspace(workspace).filter(id__in=[n.id for n in notes]).update(trashed_at=now)
        return change_set_record(workspace=workspace, action="forget", actor_user_id=actor.user.pk,
                                 changes=changes, reason="forget everything")


def trash_list(*, actor: Actor) -> QuerySet:
    """The caller's trashed notes, most recently trashed first."""
    _person_only(actor)
    return Note.objects.for_workspace(actor.workspace).filter(
        scope__in=owned_scopes(actor), trashed_at__isnull=False
    ).order_by("-trashed_at", "key")


def _restore_conflict(keys: list[str]) -> Conflict:
    listed = ", ".join(repr(k) for k in keys[:10]) + (" …" if len(keys) > 10 else "")
    return Conflict(
        f"Your notes already have a note with the key {listed}, so the trashed one cannot come back beside it. "
        "Delete the current note first (you can undo that), then restore; or leave the trashed one to be purged.",
        code="restore_conflict", keys=keys,
    )


def _restore(actor: Actor, notes: list[Note]) -> list[ChangeSet]:
    """Restores ``notes`` (locked, trashed) all or nothing: one change set per scope."""
    workspace = actor.workspace
    taken = set()
    if notes:
        occupants = Note.objects.for_workspace(workspace).select_for_update().filter(
            Q(*[Q(scope=n.scope, key=n.key, state=n.state) for n in notes], _connector=Q.OR),
            trashed_at__isnull=True,
        )
        now = timezone.now()
        for occupant in occupants:
            if occupant.state == Note.State.HELD and occupant.held_until and occupant.held_until <= now:
                _expire_note(workspace, occupant)  # already gone for every read; clear it out now
            else:
                taken.add((occupant.scope, occupant.key, occupant.state))
    conflicts = []
    for note in notes:  # newest in the trash first: of two trashed notes with one key, the newer comes back
        place = (note.scope, note.key, note.state)
        if place in taken:
            conflicts.append(note.key)
        taken.add(place)
    if conflicts:
        raise _restore_conflict(conflicts)
    by_scope: dict[str, list] = defaultdict(list)
    for note in notes:
        before = note_snapshot(note)
        note.trashed_at = None
        held_note_refresh(note)
        note.save(using=workspace.db_alias)
        by_scope[note.scope].append((note, before, note_snapshot(note)))
    return [
        change_set_record(workspace=workspace, action="restore", actor_user_id=actor.user.pk, changes=changes,
                          reason="restored from the trash")
        for changes in by_scope.values()
    ]


def trash_restore(*, actor: Actor, note_id) -> tuple[Note, ChangeSet]:
    _person_only(actor)
    with transaction.atomic(using=actor.workspace.db_alias):
        note_uuid = parse_uuid(note_id)
        note = trash_list(actor=actor).select_for_update().filter(id=note_uuid).first() if note_uuid else None
        if note is None:
            raise NotFound("No such note in your trash.", code="not_found")
        (change_set,) = _restore(actor, [note])
    return note, change_set


def trash_restore_all(*, actor: Actor) -> list[ChangeSet]:
    _person_only(actor)
    with transaction.atomic(using=actor.workspace.db_alias):
        return _restore(actor, list(trash_list(actor=actor).select_for_update()))


# --- the commands: every region database ---------------------------------------------------

@dataclass(frozen=True)
class RegionWorkspace:
    """What ``change_set_record`` needs of a workspace, known from a region row alone (the
    control database need not be reachable, nor the workspace still listed there)."""

    id: uuid.UUID
    db_alias: str


def region_aliases() -> dict[str, str]:
    return dict(settings.REGION_DB_ALIASES)


def trash_purge(*, alias: str, now=None) -> int:
    """Deletes the trash entries older than the trash's time to live in one region database.

    One change set per workspace and scope records the ids and sizes, without content (like a
    blind delete): the notes are gone for good, so there is nothing an undo could restore.
    """
    cutoff = (now or timezone.now()) - settings.APPENDA["TRASH_TTL"]
    purged = 0
    with transaction.atomic(using=alias):
        notes = list(Note.objects.using(alias).select_for_update().filter(trashed_at__lt=cutoff)
                     .only("id", "workspace_id", "key", "value", "layer", "scope", "owner_user_id"))
        groups: dict[tuple, list[Note]] = defaultdict(list)
        for note in notes:
            groups[(note.workspace_id, note.scope)].append(note)
        for (workspace_id, _), group in groups.items():
            change_set_record(
                workspace=RegionWorkspace(workspace_id, alias), action="purge", actor_user_id=None,
                changes=[(n, None, None) for n in group], blind=True, target_user_id=group[0].owner_user_id,
                reason=f"in the trash for more than {settings.APPENDA['TRASH_TTL'].days} days",
            )
            ids = [n.id for n in group]
            Note.objects.using(alias).filter(id__in=ids).delete()
            # Forgotten for good means the audit keeps who and when, not the text.
            NoteChange.objects.using(alias).filter(workspace_id=workspace_id, note_id__in=ids).update(
                before=None, after=None)
            purged += len(group)
    search_marker.prune(alias)  # and search's change history past its window (memories.search.marker)
    return purged


def held_expire(*, alias: str, now=None) -> int:
    """Deletes the held notes past their time in one region database, one change set per note.

    Reads already ignore them (``live_notes``); this only clears them out, so it is safe to run
    at any time. Each note is locked and checked again, so a note kept meanwhile stays.
    """
    now = now or timezone.now()
    expired = 0
    candidates = Note.objects.using(alias).filter(state=Note.State.HELD, held_until__lte=now,
                                                  trashed_at__isnull=True)
    for note_id in list(candidates.values_list("id", flat=True)):
        with transaction.atomic(using=alias):
            note = candidates.select_for_update().filter(id=note_id).first()
            if note is None:
                continue
            _expire_note(RegionWorkspace(note.workspace_id, alias), note)
            expired += 1
    return expired


def _expire_note(workspace, note: Note) -> ChangeSet:
    change_set = change_set_record(
        workspace=workspace, action="expire", actor_user_id=None, changes=[(note, note_snapshot(note), None)],
        reason=f"not kept within {_hours(settings.APPENDA['HELD_TTL'])} hours",
    )
    note.delete()
    return change_set


def _hours(delta) -> int:
    return int(delta.total_seconds() // 3600)
