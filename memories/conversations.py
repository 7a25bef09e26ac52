"""Who a messaging-app conversation belongs to (R-MSG-2). Region database (``Conversation``).

A messaging turn names its conversation in ``channel``; the notes of the ``conversation`` layer
are keyed by that name (``memories.scopes.conversation_id_of``: "platform:conversation-id").
The client chooses the name, so the name proves nothing: the first turn that names it in a
workspace registers it, and a turn of anyone else naming it is refused before it exists — so
it never reads that conversation's notes (context, search) nor saves into them.

The owner is the pair the turn works for: the person (``Turn.user_id``) and the bot
(``Turn.bot_id``, none for a person's own token). A bot's conversation is not its owner's: the
owner's own turns, or another of the owner's bots, naming it are refused too. That is what
"the person (or bot) who first registered it" says, and what ``memories.messaging`` already
asks of a confirmation or an undo from the chat (same person, same bot, same conversation).
A turn that names a bot, by the bot's token or by its owner's, works for the same pair.

Registering records the platform, the chat kind and the registering sender with their
pairing, so the conversation's first facts are kept server-side whatever later turns say.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from appenda.errors import Forbidden
from memories.models import Conversation, Turn
from memories.scopes import conversation_id_of

CONVERSATION_TAKEN = (
    "This conversation id already belongs to someone else in this workspace (another person or "
    "another bot), so this turn can neither read nor save its notes. Use this chat's own "
    "conversation id."
)


def _owned_by_turn(conversation: Conversation, turn: Turn) -> bool:
    return conversation.owner_user_id == turn.user_id and conversation.owner_bot_id == turn.bot_id


def _new_conversation(workspace, turn: Turn, ref: str) -> Conversation:
    channel = turn.channel or {}
    return Conversation(
        workspace_id=workspace.id,
        ref=ref,
        platform=str(channel.get("platform") or "unknown")[:40],
        owner_user_id=turn.user_id,
        owner_bot_id=turn.bot_id,
        chat_kind=str(channel.get("chat_kind") or "group")[:12],
        registered_sender_id=str(channel.get("sender_id"))[:150] if channel.get("sender_id") else None,
        sender_paired=channel.get("sender_paired") is True,
    )


def conversation_register(*, workspace, turn: Turn) -> Conversation | None:
    """The conversation a messaging turn names, registered to the turn's owner on first use.

    Raises 403 ``conversation_taken`` when it belongs to someone else; None for other turns.
    Call it inside the transaction that saves the turn, so a refused turn is not created.
    """
    ref = conversation_id_of(turn)
    if ref is None:
        return None
    alias = workspace.db_alias
    registered = Conversation.objects.for_workspace(workspace).filter(ref=ref)
    conversation = registered.first()
    if conversation is None:
        conversation = _new_conversation(workspace, turn, ref)
        try:
            with transaction.atomic(using=alias):  # a savepoint: the turn's transaction survives a lost race
                conversation.save(using=alias, force_insert=True)
        except IntegrityError:
            conversation = registered.first()  # a concurrent first turn registered it
            if conversation is None:
                raise
    if not _owned_by_turn(conversation, turn):
        raise Forbidden(CONVERSATION_TAKEN, code="conversation_taken")
    return conversation
