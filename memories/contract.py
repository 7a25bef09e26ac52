"""The API's declared shapes for notes, turns and their tools (R-API-1).

Input contracts check the shape of a request (types, lengths, enums, unknown fields) with the
limits of ``memories.limits``; the services keep the domain rules (a key's form after
invisible characters are stripped, the 1 KB of key and value together, who may write which
layer). Output serializers state what ``memories.presenters`` returns, for the document; the
API fuzz test (tests/test_api_fuzz.py) checks every answer against them.
"""

from __future__ import annotations

from rest_framework import serializers

from appenda.api.contract import Bool, Choice, Contract, Identifier, Integer, Text
from appenda.api.pagination import PageQuery
from memories import limits

# --- input ------------------------------------------------------------------------------------


class SubjectIn(Contract):
    kind = Choice(limits.SUBJECT_KINDS)
    id = Text(max_length=limits.SUBJECT_ID_MAX, help_text="A table's id, or an integration's, workflow's or "
              "skill's slug or id.")


class NoteSaveIn(Contract):
    """A note to save: the ``memory_save`` tool's arguments (``layer`` left out: the host picks)."""

    error_codes = {"layer": "invalid_layer", "subject": "invalid_subject", "pin": "invalid_pin",
                   "pinned": "invalid_pin", "value": {"max_length": "too_large", "*": "invalid_note"},
                   "key": {"not_text": "invalid_note", "*": "invalid_key"}}
    error_sentences = {"subject": f"{limits.SUBJECT_ID_SENTENCE}; a table is named by its id.",
                       "value": "Key and value together hold at most 1 KB of text; save a shorter fact."}

    key = Text(max_length=limits.KEY_MAX_CHARS, help_text="A short slug naming the fact, like pref.tone.")
    value = Text(max_length=limits.VALUE_MAX_CHARS, help_text="The fact; key and value together at most 1 KB.")
    layer = Choice(limits.LAYERS, required=False, allow_null=True)
    subject = SubjectIn(required=False, allow_null=True)
    pin = Bool(required=False, help_text="Pin it so every chat starts with it.")
    pinned = Bool(required=False, help_text="The same as pin.")

    @staticmethod
    def service_fields(data: dict) -> dict:
        return {"key": data["key"], "value": data["value"], "layer": data.get("layer") or None,
                "subject": data.get("subject"), "pinned": data.get("pin", data.get("pinned", False))}


class PersonNoteSaveIn(NoteSaveIn):
    bot = Text(required=False, allow_null=True, max_length=64, help_text="With layer bot: one of your bots.")


class SenderIn(Contract):
    id = Identifier(required=False, allow_null=True, max_length=limits.CONVERSATION_ID_MAX)
    paired = Bool(required=False)
    can_confirm = Bool(required=False)


class ChannelIn(Contract):
    """What a messaging platform said about the message (R-MSG-1)."""

    platform = Text(required=False, allow_null=True, max_length=limits.PLATFORM_MAX)
    conversation = Identifier(required=False, allow_null=True, max_length=limits.CONVERSATION_ID_MAX)
    conversation_id = Identifier(required=False, allow_null=True, max_length=limits.CONVERSATION_ID_MAX)
    chat_kind = Text(required=False, allow_null=True, max_length=40,
                     help_text="direct, group, channel or thread; anything else counts as a group.")
    sender = SenderIn(required=False, allow_null=True)
    sender_id = Identifier(required=False, allow_null=True, max_length=limits.CONVERSATION_ID_MAX)
    sender_paired = Bool(required=False)
    sender_can_confirm = Bool(required=False)


class TurnStartIn(Contract):
    error_codes = {"kind": "invalid_kind", "private": "invalid_private",
                   "channel": {"not_a_dict": "invalid_channel", "invalid": "invalid_channel"}}

    kind = Choice(limits.TURN_KINDS, required=False, default="chat")
    chat_id = Identifier(required=False, allow_null=True, max_length=limits.CHAT_ID_MAX)
    bot = Text(required=False, allow_null=True, max_length=64, help_text="One of your bots (its id).")
    table = Text(required=False, allow_null=True, max_length=64, help_text="The table the person is looking at.")
    private = Bool(required=False, allow_null=True, default=None,
                   help_text="The chat's private switch (R-PRIVATE-1): true makes the chat (chat_id) private, false "
                             "turns it back off, left out keeps it as it is. A private chat neither reads nor saves "
                             "memory.")
    channel = ChannelIn(required=False, allow_null=True)


class TurnReadIn(Contract):
    error_codes = {"source": "invalid_source", "ref": "invalid_ref"}

    source = Choice(limits.READ_SOURCES)
    ref = Text(max_length=64 * 1024, help_text=f"What was read; kept to {limits.READ_REF_MAX} characters.")


class SearchIn(Contract):
    error_codes = {"query": "invalid_query", "limit": "invalid_limit", "layer": "invalid_layer",
                   "subject": "invalid_subject"}

    query = Text(max_length=limits.QUERY_MAX_CHARS)
    subject = SubjectIn(required=False, allow_null=True)
    layer = Choice(limits.LAYERS, required=False, allow_null=True)
    limit = Integer(required=False, min_value=1, max_value=limits.SEARCH_LIMIT_MAX, default=limits.SEARCH_LIMIT_DEFAULT)


class UndoIn(Contract):
    change = Text(max_length=64, help_text="The id of the change to undo (undo.change of a save's answer).")


class NotePatchIn(Contract):
    error_codes = {"pinned": "invalid_pin", "value": {"max_length": "too_large", "*": "invalid_note"}}
    unknown_field_code = "invalid_field"

    value = Text(required=False, max_length=limits.VALUE_MAX_CHARS)
    pinned = Bool(required=False)


class KeepIn(Contract):
    error_codes = {"version": "invalid_version"}

    version = Text(required=False, allow_null=True, allow_blank=True, max_length=64,
                   help_text="The note's version as the person saw it (or send If-Match).")


class NoteListQuery(PageQuery):
    error_codes = {**PageQuery.error_codes, "layer": "invalid_layer", "state": "invalid_filter",
                   "pinned": "invalid_filter", "subject": "invalid_filter", "q": "invalid_filter"}

    layer = Choice(limits.LAYERS, required=False)
    state = Choice(limits.NOTE_STATES, required=False)
    subject = Text(required=False, max_length=200, help_text="kind:id, or a table id.")
    pinned = Bool(required=False)
    q = Text(required=False, max_length=limits.QUERY_MAX_CHARS, help_text="Words to rank the notes by.")


class RuleIn(Contract):
    key = Text(max_length=limits.KEY_MAX_CHARS)
    value = Text(max_length=limits.VALUE_MAX_CHARS)


class RulePatchIn(Contract):
    key = Text(required=False, max_length=limits.KEY_MAX_CHARS)
    value = Text(required=False, max_length=limits.VALUE_MAX_CHARS)


# --- output -----------------------------------------------------------------------------------


class SubjectOut(serializers.Serializer):
    kind = serializers.ChoiceField(limits.SUBJECT_KINDS)
    id = serializers.CharField()


class ReadSourceOut(serializers.Serializer):
    source = serializers.CharField()
    ref = serializers.CharField()
    label = serializers.CharField()


class SavedByOut(serializers.Serializer):
    user = serializers.IntegerField(allow_null=True)
    bot = serializers.CharField(allow_null=True)


class NoteOut(serializers.Serializer):
    id = serializers.CharField()
    key = serializers.CharField()
    value = serializers.CharField()
    layer = serializers.ChoiceField(limits.LAYERS)
    state = serializers.ChoiceField(limits.NOTE_STATES)
    pinned = serializers.BooleanField()
    subject = SubjectOut(allow_null=True)
    held_reason = serializers.CharField(allow_null=True)
    held_because = serializers.CharField(allow_null=True)
    held_sources = ReadSourceOut(many=True)
    held_until = serializers.DateTimeField(allow_null=True)
    bot = serializers.CharField(allow_null=True)
    owner = serializers.IntegerField(allow_null=True)
    origin = serializers.CharField(help_text="person, agent_turn, bot_routine, import, or instance for a rule.")
    saved_by = SavedByOut()
    turn = serializers.CharField(allow_null=True)
    size = serializers.IntegerField()
    version = serializers.CharField(help_text="Send it back to keep this note (R-TAINT-6).")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class UndoHandleOut(serializers.Serializer):
    change = serializers.CharField()
    url = serializers.CharField()


class NoteChangedOut(NoteOut):
    undo = UndoHandleOut(allow_null=True)


class SaveResultOut(NoteOut):
    """A save's answer: what to show the person, the undo handle, and the note (also flat)."""

    reason = serializers.CharField(allow_null=True)
    show = serializers.CharField(help_text="Show this to the person: saved, or waiting for them.")
    undo = UndoHandleOut(allow_null=True)
    stripped = serializers.ListField(child=serializers.CharField())
    created = serializers.BooleanField()
    note = NoteOut()


class RecalledOut(serializers.Serializer):
    id = serializers.CharField()
    key = serializers.CharField()
    value = serializers.CharField()
    layer = serializers.ChoiceField(limits.LAYERS)
    pinned = serializers.BooleanField()
    subject = SubjectOut(allow_null=True)
    state = serializers.CharField(help_text="Always active: held notes are never recalled.")
    section = serializers.CharField()


class FoundOut(RecalledOut):
    score = serializers.FloatField()


class ContextOut(serializers.Serializer):
    memory = serializers.ChoiceField(["on", "off"])
    text = serializers.CharField(help_text="The notes as quoted data, for a tool result or a data message.")
    boundary = serializers.CharField(required=False)
    notes = RecalledOut(many=True)
    left_out = serializers.IntegerField()
    off_level = serializers.CharField(required=False)


class TurnOut(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.ChoiceField(limits.TURN_KINDS)
    private = serializers.BooleanField()
    expires_at = serializers.DateTimeField()
    context = ContextOut()


class ReadOut(serializers.Serializer):
    turn = serializers.CharField()
    tainted = serializers.BooleanField()
    source = serializers.ChoiceField(limits.READ_SOURCES)
    ref = serializers.CharField()
    label = serializers.CharField()
    redacted = serializers.BooleanField()
    stripped = serializers.ListField(child=serializers.CharField())


class SearchOut(serializers.Serializer):
    notes = FoundOut(many=True)
    text = serializers.CharField()
    boundary = serializers.CharField()
    ranking = serializers.CharField()
    min_score = serializers.FloatField(help_text="The cut-off: a note sharing no word with the query is returned only "
                                                 "if the similarity of its meaning reaches this.")
    left_out_below_cutoff = serializers.IntegerField(help_text="Readable notes left out: no shared word, and a "
                                                               "meaning below min_score.")


class UndoNoteOut(serializers.Serializer):
    id = serializers.CharField()
    state = serializers.CharField()


class AgentUndoOut(serializers.Serializer):
    state = serializers.ChoiceField(limits.AGENT_UNDO_STATES)
    change = serializers.CharField()
    action = serializers.CharField()
    show = serializers.CharField()
    undo = UndoHandleOut(allow_null=True)
    reason = serializers.CharField(required=False)
    held_because = serializers.CharField(required=False)
    turn = serializers.CharField(required=False, allow_null=True)
    notes = UndoNoteOut(many=True, required=False)


class BlindNoteOut(serializers.Serializer):
    id = serializers.CharField()
    size = serializers.IntegerField()
    state = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    in_trash = serializers.BooleanField()


class BlindListOut(serializers.Serializer):
    user = serializers.IntegerField()
    count = serializers.IntegerField()
    notes = BlindNoteOut(many=True)


class BlindDeleteOut(serializers.Serializer):
    deleted = serializers.IntegerField()
    change = serializers.CharField(allow_null=True)


class ToolOut(serializers.Serializer):
    """A tool as ``format=json-schema`` (the default) and ``format=anthropic`` give it."""

    name = serializers.CharField(help_text="Like appenda_memory_save; the dotted appenda.memory_save is an alias.")
    description = serializers.CharField()
    input_schema = serializers.DictField(help_text="The arguments, as JSON Schema.")


class OpenAIFunctionOut(serializers.Serializer):
    name = serializers.CharField()
    description = serializers.CharField()
    parameters = serializers.DictField(help_text="The arguments, as JSON Schema in OpenAI's strict form.")
    strict = serializers.BooleanField()


class OpenAIToolOut(serializers.Serializer):
    """A tool as ``format=openai`` gives it: a strict function tool."""

    type = serializers.ChoiceField(["function"])
    function = OpenAIFunctionOut()


class MCPToolOut(serializers.Serializer):
    """A tool as ``format=mcp`` gives it (``tools/list``)."""

    name = serializers.CharField()
    description = serializers.CharField()
    inputSchema = serializers.DictField(help_text="The arguments, as JSON Schema.")  # noqa: N815 (MCP's name)


class MeOut(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.CharField()
    instance_admin = serializers.BooleanField()
