"""Reads of notes, always scoped to what the caller may see (R-RBAC-1, R-RBAC-2).

Every function takes the Actor and filters by its workspace and visible layers; there is no
way to fetch a note by id alone.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils import timezone

from appenda.errors import NotFound
from appenda.ids import parse_uuid
from memories.models import Layer, Note
from memories.scopes import owned_scopes, person_visible_filter
from workspaces.capabilities import Actor


def live_notes(workspace) -> QuerySet:
    """Notes not in the trash, and no held note past its expiry (checked at read time)."""
    now = timezone.now()
    return Note.objects.for_workspace(workspace).filter(trashed_at__isnull=True).exclude(
        state=Note.State.HELD, held_until__lte=now
    )


def memory_list_visible(
    *, actor: Actor, layer: str | None = None, state: str | None = None, subject: tuple[str, str] | None = None,
    pinned: bool | None = None, bot_id=None,
) -> QuerySet:
    notes = live_notes(actor.workspace).filter(person_visible_filter(actor))
    if layer:
        notes = notes.filter(layer=layer)
    if state:
        notes = notes.filter(state=state)
    if subject:
        notes = notes.filter(subject_kind=subject[0], subject_id=subject[1])
    if pinned is not None:
        notes = notes.filter(pinned=pinned)
    if bot_id:
        notes = notes.filter(bot_id=bot_id)
    return notes.order_by("-pinned", "layer", "key")


def memory_get_visible(*, actor: Actor, note_id, for_update: bool = False) -> Note:
    note_uuid = parse_uuid(note_id)
    query = live_notes(actor.workspace).filter(person_visible_filter(actor))
    if for_update:
        query = query.select_for_update()
    note = query.filter(id=note_uuid).first() if note_uuid else None
    if note is None:
        raise NotFound("No such note, or you may not see it.", code="not_found")
    return note


def trashed_note_visible(*, actor: Actor, note_id) -> Note:
    """A note in the trash as the caller sees it: a person, in their own trash; a bot, by the
    layers it could see (it may learn the note exists, then is told the trash is for people)."""
    note_uuid = parse_uuid(note_id)
    notes = Note.objects.for_workspace(actor.workspace).filter(trashed_at__isnull=False)
    if actor.bot is not None:
        notes = notes.filter(person_visible_filter(actor))
    else:
        notes = notes.filter(scope__in=owned_scopes(actor))
    note = notes.filter(id=note_uuid).first() if note_uuid else None
    if note is None:
        raise NotFound("No such note in your trash.", code="not_found")
    return note


def member_notes_blind(*, actor: Actor, user_id: int) -> QuerySet:
    """A member's ``mine`` notes for blind listing and deletion, those in their trash included (a
    blind delete that left them there would be undone by the member's restore); callers never
    read key or value."""
    return Note.objects.for_workspace(actor.workspace).filter(Q(layer=Layer.MINE, owner_user_id=user_id))
