"""Region database: notes, turns, the reads that taint them, and change sets (the audit).

Every row carries ``workspace_id`` and lives in the database of that workspace's region.
People and bots are referred to by plain ids (their rows are in the control database).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC

from django.db import models
from django.db.models import Q

from appenda.db.models import RegionModel


class Layer(models.TextChoices):
    MINE = "mine"
    WORKSPACE = "workspace"
    BOT = "bot"
    INSTANCE = "instance"  # stored in the control database (workspaces.InstanceRule)
    CONVERSATION = "conversation"


class Note(RegionModel):
    class State(models.TextChoices):
        ACTIVE = "active"
        HELD = "held"

    class Origin(models.TextChoices):
        PERSON = "person"
        AGENT_TURN = "agent_turn"
        BOT_ROUTINE = "bot_routine"
        IMPORT = "import"

    key = models.CharField(max_length=100)
    value = models.TextField()
    layer = models.CharField(max_length=16, choices=Layer.choices)
    # One string naming the note's scope inside its layer ("user:7", "bot:<uuid>", "workspace",
    # "conversation:<id>"): the unique key of a note is (workspace, scope, key, state).
    scope = models.CharField(max_length=300)
    owner_user_id = models.BigIntegerField(null=True, db_index=True)
    bot_id = models.UUIDField(null=True, db_index=True)
    conversation_id = models.CharField(max_length=255, null=True)
    subject_kind = models.CharField(max_length=16, null=True)
    subject_id = models.CharField(max_length=128, null=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.ACTIVE)
    held_reason = models.CharField(max_length=40, null=True)
    held_sources = models.JSONField(default=list)
    held_until = models.DateTimeField(null=True)
    pinned = models.BooleanField(default=False)
    origin = models.CharField(max_length=16, choices=Origin.choices)
    created_by_user_id = models.BigIntegerField(null=True)
    created_by_bot_id = models.UUIDField(null=True)
    turn_id = models.UUIDField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    trashed_at = models.DateTimeField(null=True)
    # The text the note is searched by (split key + value) and the vector computed from it
    # (memories.search.vectors); a vector whose search_text no longer matches is ignored.
    search_text = models.TextField(default="", db_default="", blank=True)
    # The words search_text is ranked by (memories.search.fulltext.stored_terms), tagged with a
    # checksum of the key and value all three search fields were computed from: terms of
    # another text are ignored and recomputed, and so is the vector (vectors.current_index).
    search_terms = models.TextField(default="", db_default="", blank=True)
    embedding = models.BinaryField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["workspace_id", "scope", "key", "state"],
                condition=Q(trashed_at__isnull=True),
                name="one_note_per_scope_key_state",
            )
        ]
        indexes = [
            models.Index(fields=["workspace_id", "layer", "state"]),
            models.Index(fields=["workspace_id", "subject_kind", "subject_id"]),
        ]

    @property
    def size(self) -> int:
        return len(self.key.encode()) + len(self.value.encode())

    @property
    def version(self) -> str:
        """What a person sees of this note, as a short hash (R-TAINT-6): a keep names the version
        the person saw, and a held note changed since is not kept. Derived, never stored, so
        nothing can fall out of step; every save of the row moves ``updated_at``, so even a
        save of the same text gives a new version."""
        updated = self.updated_at.astimezone(UTC).isoformat() if self.updated_at else ""
        seen = [self.key, self.value, self.subject_kind, self.subject_id, self.state, self.pinned, updated]
        return hashlib.sha256(json.dumps(seen).encode()).hexdigest()[:16]


class Turn(RegionModel):
    class Kind(models.TextChoices):
        CHAT = "chat"
        ROUTINE = "routine"
        SUBAGENT = "subagent"
        TRIGGER = "trigger"
        MESSAGING = "messaging"

    user_id = models.BigIntegerField()  # the person the turn works for (a bot's owner for bot turns)
    caller_user_id = models.BigIntegerField()  # the account that started it (person or bot account)
    bot_id = models.UUIDField(null=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    chat_id = models.CharField(max_length=200, null=True)
    table_id = models.UUIDField(null=True)
    private = models.BooleanField(default=False)
    channel = models.JSONField(default=dict)
    tainted = models.BooleanField(default=False)
    save_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()


class TurnRead(RegionModel):
    class Source(models.TextChoices):
        TABLE = "table"
        WEB = "web"
        INTEGRATION = "integration"
        FILE = "file"
        TOOL = "tool"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="reads")
    source = models.CharField(max_length=12, choices=Source.choices)
    ref = models.CharField(max_length=500)
    label = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)


class Conversation(RegionModel):
    """A messaging-app conversation, registered by the first turn that names it (R-MSG-2).

    The conversation id comes from the client, so it proves nothing: the first caller to name
    it in a workspace owns it (the person a turn works for, and the bot when a bot's turn
    registered it), and a turn of anyone else naming the same id neither reads nor writes its
    notes. ``ref`` is what ``memories.scopes.conversation_id_of`` computes ("platform:id").
    """

    ref = models.CharField(max_length=255)
    platform = models.CharField(max_length=40)
    owner_user_id = models.BigIntegerField()
    owner_bot_id = models.UUIDField(null=True)
    chat_kind = models.CharField(max_length=12)
    registered_sender_id = models.CharField(max_length=150, null=True)
    sender_paired = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace_id", "ref"], name="conversation_once")]


class PrivateChat(RegionModel):
    """A chat a person made private (R-PRIVATE-1): remembered per chat id."""

    chat_id = models.CharField(max_length=200)
    user_id = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["workspace_id", "chat_id"], name="private_chat_once")]


class ChangeSet(RegionModel):
    """One change to notes, written in the same transaction as the change (R-MANAGE-3)."""

    action = models.CharField(max_length=24)
    actor_user_id = models.BigIntegerField(null=True)
    actor_bot_id = models.UUIDField(null=True)
    turn_id = models.UUIDField(null=True)
    layer = models.CharField(max_length=16, null=True)
    scope = models.CharField(max_length=300, null=True)
    # A blind delete records who deleted how many notes of whom, never their content.
    blind = models.BooleanField(default=False)
    target_user_id = models.BigIntegerField(null=True)
    note_count = models.PositiveIntegerField(default=0)
    reason = models.CharField(max_length=200, blank=True)
    undo_of = models.ForeignKey("self", null=True, on_delete=models.SET_NULL, related_name="+")
    undone_at = models.DateTimeField(null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]


class NoteChange(RegionModel):
    change_set = models.ForeignKey(ChangeSet, on_delete=models.CASCADE, related_name="changes")
    note_id = models.UUIDField(db_index=True)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    size = models.PositiveIntegerField(default=0)


class Export(RegionModel):
    """A zip of notes written to the workspace's region bucket (R-MANAGE-4).

    The row is written only after its object is stored, and both are deleted once
    ``expires_at`` passes (``purge_exports``, and lazily when someone asks for it).
    """

    object_key = models.CharField(max_length=300)
    created_by_user_id = models.BigIntegerField(null=True)
    created_by_bot_id = models.UUIDField(null=True)
    size = models.PositiveBigIntegerField(default=0)
    sha256 = models.CharField(max_length=64)
    counts = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)


class IdempotentAnswer(RegionModel):
    """The first answer to a save sent with an ``Idempotency-Key`` (``memories.idempotency``).

    Kept 24 h in the workspace's region, next to the note it answered for, and written in the
    same transaction as that save: the unique key (workspace, caller, key) makes a second request
    with the same key wait for the first and then replay its answer, never save twice.
    Older rows are ignored and deleted on lookup, and by ``expire_held``.
    """

    caller_user_id = models.BigIntegerField()  # the account that sent the request (person or bot account)
    key = models.CharField(max_length=255)
    body_sha256 = models.CharField(max_length=64)  # of the endpoint and the canonical JSON body
    status = models.PositiveSmallIntegerField()
    answer = models.JSONField()
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["workspace_id", "caller_user_id", "key"], name="idempotency_key_once")
        ]
