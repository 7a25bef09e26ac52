"""The API's declared shapes for history, the trash, exports and imports (R-API-1, R-MANAGE-3, R-MANAGE-4).

Input contracts check the shape of a request; the services keep the domain rules (which ids
exist, who may undo what, the one confirmation of forget). Output serializers state what the
views of ``memories.api_history`` and ``memories.api_exports`` answer, for the document.
"""

from __future__ import annotations

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from appenda.api.contract import Bool, Choice, Contract, Text
from appenda.api.pagination import PageQuery
from appenda.api.schema import page_of
from memories import limits
from memories.contract import AgentUndoOut, NoteOut, UndoHandleOut
from memories.export import EXPORT_STATES

# --- input ------------------------------------------------------------------------------------

_UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_NOTE_ID = RegexValidator(f"^{_UUID}$")
_ACTOR_ID = RegexValidator(f"^(?:[0-9]{{1,18}}|{_UUID})$")  # a person's id, or a bot's


@extend_schema_field({"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}]})
class Moment(Text):
    """A date or a date and time (ISO 8601); ``memories.history`` reads it, in UTC when no offset is given."""


class ChangeListQuery(PageQuery):
    """The audit's filters."""

    error_codes = {**PageQuery.error_codes, "layer": "invalid_layer", "note": "invalid_filter",
                   "actor": "invalid_filter", "action": "invalid_filter", "since": "invalid_filter",
                   "until": "invalid_filter"}
    error_sentences = {"note": "note is a note id.", "actor": "actor is a person's id (a number) or a bot's id."}

    layer = Choice(limits.LAYERS, required=False)
    note = Text(required=False, max_length=64, validators=[_NOTE_ID], help_text="A note's id: the changes of "
                                                                                 "that note.")
    actor = Text(required=False, max_length=64, validators=[_ACTOR_ID],
                 help_text="A person's id (a number) or a bot's id.")
    action = Text(required=False, max_length=24, help_text="save, edit, pin, keep, delete, undo, forget, restore…")
    since = Moment(required=False, max_length=64, help_text="A date or a date and time (ISO 8601); from then on.")
    until = Moment(required=False, max_length=64, help_text="A date or a date and time (ISO 8601); before then.")


class ChangeUndoIn(Contract):
    turn = Text(required=False, allow_null=True, allow_blank=True, max_length=64,
                help_text="The agent's turn (or send the Appenda-Turn header): then this is the agent's undo, "
                          "decided as the memory_undo tool is. Without a turn it is a person's undo.")


class ForgetIn(Contract):
    error_codes = {"layer": "invalid_layer", "confirm": "confirmation_required"}
    error_sentences = {"confirm": 'Forgetting moves all these notes to the trash. Send "confirm": true (a JSON '
                                  "boolean) to go ahead; you can restore them from the trash until it is purged."}

    layer = Choice(limits.LAYERS, required=False, allow_null=True,
                   help_text="mine (the default), or bot with one of your bots in bot.")
    bot = Text(required=False, allow_null=True, max_length=64, help_text="With layer bot: one of your bots (its id).")
    confirm = Bool(required=False, allow_null=True, default=False, help_text="true, or nothing is forgotten.")


class ImportUploadIn(Contract):
    """A multipart import: the export zip in the field ``file``."""

    error_codes = {"file": "invalid_import"}

    file = serializers.FileField(help_text="The zip that Export gave you.")


# --- output -----------------------------------------------------------------------------------


class ChangeActorOut(serializers.Serializer):
    user = serializers.IntegerField(allow_null=True)
    bot = serializers.CharField(allow_null=True)


class NoteChangeOut(serializers.Serializer):
    """One note of a change: its content before and after, or (a blind delete) only its size."""

    id = serializers.CharField()
    before = serializers.DictField(allow_null=True, required=False)
    after = serializers.DictField(allow_null=True, required=False)
    size = serializers.IntegerField(required=False, help_text="Only for a blind delete, which kept no content.")


class ChangeOut(serializers.Serializer):
    """One change set of the audit: who, what, when, why (R-MANAGE-3)."""

    id = serializers.CharField()
    action = serializers.CharField()
    actor = ChangeActorOut()
    turn = serializers.CharField(allow_null=True)
    layer = serializers.CharField(allow_null=True)
    blind = serializers.BooleanField()
    target_user = serializers.IntegerField(allow_null=True)
    note_count = serializers.IntegerField()
    reason = serializers.CharField(allow_blank=True)
    undo_of = serializers.CharField(allow_null=True)
    undone_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    notes = NoteChangeOut(many=True, required=False,
                          help_text="Left out when the caller may see that the change happened but not the notes.")
    undo = UndoHandleOut(allow_null=True)


CHANGE_PAGE = page_of(ChangeOut, "ChangePage")


class TurnUndoOut(serializers.Serializer):
    count = serializers.IntegerField()
    results = AgentUndoOut(many=True)


class ForgetOut(serializers.Serializer):
    trashed = serializers.IntegerField()
    change = ChangeOut(allow_null=True)


class TrashedNoteOut(NoteOut):
    trashed_at = serializers.DateTimeField()
    purge_at = serializers.DateTimeField(help_text="When the trash deletes it for good.")


TRASH_PAGE = page_of(TrashedNoteOut, "TrashPage")


class RestoredNoteOut(NoteOut):
    change = ChangeOut()


class RestoreAllOut(serializers.Serializer):
    restored = serializers.IntegerField()
    changes = ChangeOut(many=True)


class ExportOut(serializers.Serializer):
    """An export: a zip of the notes its creator may see, in the workspace's region bucket."""

    id = serializers.CharField()
    state = serializers.ChoiceField(EXPORT_STATES, help_text="building, then ready (a url to download) or failed.")
    url = serializers.CharField(required=False, help_text="A short-lived download link; GET the export for a "
                                                          "fresh one.")
    url_expires_at = serializers.DateTimeField(required=False)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="After this the export is deleted (410).")
    counts = serializers.DictField(child=serializers.IntegerField(), help_text="Notes per layer.")
    size = serializers.IntegerField(help_text="Bytes of the zip.")
    sha256 = serializers.CharField()


EXPORT_PAGE = page_of(ExportOut, "ExportPage")


class ImportOut(serializers.Serializer):
    imported = serializers.IntegerField()
    held = serializers.IntegerField(help_text="Notes exported while waiting to be kept: they wait again.")
    skipped = serializers.DictField(child=serializers.IntegerField(), help_text="Notes left out, per layer.")
    change = serializers.CharField(allow_null=True, help_text="The import's change (undo it as one).")
