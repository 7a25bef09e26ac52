"""API of agents and messaging (R-AGENT-1, R-AGENT-2, R-MSG-1).

- ``GET …/bots/{bot}/export/``: the bot's definition (name, memory, memory_save) — no notes, no token;
- ``POST …/bots/import/``: a new bot from such a file, with the same choices and no notes;
- ``GET …/memories/deleted-bots/``: the caller's deleted bots whose notes were kept, with the notes
  (those notes are also in ``GET …/memories/?layer=bot``, and are deleted like any note);
- ``POST …/turns/{turn}/confirm/ {"note"}``: a paired sender confirms a held note from the chat.
"""

from __future__ import annotations

from rest_framework import status
from rest_framework.response import Response

from appenda.api.base import WorkspaceAPIView
from appenda.api.parsing import body, required
from memories import messaging
from memories.bots import bot_definition, bot_import, deleted_bots_notes
from memories.presenters import note_json, undo_handle
from workspaces.api import bot_json
from workspaces.services import bot_visible


class BotExportView(WorkspaceAPIView):
    def get(self, request, ws, bot):
        response = Response(bot_definition(bot_visible(actor=self.actor, bot_id=bot)))
        response["Content-Disposition"] = f'attachment; filename="bot-{bot}.json"'
        return response


class BotImportView(WorkspaceAPIView):
    def post(self, request, ws):
        bot, key = bot_import(actor=self.actor, definition=body(request))
        return Response({**bot_json(bot), "token": key}, status=status.HTTP_201_CREATED)


class DeletedBotMemoriesView(WorkspaceAPIView):
    def get(self, request, ws):
        return Response([
            {"bot": {"id": str(bot.id), "name": bot.name, "deleted_at": bot.deleted_at.isoformat()},
             "count": len(notes), "notes": [note_json(n) for n in notes]}
            for bot, notes in deleted_bots_notes(actor=self.actor)
        ])


class TurnConfirmView(WorkspaceAPIView):
    def post(self, request, ws, turn):
        note, change_set = messaging.messaging_confirm(actor=self.actor, turn_id=turn,
                                                       note_id=required(body(request), "note"))
        return Response({**note_json(note), "show": "Saved to memory",
                         "undo": undo_handle(self.workspace, change_set)})
