"""History of notes: the audit of change sets and undo (R-MANAGE-3).

Every write to notes is one ``ChangeSet`` with a before/after snapshot per note
(``memories.audit``). This module reads them back — only what the caller may see — and undoes
them: an undo writes each note's ``before`` back and is itself a change set (``undo_of``), so
it shows in the audit and can be undone in turn.

An undo never overwrites silently: it goes ahead only while each note is still exactly as the
change left it (its current snapshot equals the change's ``after``). A blind delete kept no
content (R-RBAC-3), so there is nothing to restore and it cannot be undone.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import BooleanField, Case, Q, QuerySet, Value, When
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from appenda.errors import Conflict, DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from memories.audit import SNAPSHOT_FIELDS, change_set_record, note_snapshot
from memories.models import ChangeSet, Layer, Note, NoteChange
from memories.scopes import (
    bot_scope,
    can_change_note,
    conversation_scope,
    person_visible_filter,
    user_scope,
)
from memories.search.vectors import note_index_refresh
from workspaces.capabilities import Actor

_PERSON_ID = re.compile(r"[0-9]{1,18}")
_DATETIME_FIELDS = frozenset({"held_until", "trashed_at"})
_UUID_FIELDS = frozenset({"bot_id", "created_by_bot_id", "turn_id"})


# --- who may see which change set ---------------------------------------------------------

def _scope_filter(note_filter: Q) -> Q:
    """``person_visible_filter`` (written for notes) restated on a change set's layer and scope.

    Notes and change sets share the layer; a note's owner or bot is part of its scope string
    ("user:7", "bot:<uuid>"). Translating the one filter keeps a single answer to "who sees
    what". A condition this does not know raises instead of being dropped: a new rule in
    ``person_visible_filter`` must never widen the audit silently.
    """
    translated = Q()
    translated.connector, translated.negated = note_filter.connector, note_filter.negated
    for child in note_filter.children:
        if isinstance(child, Q):
            translated.children.append(_scope_filter(child))
            continue
        name, value = child
        if name == "layer" or (name == "pk__in" and not value):  # an empty pk__in is "nothing"
            translated.children.append((name, value))
        elif name == "owner_user_id":
            translated.children.append(("scope", user_scope(value)))
        elif name == "bot_id":
            translated.children.append(("scope", bot_scope(value)))
        elif name == "bot_id__in":
            translated.children.append(("scope__in", [bot_scope(bot) for bot in value]))
        elif name == "conversation_id":
            translated.children.append(("scope", conversation_scope(value)))
        else:
            raise NotImplementedError(f"The audit cannot restate the note condition {name!r} on change sets.")
    return translated


def _content_visible_filter(actor: Actor) -> Q:
    return _scope_filter(person_visible_filter(actor))


def _visible_change_sets(actor: Actor) -> QuerySet:
    """Change sets the caller may see, each annotated with ``content_visible``.

    Admins with ``audit:read_all`` see every change set of the workspace, but the content
    (before/after) only of notes they may see; a blind change set never carries content.
    """
    content_visible = _content_visible_filter(actor)
    change_sets = ChangeSet.objects.for_workspace(actor.workspace)
    if not actor.can("audit:read_all"):
        change_sets = change_sets.filter(content_visible)
    return change_sets.annotate(
        content_visible=Case(When(content_visible, then=Value(True)), default=Value(False),
                             output_field=BooleanField())
    )


@dataclass(frozen=True)
class AuditFilters:
    layer: str | None = None
    note: str | None = None
    actor: str | None = None
    action: str | None = None
    since: str | None = None
    until: str | None = None


def _moment(name: str, raw: str) -> datetime:
    """A moment of a ``since``/``until`` filter, in UTC. Well-formed but impossible moments (an
    offset of +99:00, February 30th, a year past 9999 once in UTC) are refused like malformed ones."""
    try:
        moment = parse_datetime(raw) or datetime.fromisoformat(raw)
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment, UTC)
        return moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise DomainError(f"{name} is a date or a date and time, like 2026-01-31 or 2026-01-31T09:00:00Z.",
                          code="invalid_filter") from None


def change_sets_visible(*, actor: Actor, filters: AuditFilters = AuditFilters()) -> QuerySet:
    """The audit of changes, newest first, limited to what the caller may see."""
    if not (actor.can("memory:read") or actor.can("audit:read_all")):
        raise Forbidden("Your role in this workspace does not allow reading its history of changes.")
    change_sets = _visible_change_sets(actor)
    if filters.layer:
        if filters.layer not in Layer.values:
            raise DomainError(f"Unknown layer {filters.layer!r}; use one of {', '.join(Layer.values)}.",
                              code="invalid_layer")
        change_sets = change_sets.filter(layer=filters.layer)
    if filters.note:
        note_id = parse_uuid(filters.note)
        if note_id is None:
            raise DomainError("note is a note id.", code="invalid_filter")
        change_sets = change_sets.filter(id__in=NoteChange.objects.for_workspace(actor.workspace)
                                         .filter(note_id=note_id).values("change_set_id"))
    if filters.actor:
        if _PERSON_ID.fullmatch(filters.actor):  # ASCII digits that fit 64 bits (isdigit takes "¹¹")
            change_sets = change_sets.filter(actor_user_id=int(filters.actor))
        elif (bot_id := parse_uuid(filters.actor)) is not None:
            change_sets = change_sets.filter(actor_bot_id=bot_id)
        else:
            raise DomainError("actor is a person's id (a number) or a bot's id.", code="invalid_filter")
    if filters.action:
        change_sets = change_sets.filter(action=filters.action)
    if filters.since:
        change_sets = change_sets.filter(created_at__gte=_moment("since", filters.since))
    if filters.until:
        change_sets = change_sets.filter(created_at__lt=_moment("until", filters.until))
    return change_sets.prefetch_related("changes").order_by("-created_at", "-id")


def change_set_get_visible(*, actor: Actor, change_set_id, for_update: bool = False) -> ChangeSet:
    change_set_uuid = parse_uuid(change_set_id)
    change_sets = _visible_change_sets(actor) if actor.can("memory:read") or actor.can("audit:read_all") else None
    change_set = None
    if change_sets is not None and change_set_uuid is not None:
        if for_update:
            change_sets = change_sets.select_for_update()
        change_set = change_sets.filter(id=change_set_uuid).first()
    if change_set is None:
        raise NotFound("No such change in this workspace, or you may not see it.", code="not_found")
    return change_set


def note_history(*, actor: Actor, note_id) -> QuerySet:
    """The change sets of one note, newest first. The note may since have been deleted."""
    if parse_uuid(note_id) is None:
        raise NotFound("No such note, or you may not see it.", code="not_found")
    change_sets = change_sets_visible(actor=actor, filters=AuditFilters(note=str(note_id)))
    if not change_sets.exists():
        raise NotFound("No such note, or you may not see it.", code="not_found")
    return change_sets


# --- undo ---------------------------------------------------------------------------------

def _note_from_snapshot(workspace, note_id, snapshot: dict, into: Note | None = None) -> Note:
    note = into or Note(id=note_id, workspace_id=workspace.id)
    for name in SNAPSHOT_FIELDS:
        value = snapshot.get(name)
        if value is not None and name in _DATETIME_FIELDS:
            value = parse_datetime(value)
        elif value is not None and name in _UUID_FIELDS:
            value = uuid.UUID(value)
        setattr(note, name, value)
    return note


def held_note_refresh(note: Note) -> None:
    """A held note brought back (by undo or from the trash) gets a fresh time to be kept:
    brought back already expired, it would vanish again at once."""
    if note.state == Note.State.HELD and note.trashed_at is None and (
        note.held_until is None or note.held_until <= timezone.now()
    ):
        note.held_until = timezone.now() + settings.APPENDA["HELD_TTL"]


def _key_taken(workspace, note: Note) -> bool:
    return Note.objects.for_workspace(workspace).filter(
        scope=note.scope, key=note.key, state=note.state, trashed_at__isnull=True
    ).exclude(id=note.id).exists()


def _conflict(detail: str) -> Conflict:
    return Conflict(detail, code="undo_conflict")


def undoable_note_changes(workspace, change_set: ChangeSet) -> list[NoteChange]:
    """The note changes an undo of ``change_set`` writes back; 409 when it cannot be undone."""
    if change_set.blind:
        raise Conflict(
            "This was a delete without reading: its content was never kept, so it cannot be undone.",
            code="cannot_undo",
        )
    if change_set.undone_at is not None:
        raise Conflict("This change was already undone; undo the undo instead if you want it back.",
                       code="cannot_undo")
    note_changes = list(NoteChange.objects.for_workspace(workspace).filter(change_set=change_set).order_by("id"))
    if not note_changes:
        raise Conflict("This change touched no notes, so there is nothing to undo.", code="cannot_undo")
    return note_changes


def undo_change_set(actor: Actor, change_set: ChangeSet, *, turn_id=None) -> ChangeSet:
    """Writes back the before-state of every note of ``change_set``; the caller holds the
    transaction and has checked that this caller may undo it now."""
    workspace = actor.workspace
    alias = workspace.db_alias
    note_changes = undoable_note_changes(workspace, change_set)
    for note_change in note_changes:
        for snapshot in (note_change.before, note_change.after):
            if snapshot is not None and not can_change_note(
                actor, _note_from_snapshot(workspace, note_change.note_id, snapshot)
            ):
                raise Forbidden("You may see this change but not change that layer; ask someone who can.")
    current = {
        note.id: note
        for note in Note.objects.for_workspace(workspace).select_for_update().filter(
            id__in=[c.note_id for c in note_changes]
        )
    }
    for note_change in note_changes:
        note = current.get(note_change.note_id)
        now_snapshot = note_snapshot(note) if note is not None else None
        if now_snapshot != note_change.after:
            raise _conflict(
                "A later change touched this note, so undoing this one would overwrite it. "
                "Undo the later change first (see the note's history), or edit the note by hand."
            )
    changes = []
    # Deletions first, so a note coming back never collides with one leaving the same key.
    for note_change in sorted(note_changes, key=lambda c: c.before is not None):
        note = current.get(note_change.note_id)
        before_undo = note_snapshot(note) if note is not None else None
        if note_change.before is None:
            changes.append((note, before_undo, None))
            # A queryset delete leaves ``note.id`` in place for the change set recorded below.
            Note.objects.for_workspace(workspace).filter(id=note.id).delete()
            continue
        restored = _note_from_snapshot(workspace, note_change.note_id, note_change.before, into=note)
        held_note_refresh(restored)
        key_taken = _conflict(
            f"A note with the key {restored.key!r} now exists in the same place, so this one cannot come "
            "back beside it. Delete that note first (you can undo that too), then undo this change."
        )
        if restored.trashed_at is None and _key_taken(workspace, restored):
            raise key_taken
        note_index_refresh(restored)
        try:
            with transaction.atomic(using=alias):
                restored.save(using=alias)
        except IntegrityError:  # a save of that key committed between the check and this write
            raise key_taken from None
        changes.append((restored, before_undo, note_snapshot(restored)))
    undo = change_set_record(
        workspace=workspace, action="undo", actor_user_id=actor.person_id,
        actor_bot_id=actor.bot.id if actor.bot else None, turn_id=turn_id, changes=changes,
        reason=f"undo of {change_set.action}", undo_of=change_set,
    )
    ChangeSet.objects.for_workspace(workspace).filter(pk=change_set.pk).update(undone_at=timezone.now())
    if change_set.undo_of_id is not None:
        # Undoing an undo brings the original change back, so the original can be undone again.
        ChangeSet.objects.for_workspace(workspace).filter(pk=change_set.undo_of_id).update(undone_at=None)
    return undo


def change_set_undo(*, actor: Actor, change_set_id) -> ChangeSet:
    """A person's own Undo of one change set (the save response's ``undo`` handle, the web
    page's Undo). The model's own undo is the ``memory_undo`` tool (``memories.agent_undo``)."""
    with transaction.atomic(using=actor.workspace.db_alias):
        change_set = change_set_get_visible(actor=actor, change_set_id=change_set_id, for_update=True)
        return undo_change_set(actor, change_set)
