"""Held notes in bulk, and a held note edited before it is kept (R-TAINT-4, R-TAINT-6).

"Keep all" and "Discard all" act on the held notes the person was shown, each at the version
they saw, in one transaction and one change set, so a single Undo puts all of them back. A note
saved again since the page showed it refuses the whole batch (``note_changed``): nothing is
kept that nobody read. Each note passes the same checks as a keep or a discard of its own.
"""

from __future__ import annotations

from django.db import transaction

from appenda.errors import DomainError, Forbidden
from memories import services
from memories.audit import change_set_record, note_snapshot
from memories.models import ChangeSet, Note
from memories.scopes import can_change_note
from memories.selectors import memory_get_visible
from workspaces.capabilities import Actor

CHANGED_SENTENCE = ("A note waiting for you was saved again since the page showed it: nothing was changed. Read the "
                    "list again, then choose once more.")


def _person_only(actor: Actor) -> None:
    if actor.bot is not None:
        raise Forbidden("Only a person can keep or discard held notes; a bot cannot approve its own saves.",
                        code="person_required")


def _held_as_seen(actor: Actor, versions: dict[str, str]) -> list[Note]:
    """The held notes named in ``versions``, locked, each still at the version the person saw."""
    if not versions:
        raise DomainError("No held note was named; reload the list.", code="nothing_to_change")
    notes = []
    for note_id, version in versions.items():
        held = memory_get_visible(actor=actor, note_id=note_id, for_update=True)
        if not can_change_note(actor, held):
            raise Forbidden("You may see one of these notes but not change it; ask someone who can change its layer.")
        if held.state != Note.State.HELD:
            raise DomainError("One of these notes is not waiting any more; reload the list.", code="not_held",
                              status=409)
        if not version or version != held.version:
            raise DomainError(CHANGED_SENTENCE, code="note_changed", status=409)
        notes.append(held)
    return notes


def held_keep_all(*, actor: Actor, versions: dict[str, str]) -> tuple[list[Note], ChangeSet]:
    """Keeps every held note of ``versions`` ({id: version seen}); one change set."""
    _person_only(actor)
    workspace = actor.workspace
    with transaction.atomic(using=workspace.db_alias):
        kept, changes = [], []
        for held in _held_as_seen(actor, versions):
            note, note_changes = services.held_note_activate(workspace=workspace, held=held)
            kept.append(note)
            changes += note_changes
        change_set = change_set_record(workspace=workspace, action="keep", actor_user_id=actor.user.pk,
                                       changes=changes)
    return kept, change_set


def held_discard_all(*, actor: Actor, versions: dict[str, str]) -> tuple[list[Note], ChangeSet]:
    """Discards every held note of ``versions``; one change set."""
    _person_only(actor)
    workspace = actor.workspace
    with transaction.atomic(using=workspace.db_alias):
        doomed = _held_as_seen(actor, versions)
        change_set = change_set_record(workspace=workspace, action="discard", actor_user_id=actor.user.pk,
                                       changes=[(note, note_snapshot(note), None) for note in doomed])
        Note.objects.for_workspace(workspace).filter(id__in=[note.id for note in doomed]).delete()
    return doomed, change_set


def held_edit_keep(*, actor: Actor, note_id, version, value: str) -> tuple[Note, ChangeSet]:
    """A person corrects a held note and keeps it: the edit and the keep in one transaction. The
    keep's change set is returned (its Undo puts the note back waiting, with the new text)."""
    _person_only(actor)
    with transaction.atomic(using=actor.workspace.db_alias):
        (held,) = _held_as_seen(actor, {str(note_id): version})
        edited, _ = services.memory_update(actor=actor, note_id=held.id, value=value)
        return services.memory_keep(actor=actor, note_id=edited.id, version=edited.version)
