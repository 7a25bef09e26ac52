"""Messaging apps (R-MSG-1): confirming a held note, and undoing a save, from the chat itself.

A turn of kind ``messaging`` carries what the platform said about the message (normalised by
``memories.turns``): the platform, the chat kind (unknown → group), the conversation and the
sender — paired with the person or not, and whether the person lets that sender confirm
changes from the chat. Where a save goes and whether it waits is decided by
``memories.policy.decide``; this module answers who may say "yes" or "undo" in the chat:

- **confirm** (``POST …/turns/{turn}/confirm/ {"note"}``): a paired sender allowed to confirm,
  in the same conversation, within 24 hours of the save, for a note that waits because it came
  from the messaging chat (a note held because the turn read other data, or because it may
  name a person, waits for the person in the web app). Under Always confirm, and for a note
  meant for notes beyond the conversation, only the sender who asked can confirm it.
- **undo** from the chat: the same conversation, a paired sender (the one who asked, or one
  allowed to confirm), for 30 minutes after the change. ``chat_undo_check`` is the check the
  undo code calls for a messaging turn; ``chat_undo_refusal`` is its pure core.

The person can always keep a held note in the web app or the API (``…/memories/{id}/keep/``).
The refusal functions are pure, so their tables are tested exhaustively.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from appenda.errors import DomainError
from appenda.ids import parse_uuid
from memories.audit import change_set_record
from memories.models import ChangeSet, Layer, Note, Turn
from memories.policy import SaveSituation, effective_save_mode
from memories.reasons import OFF_LEVEL_SENTENCES, chat_confirmable
from memories.scopes import conversation_id_of, memory_off_level, person_settings
from memories.selectors import live_notes
from memories.services import held_note_activate
from memories.turns import turn_bot, turn_for_actor
from workspaces.capabilities import Actor

CONFIRM_WINDOW = timedelta(hours=24)
CHAT_UNDO_WINDOW = timedelta(minutes=30)


@dataclass(frozen=True)
class ChatRefusal:
    code: str
    status: int
    detail: str

    def error(self, **fields) -> DomainError:
        return DomainError(self.detail, code=self.code, status=self.status, **fields)


NOT_IN_CONVERSATION = ChatRefusal(
    "not_found", 404, "No such note waiting in this conversation, or it belongs to another conversation."
)


def chat_confirm_refusal(
    *,
    turn_kind: str,
    memory_off_level: str | None,
    note_in_conversation: bool,
    note_held: bool,
    sender_paired: bool,
    sender_can_confirm: bool,
    sender_asked: bool,
    mode: str,
    note_layer: str,
    held_reason: str | None,
    saved_at: datetime,
    now: datetime,
) -> ChatRefusal | None:
    """Why a sender may not confirm this held note from the chat, or None when they may."""
    if turn_kind != Turn.Kind.MESSAGING:
        return ChatRefusal("messaging_turn_required", 403,
                           "Confirming from a chat works only in a turn of kind messaging; the person keeps "
                           "held notes in the web app.")
    if memory_off_level:
        return ChatRefusal("memory_off", 403, OFF_LEVEL_SENTENCES.get(memory_off_level, "Memory is off."))
    if not note_in_conversation:
        return NOT_IN_CONVERSATION
    if not note_held:
        return ChatRefusal("not_held", 409, "This note is not waiting; only held notes can be confirmed.")
    if not sender_paired:
        return ChatRefusal("sender_not_paired", 403,
                           "Only a sender paired with the person can confirm notes from the chat; the note waits "
                           "for the person in Appenda.")
    if not sender_can_confirm:
        return ChatRefusal("sender_cannot_confirm", 403,
                           "This sender may not confirm changes from the chat; the note waits for the person in "
                           "Appenda.")
    if mode == "never":
        return ChatRefusal("saving_off", 403, "Saving notes from messaging apps is off in the person's settings.")
    if (mode == "always" or note_layer != Layer.CONVERSATION) and not sender_asked:
        return ChatRefusal("only_asking_sender", 403,
                           "Only the sender who asked for this note can confirm it from the chat; the person can "
                           "keep it in Appenda.")
    if not chat_confirmable(held_reason):  # any other reason waits for the person
        return ChatRefusal("confirm_in_app", 409,
                           "This note waits for the person in Appenda (it was held for a reason a chat cannot "
                           "answer, such as data the agent had read).")
    if now - saved_at > CONFIRM_WINDOW:
        return ChatRefusal("confirm_window_passed", 409,
                           "A note can be confirmed from the chat for 24 hours after it was proposed; the person "
                           "can still keep it in Appenda while it waits.")
    return None


def chat_undo_refusal(
    *,
    turn_kind: str,
    change_in_conversation: bool,
    sender_paired: bool,
    sender_can_confirm: bool,
    sender_asked: bool,
    made_at: datetime,
    now: datetime,
) -> ChatRefusal | None:
    """Why ``undo`` from the chat may not take this change back, or None when it may."""
    if turn_kind != Turn.Kind.MESSAGING:
        return ChatRefusal("messaging_turn_required", 403, "Undo from a chat works only in a turn of kind messaging.")
    if not change_in_conversation:
        return ChatRefusal("not_found", 404, "No such change in this conversation.")
    if not sender_paired:
        return ChatRefusal("sender_not_paired", 403, "Only a sender paired with the person can undo from the chat.")
    if not (sender_asked or sender_can_confirm):
        return ChatRefusal("sender_cannot_undo", 403,
                           "Only the sender who asked for this change, or one allowed to confirm changes, can undo "
                           "it from the chat; the person can undo it in Appenda.")
    if now - made_at > CHAT_UNDO_WINDOW:
        return ChatRefusal("undo_window_passed", 409,
                           "undo from the chat works for 30 minutes after a change; the person can still undo it "
                           "in Appenda.")
    return None


def _sender(turn: Turn) -> dict:
    channel = turn.channel or {}
    return {"id": channel.get("sender_id"), "paired": channel.get("sender_paired") is True,
            "can_confirm": channel.get("sender_can_confirm") is True, "direct": channel.get("chat_kind") == "direct"}


def _same_conversation(workspace, turn: Turn, origin_turn_id) -> tuple[bool, Turn | None]:
    """Was ``origin_turn_id`` a messaging turn of the same person in the same conversation as ``turn``?"""
    conversation = conversation_id_of(turn)
    origin = Turn.objects.for_workspace(workspace).filter(id=origin_turn_id).first() if origin_turn_id else None
    same = (conversation is not None and origin is not None and origin.user_id == turn.user_id
            and origin.bot_id == turn.bot_id and conversation_id_of(origin) == conversation)
    return same, origin if same else None


def _asked_by(turn: Turn, origin: Turn | None) -> bool:
    sender = _sender(turn)["id"]
    return origin is not None and sender is not None and _sender(origin)["id"] == sender


def messaging_confirm(*, actor: Actor, turn_id, note_id) -> tuple[Note, ChangeSet]:
    """A paired sender confirms a held note from the chat (R-MSG-1): the note becomes active."""
    workspace = actor.workspace
    alias = workspace.db_alias
    with transaction.atomic(using=alias):
        turn = turn_for_actor(actor=actor, turn_id=turn_id)
        bot = turn_bot(turn)
        settings_ = person_settings(turn.user_id)
        note_uuid = parse_uuid(note_id)
        note = live_notes(workspace).select_for_update().filter(id=note_uuid).first() if note_uuid else None
        in_conversation, origin = _same_conversation(workspace, turn, note.turn_id if note else None)
        sender = _sender(turn)
        layer = note.layer if note else Layer.CONVERSATION
        mode = effective_save_mode(SaveSituation(
            origin="agent", layer=layer, turn_kind=turn.kind, person_save_mode=settings_.save_mode,
            bot_save_rule=bot.memory_save if bot else None, messaging_save=settings_.messaging_save,
            messaging_direct=sender["direct"], sender_paired=sender["paired"],
        ))
        refusal = chat_confirm_refusal(
            turn_kind=turn.kind,
            memory_off_level=memory_off_level(workspace=workspace, settings=settings_, bot=bot, turn=turn),
            note_in_conversation=in_conversation,
            note_held=bool(note) and note.state == Note.State.HELD,
            sender_paired=sender["paired"],
            sender_can_confirm=sender["can_confirm"],
            sender_asked=_asked_by(turn, origin),
            mode=mode,
            note_layer=layer,
            held_reason=note.held_reason if note else None,
            saved_at=note.updated_at if note else timezone.now(),
            now=timezone.now(),
        )
        if refusal:
            raise refusal.error()
        kept, changes = held_note_activate(workspace=workspace, held=note)
        platform = (turn.channel or {}).get("platform", "a messaging app")
        change_set = change_set_record(
            workspace=workspace, action="confirm", actor_user_id=turn.user_id,
            actor_bot_id=bot.id if bot else None, turn_id=turn.id, changes=changes,
            reason=f"confirmed in {platform} by sender {sender['id'] or '?'}",
        )
    return kept, change_set


def chat_undo_check(*, workspace, turn: Turn, change_set: ChangeSet, now: datetime | None = None) -> None:
    """Raises unless ``undo`` from this messaging turn may take ``change_set`` back (30 minutes).

    For the undo code: call it when the undo comes from a turn of kind ``messaging``, before
    undoing. The change must have been made by a turn of the same conversation (its save, or a
    confirmation in the chat).
    """
    in_conversation, origin = _same_conversation(workspace, turn, change_set.turn_id)
    sender = _sender(turn)
    refusal = chat_undo_refusal(
        turn_kind=turn.kind,
        change_in_conversation=in_conversation,
        sender_paired=sender["paired"],
        sender_can_confirm=sender["can_confirm"],
        sender_asked=_asked_by(turn, origin),
        made_at=change_set.created_at,
        now=now or timezone.now(),
    )
    if refusal:
        raise refusal.error()

