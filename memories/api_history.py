"""API of history and safety nets: the audit of changes, undo, forget everything and the trash."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.response import Response

from appenda.api.base import WorkspaceAPIView
from appenda.api.contract import parse
from appenda.api.pagination import PageQuery, paginated
from appenda.api.schema import errors
from memories import agent_undo, history, trash
from memories import contract as notes_contract
from memories import contract_history as c
from memories.presenters import agent_undo_json, change_set_json, note_json, undo_handle

TURN_HEADER = "HTTP_APPENDA_TURN"  # as for reads of tables: the turn an agent acts in
UNDO_TURN_HEADER_PARAMETER = OpenApiParameter(
    "Appenda-Turn", str, OpenApiParameter.HEADER, required=False,
    description="The agent's turn, instead of turn in the body: then this is the agent's undo.",
)


def _change_json(workspace, change_set) -> dict:
    # ``content_visible`` is annotated by the history selectors; a fresh undo is the caller's own.
    body = change_set_json(change_set, include_content=getattr(change_set, "content_visible", True))
    body["undo"] = None if change_set.blind or change_set.undone_at else undo_handle(workspace, change_set)
    return body


def _trashed_json(note) -> dict:
    purge_at = note.trashed_at + settings.APPENDA["TRASH_TTL"]
    return {**note_json(note), "trashed_at": note.trashed_at.isoformat(), "purge_at": purge_at.isoformat()}


def _agent_undo_status(result) -> int:
    return status.HTTP_202_ACCEPTED if result.state == "held" else status.HTTP_200_OK


class ChangeListView(WorkspaceAPIView):
    """The audit of changes the caller may see, newest first: who, what, when, why (R-MANAGE-3)."""

    @extend_schema(parameters=[c.ChangeListQuery], responses={200: c.CHANGE_PAGE, **errors(400, 403, 404)})
    def get(self, request, ws):
        query = parse(c.ChangeListQuery, request.query_params)
        filters = history.AuditFilters(**{name: query.get(name) for name in
                                          ("layer", "note", "actor", "action", "since", "until")})
        change_sets = history.change_sets_visible(actor=self.actor, filters=filters)
        return paginated(request, self, change_sets, lambda change_set: _change_json(self.workspace, change_set))


class ChangeDetailView(WorkspaceAPIView):
    """One change of the audit (its notes' content only where the caller may see them)."""

    @extend_schema(responses={200: c.ChangeOut, **errors(403, 404)})
    def get(self, request, ws, change):
        return Response(_change_json(self.workspace, self.objects["change"]))


class ChangeUndoView(WorkspaceAPIView):
    """A person's Undo of one change, answered with the undo's change. Named with a turn (body
    ``turn`` or the ``Appenda-Turn`` header) it is the agent's undo of that turn, decided and
    answered as the ``memory_undo`` tool is (202 when it waits for a person)."""

    @extend_schema(
        request=c.ChangeUndoIn, parameters=[UNDO_TURN_HEADER_PARAMETER],
        responses={200: PolymorphicProxySerializer("ChangeUndoResult", [c.ChangeOut, notes_contract.AgentUndoOut],
                                                   None),
                   202: notes_contract.AgentUndoOut, **errors(400, 403, 404, 409)},
    )
    def post(self, request, ws, change):
        data = parse(c.ChangeUndoIn, request.data)
        turn = data.get("turn") or request.META.get(TURN_HEADER) or None
        if turn is not None:
            result = agent_undo.memory_undo(actor=self.actor, turn_id=turn, change_set_id=change)
            return Response(agent_undo_json(self.workspace, result), status=_agent_undo_status(result))
        undo = history.change_set_undo(actor=self.actor, change_set_id=change)
        return Response(_change_json(self.workspace, undo))


class TurnUndoView(WorkspaceAPIView):
    """Undo everything this turn saved: all of it or nothing."""

    @extend_schema(request=None, responses={200: c.TurnUndoOut, **errors(403, 404, 409)})
    def post(self, request, ws, turn):
        results = agent_undo.turn_undo(actor=self.actor, turn_id=turn)
        return Response({"count": len(results), "results": [agent_undo_json(self.workspace, r) for r in results]})


class NoteHistoryView(WorkspaceAPIView):
    """The changes of one note, newest first (the note may since have been deleted)."""

    @extend_schema(parameters=[PageQuery], responses={200: c.CHANGE_PAGE, **errors(400, 403, 404)})
    def get(self, request, ws, note):
        parse(PageQuery, request.query_params)
        return paginated(request, self, self.objects["note"],
                         lambda change_set: _change_json(self.workspace, change_set))


class MemoryForgetView(WorkspaceAPIView):
    """Forget everything: the caller's own notes (mine, or one of their bots') go to the trash."""

    @extend_schema(request=c.ForgetIn, responses={200: c.ForgetOut, **errors(400, 403, 404)})
    def post(self, request, ws):
        data = parse(c.ForgetIn, request.data)
        change_set = trash.memory_forget(actor=self.actor, layer=data.get("layer"), bot_ref=data.get("bot"),
                                         confirm=data.get("confirm") is True)
        return Response({"trashed": change_set.note_count if change_set else 0,
                         "change": _change_json(self.workspace, change_set) if change_set else None})


class TrashListView(WorkspaceAPIView):
    """The caller's trashed notes, most recently trashed first, with when each is purged."""

    @extend_schema(parameters=[PageQuery], responses={200: c.TRASH_PAGE, **errors(400, 403, 404)})
    def get(self, request, ws):
        parse(PageQuery, request.query_params)
        return paginated(request, self, trash.trash_list(actor=self.actor), _trashed_json)


class TrashRestoreView(WorkspaceAPIView):
    """Brings one of the caller's trashed notes back (409 restore_conflict when its key is taken again)."""

    @extend_schema(request=None, responses={200: c.RestoredNoteOut, **errors(403, 404, 409)})
    def post(self, request, ws, note):
        restored, change_set = trash.trash_restore(actor=self.actor, note_id=note)
        return Response({**note_json(restored), "change": _change_json(self.workspace, change_set)})


class TrashRestoreAllView(WorkspaceAPIView):
    """Brings every note of the caller's trash back, all or nothing (one change per scope)."""

    @extend_schema(request=None, responses={200: c.RestoreAllOut, **errors(403, 404, 409)})
    def post(self, request, ws):
        change_sets = trash.trash_restore_all(actor=self.actor)
        return Response({"restored": sum(change_set.note_count for change_set in change_sets),
                         "changes": [_change_json(self.workspace, change_set) for change_set in change_sets]})
