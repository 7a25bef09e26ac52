"""Change sets: every write to notes records who, what, when and why in the same transaction
(R-MANAGE-3). A blind delete records ids and sizes only, never content (R-RBAC-3)."""

from __future__ import annotations

import uuid

from memories.models import ChangeSet, Note, NoteChange

SNAPSHOT_FIELDS = (
    "key", "value", "layer", "scope", "owner_user_id", "bot_id", "conversation_id", "subject_kind", "subject_id",
    "state", "held_reason", "held_sources", "held_until", "pinned", "origin", "created_by_user_id",
    "created_by_bot_id", "turn_id", "trashed_at",
)


def _plain(value):
    if isinstance(value, uuid.UUID):
        return str(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def note_snapshot(note: Note) -> dict:
    return {name: _plain(getattr(note, name)) for name in SNAPSHOT_FIELDS}


def change_set_record(
    *,
    workspace,
    action: str,
    actor_user_id: int | None,
    actor_bot_id=None,
    turn_id=None,
    changes: list[tuple[Note, dict | None, dict | None]],
    blind: bool = False,
    target_user_id: int | None = None,
    reason: str = "",
    undo_of: ChangeSet | None = None,
    layer: str | None = None,
    scope: str | None = None,
) -> ChangeSet:
    """Records one change set; call it inside the transaction that made the change. ``layer``
    and ``scope`` place a change set that touched no note (an agent's held undo request)."""
    alias = workspace.db_alias
    first = changes[0][0] if changes else None
    change_set = ChangeSet(
        workspace_id=workspace.id,
        action=action,
        actor_user_id=actor_user_id,
        actor_bot_id=actor_bot_id,
        turn_id=turn_id,
        layer=first.layer if first else layer,
        scope=first.scope if first else scope,
        blind=blind,
        target_user_id=target_user_id,
        note_count=len(changes),
        reason=reason[:200],
        undo_of=undo_of,
    )
    change_set.save(using=alias)
    NoteChange.objects.using(alias).bulk_create(
        NoteChange(
            workspace_id=workspace.id,
            change_set=change_set,
            note_id=note.id,
            before=None if blind else before,
            after=None if blind else after,
            size=note.size,
        )
        for note, before, after in changes
    )
    return change_set
