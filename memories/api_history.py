"""API of history and safety nets: the audit of changes, undo, forget everything and the trash."""

from __future__ import annotations

from django.conf import settings
from rest_framework import status
from rest_framework.response import Response

from appenda.api.base import WorkspaceAPIView
from appenda.api.parsing import body, query_int
from memories import agent_undo, history, trash
from memories.presenters import agent_undo_json, change_set_json, note_json, undo_handle

PAGE_DEFAULT, PAGE_MAX = 50, 200
TURN_HEADER = "HTTP_APPENDA_TURN"  # as for reads of tables: the turn an agent acts in


def _change_json(workspace, change_set) -> dict:
    # ``content_visible`` is annotated by the history selectors; a fresh undo is the caller's own.
    body_ = change_set_json(change_set, include_content=getattr(change_set, "content_visible", True))
    body_["undo"] = None if change_set.blind or change_set.undone_at else undo_handle(workspace, change_set)
    return body_


def _page(request, workspace, change_sets) -> dict:
    limit = query_int(request, "limit", PAGE_DEFAULT, 1, PAGE_MAX)
    offset = query_int(request, "offset", 0, 0, 10**9)
    return {"count": change_sets.count(), "limit": limit, "offset": offset,
            "results": [_change_json(workspace, c) for c in change_sets[offset: offset + limit]]}


def _trashed_json(note) -> dict:
    purge_at = note.trashed_at + settings.APPENDA["TRASH_TTL"]
    return {**note_json(note), "trashed_at": note.trashed_at.isoformat(), "purge_at": purge_at.isoformat()}


class ChangeListView(WorkspaceAPIView):
    def get(self, request, ws):
        params = request.query_params
        filters = history.AuditFilters(**{name: params.get(name) or None for name in
                                          ("layer", "note", "actor", "action", "since", "until")})
        return Response(_page(request, self.workspace, history.change_sets_visible(actor=self.actor, filters=filters)))


class ChangeDetailView(WorkspaceAPIView):
    def get(self, request, ws, change):
        return Response(_change_json(self.workspace, history.change_set_get_visible(actor=self.actor,
                                                                                    change_set_id=change)))


class ChangeUndoView(WorkspaceAPIView):
    """A person's Undo of one change. Named with a turn (body ``turn`` or the ``Appenda-Turn``
    header) it is the agent's undo of that turn, decided as the ``memory_undo`` tool is."""

    def post(self, request, ws, change):
        turn = body(request).get("turn") or request.META.get(TURN_HEADER) or None
        if turn is not None:
            result = agent_undo.memory_undo(actor=self.actor, turn_id=turn, change_set_id=change)
            return Response(agent_undo_json(self.workspace, result),
                            status=status.HTTP_202_ACCEPTED if result.state == "held" else status.HTTP_200_OK)
        undo = history.change_set_undo(actor=self.actor, change_set_id=change)
        return Response(_change_json(self.workspace, undo))


class TurnUndoView(WorkspaceAPIView):
    """Undo everything this turn saved: all of it or nothing."""

    def post(self, request, ws, turn):
        results = agent_undo.turn_undo(actor=self.actor, turn_id=turn)
        return Response({"count": len(results), "results": [agent_undo_json(self.workspace, r) for r in results]})


class NoteHistoryView(WorkspaceAPIView):
    def get(self, request, ws, note):
        return Response(_page(request, self.workspace, history.note_history(actor=self.actor, note_id=note)))


class MemoryForgetView(WorkspaceAPIView):
    def post(self, request, ws):
        data = body(request)
        change_set = trash.memory_forget(actor=self.actor, layer=data.get("layer"), bot_ref=data.get("bot"),
                                         confirm=data.get("confirm", False))
        return Response({"trashed": change_set.note_count if change_set else 0,
                         "change": _change_json(self.workspace, change_set) if change_set else None})


class TrashListView(WorkspaceAPIView):
    def get(self, request, ws):
        notes = trash.trash_list(actor=self.actor)
        return Response({"count": notes.count(), "results": [_trashed_json(n) for n in notes]})


class TrashRestoreView(WorkspaceAPIView):
    def post(self, request, ws, note):
        restored, change_set = trash.trash_restore(actor=self.actor, note_id=note)
        return Response({**note_json(restored), "change": _change_json(self.workspace, change_set)})


class TrashRestoreAllView(WorkspaceAPIView):
    def post(self, request, ws):
        change_sets = trash.trash_restore_all(actor=self.actor)
        return Response({"restored": sum(c.note_count for c in change_sets),
                         "changes": [_change_json(self.workspace, c) for c in change_sets]})
