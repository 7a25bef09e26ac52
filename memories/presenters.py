"""How notes, turns and change sets look in API responses (one shape everywhere)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memories.instance_rules import rule_version
from memories.models import ChangeSet, Note
from memories.reasons import held_because, hold_sentence

if TYPE_CHECKING:  # the write layer's result types, for annotations only
    from memories.agent_undo import AgentUndo
    from memories.services import SaveResult

SHOW_SAVED = "Saved to memory"
SHOW_HELD = "Waiting for you to keep it"
SHOW_UNDONE = "Undone"
SHOW_UNDO_HELD = "Waiting for you: undo it from the note's history in Appenda"


def held_reason_sentence(note: Note) -> str | None:
    """Why a note waits, in the words a person reads (None when it does not wait)."""
    return held_because(state=note.state, held_reason=note.held_reason, held_sources=note.held_sources)


def note_json(note: Note) -> dict:
    return {
        "id": str(note.id),
        "key": note.key,
        "value": note.value,
        "layer": note.layer,
        "state": note.state,
        "pinned": note.pinned,
        "subject": {"kind": note.subject_kind, "id": note.subject_id} if note.subject_kind else None,
        "held_reason": note.held_reason,
        "held_because": held_reason_sentence(note),
        "held_sources": note.held_sources if note.state == Note.State.HELD else [],
        "held_until": note.held_until.isoformat() if note.held_until else None,
        "bot": str(note.bot_id) if note.bot_id else None,
        "owner": note.owner_user_id,
        "origin": note.origin,
        "saved_by": {"user": note.created_by_user_id, "bot": str(note.created_by_bot_id) if note.created_by_bot_id else None},
        "turn": str(note.turn_id) if note.turn_id else None,
        "size": note.size,
        "created_at": note.created_at.isoformat(),
        "updated_at": note.updated_at.isoformat(),
        "version": note.version,  # what a keep names (R-TAINT-6); the ETag of GET …/memories/{id}/
    }


def rule_json(rule) -> dict:
    """An instance rule, shaped like every note (layer ``instance``, pinned; held while it waits
    for an instance admin), so a list of notes has one shape."""
    return {
        "id": str(rule.id),
        "key": rule.key,
        "value": rule.value,
        "layer": "instance",
        "state": rule.state,
        "pinned": True,
        "subject": None,
        "held_reason": rule.held_reason or None,
        "held_because": held_because(state=rule.state, held_reason=rule.held_reason, held_sources=[]),
        "held_sources": [],
        "held_until": None,
        "bot": None,
        "owner": None,
        "origin": "instance",
        "saved_by": {"user": rule.created_by_id, "bot": None},
        "turn": None,
        "size": len(rule.key.encode()) + len(rule.value.encode()),
        "version": rule_version(rule),
        "created_at": rule.created_at.isoformat(),
        "updated_at": rule.updated_at.isoformat(),
    }


def undo_handle(workspace, change_set: ChangeSet | None) -> dict | None:
    if change_set is None:
        return None
    return {"change": str(change_set.id), "url": f"/api/v1/workspaces/{workspace.id}/changes/{change_set.id}/undo/"}


def save_result_json(workspace, result: SaveResult) -> dict:
    if result.rule is not None:
        body = rule_json(result.rule)
        held = result.rule.state == "held"
        return {**body, "note": body, "show": SHOW_HELD if held else SHOW_SAVED, "undo": None,
                "reason": body["held_reason"], "stripped": list(result.stripped)}
    note = result.note
    held = note.state == Note.State.HELD
    return {
        "id": str(note.id),
        "state": note.state,
        "reason": note.held_reason,
        "held_because": held_reason_sentence(note),
        "show": SHOW_HELD if held else SHOW_SAVED,
        "undo": undo_handle(workspace, result.change_set),
        "stripped": list(result.stripped),
        "created": result.created,
        "note": note_json(note),
        # The note's own fields at the top level too, so clients can read a save like a note.
        **{k: v for k, v in note_json(note).items() if k not in ("id", "state")},
    }


def agent_undo_json(workspace, result: AgentUndo) -> dict:
    """The answer to the model's own undo: ids and states, never a note's text."""
    body = {"state": result.state, "change": str(result.target.id), "action": result.target.action}
    if result.state == "held":
        return {**body, "reason": result.reason, "held_because": hold_sentence(result.reason),
                "show": SHOW_UNDO_HELD, "undo": None}
    undo = result.undo
    notes = [{"id": str(c.note_id), "state": c.after["state"] if c.after else "deleted"} for c in undo.changes.all()]
    return {**body, "show": SHOW_UNDONE, "turn": str(undo.turn_id) if undo.turn_id else None,
            "undo": undo_handle(workspace, undo), "notes": notes}


def change_set_json(change_set: ChangeSet, include_content: bool) -> dict:
    body = {
        "id": str(change_set.id),
        "action": change_set.action,
        "actor": {"user": change_set.actor_user_id, "bot": str(change_set.actor_bot_id) if change_set.actor_bot_id else None},
        "turn": str(change_set.turn_id) if change_set.turn_id else None,
        "layer": change_set.layer,
        "blind": change_set.blind,
        "target_user": change_set.target_user_id,
        "note_count": change_set.note_count,
        "reason": change_set.reason,
        "undo_of": str(change_set.undo_of_id) if change_set.undo_of_id else None,
        "undone_at": change_set.undone_at.isoformat() if change_set.undone_at else None,
        "created_at": change_set.created_at.isoformat(),
    }
    if change_set.blind:
        body["notes"] = [{"id": str(c.note_id), "size": c.size} for c in change_set.changes.all()]
    elif include_content:
        body["notes"] = [{"id": str(c.note_id), "before": c.before, "after": c.after} for c in change_set.changes.all()]
    return body
