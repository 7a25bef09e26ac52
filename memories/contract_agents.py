"""The API's declared shapes for copying bots, their notes once deleted, and a confirm from a chat
(R-API-1, R-AGENT-1, R-AGENT-2, R-MSG-1): what ``memories.api_agents`` reads and answers.

A bot's own shapes (``Bot``) are ``workspaces.contract``'s; the bot file is this module's, since
``memories.bots`` defines its format. The service keeps the domain rules (a name that is blank
once stripped, a save rule only ever stricter than its owner's, a note this chat may confirm).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers
from rest_framework.fields import empty

from appenda.api.contract import Choice, Contract, Text
from appenda.api.schema import page_of
from memories.bots import BOT_EXPORT_FORMAT
from memories.contract import NoteChangedOut, NoteOut
from workspaces.contract import (
    BOT_FIELD_CODES,
    BOT_MEMORY_HELP,
    BOT_SAVE_HELP,
    SaveRule,
    max_length,
)
from workspaces.models import Bot
from workspaces.services import BOT_SAVE_RULES

# Plain values (a file's), where a bot's own enum has the model's labels: two components, two enums.
BOT_FILE_MEMORY_CHOICES = Bot.MemoryChoice.values

# --- input ------------------------------------------------------------------------------------


class BotFileName(Text):
    """A bot file's name: one left out or empty is a file without a name (``invalid_name``)."""

    default_error_messages = {"no_name": "is required in a bot file: give the bot a name."}

    def validate_empty_values(self, data):
        if data is empty or data == "":
            self.fail("no_name")
        return super().validate_empty_values(data)


@extend_schema_serializer(component_name="BotFile")
class BotFileIn(Contract):
    """A bot's export file (``GET …/bots/{bot}/export/``), as it was written: a new bot with the
    same choices and no notes. A file without ``memory`` makes a bot "as before"."""

    error_codes = {**BOT_FIELD_CODES, "format": "invalid_bot_file", "name": {"no_name": "invalid_name"}}
    error_sentences = {"format": f"This is not an Appenda bot file ({BOT_EXPORT_FORMAT})."}

    format = Choice([BOT_EXPORT_FORMAT], required=False, default=BOT_EXPORT_FORMAT)
    name = BotFileName(max_length=max_length(Bot, "name"))
    memory = Choice(BOT_FILE_MEMORY_CHOICES, required=False, allow_null=True, help_text=BOT_MEMORY_HELP)
    memory_save = SaveRule(required=False, allow_null=True, help_text=BOT_SAVE_HELP)


class TurnConfirmIn(Contract):
    """The held note a paired sender confirms in a messaging turn."""

    note = Text(max_length=64, help_text="The held note the sender confirms (its id).")


# --- output -----------------------------------------------------------------------------------


@extend_schema_serializer(component_name="BotFile")
class BotFileOut(serializers.Serializer):
    """No notes and no token: only what makes a copy behave the same."""

    format = serializers.ChoiceField([BOT_EXPORT_FORMAT])
    name = serializers.CharField()
    memory = serializers.ChoiceField(BOT_FILE_MEMORY_CHOICES, allow_null=True)
    memory_save = serializers.ChoiceField(BOT_SAVE_RULES)


class DeletedBotOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    deleted_at = serializers.DateTimeField()


class DeletedBotNotesOut(serializers.Serializer):
    bot = DeletedBotOut()
    count = serializers.IntegerField()
    notes = NoteOut(many=True)


DELETED_BOT_PAGE = page_of(DeletedBotNotesOut, "DeletedBotPage")


class ConfirmOut(NoteChangedOut):
    show = serializers.CharField(help_text="Show this in the chat: the note is saved.")
