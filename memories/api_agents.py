"""API of agents and messaging (R-AGENT-1, R-AGENT-2, R-MSG-1).

- ``GET …/bots/{bot}/export/``: the bot's definition (name, memory, memory_save) — no notes, no token;
- ``POST …/bots/import/``: a new bot from such a file, with the same choices and no notes;
- ``GET …/memories/deleted-bots/``: the caller's deleted bots whose notes were kept, with the notes
  (those notes are also in ``GET …/memories/?layer=bot``, and are deleted like any note);
- ``POST …/turns/{turn}/confirm/ {"note"}``: a paired sender confirms a held note from the chat.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from appenda.api.base import WorkspaceAPIView
from appenda.api.contract import parse
from appenda.api.pagination import PageQuery, paginated
from appenda.api.schema import errors
from memories import contract_agents as c
from memories import messaging
from memories.bots import bot_definition, bot_import, deleted_bots_notes
from memories.presenters import note_json, undo_handle
from workspaces.api import bot_json
from workspaces.contract import BotOut


class BotExportView(WorkspaceAPIView):
    """A bot's export file: its definition, without notes or token (R-AGENT-1)."""

    @extend_schema(responses={200: c.BotFileOut, **errors(403, 404)})
    def get(self, request, ws, bot):
        found = self.objects["bot"]
        response = Response(bot_definition(found))
        response["Content-Disposition"] = f'attachment; filename="bot-{found.id}.json"'
        return response


class BotImportView(WorkspaceAPIView):
    """A new bot from an export file: the same choices, no notes (R-AGENT-1)."""

    @extend_schema(request=c.BotFileIn, responses={201: BotOut, **errors(400, 403, 404)})
    def post(self, request, ws):
        bot, key = bot_import(actor=self.actor, definition=parse(c.BotFileIn, request.data))
        return Response({**bot_json(bot), "token": key}, status=status.HTTP_201_CREATED)


def _deleted_bot_json(group) -> dict:
    bot, notes = group
    return {"bot": {"id": str(bot.id), "name": bot.name, "deleted_at": bot.deleted_at.isoformat()},
            "count": len(notes), "notes": [note_json(n) for n in notes]}


class DeletedBotMemoriesView(WorkspaceAPIView):
    """The caller's deleted bots whose notes were kept, with those notes (R-AGENT-2)."""

    @extend_schema(parameters=[PageQuery], responses={200: c.DELETED_BOT_PAGE, **errors(400, 403, 404)})
    def get(self, request, ws):
        parse(PageQuery, request.query_params)
        return paginated(request, self, deleted_bots_notes(actor=self.actor), _deleted_bot_json)


class TurnConfirmView(WorkspaceAPIView):
    """A paired sender confirms a held note from the chat (R-MSG-1)."""

    @extend_schema(request=c.TurnConfirmIn, responses={200: c.ConfirmOut, **errors(400, 403, 404, 409)})
    def post(self, request, ws, turn):
        data = parse(c.TurnConfirmIn, request.data)
        note, change_set = messaging.messaging_confirm(actor=self.actor, turn_id=turn, note_id=data["note"])
        return Response({**note_json(note), "show": "Saved to memory",
                         "undo": undo_handle(self.workspace, change_set)})
