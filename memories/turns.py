"""Turns: one agent turn, bound to the caller, the workspace and an optional bot (R-TAINT-1, R-TAINT-5).

Anything a turn reads besides memory taints it, for good: there is no way to un-taint a turn.
A turn id works only for the account that started it, in its workspace, until it expires.
"""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from appenda.db.fast import select_one
from appenda.errors import DomainError, Forbidden, NotFound
from appenda.ids import parse_uuid
from memories.conversations import conversation_register
from memories.limits import CHAT_KINDS, READ_REF_MAX
from memories.models import PrivateChat, Turn, TurnRead
from memories.refusals.gate import inspect_text, redact_secrets
from memories.validation import clean_text, readable_text
from tables.models import Table
from workspaces.capabilities import Actor
from workspaces.models import Bot

# A read ref is scanned for secrets before it is cut to READ_REF_MAX, so that the cut does not
# leave a secret's head in place; this bounds the scan of an absurdly long ref.
READ_REF_SCAN_MAX = 4096


def _turn_unknown() -> DomainError:
    return DomainError(
        "This turn id is unknown, expired, or belongs to another caller; start a new turn with POST …/turns/.",
        code="turn_unknown",
        status=404,
    )


def _bot_for_turn(actor: Actor, bot_ref) -> Bot | None:
    if actor.bot is not None:
        if bot_ref not in (None, "", str(actor.bot.id)):
            raise NotFound("A bot's token can start turns only for that bot.", code="bot_not_found")
        return actor.bot
    if bot_ref in (None, ""):
        return None
    bot_id = parse_uuid(bot_ref)
    bot = Bot.objects.filter(id=bot_id, workspace=actor.workspace, deleted_at__isnull=True).first() if bot_id else None
    # Only the bot's owner may name it (R-AGENT-4): a turn of the bot reads its owner's notes,
    # and no role or grant opens another user's ``mine``; others run a bot through its token.
    if bot is None or bot.owner_id != actor.user.pk:
        raise NotFound("No such bot in this workspace, or it is not yours to run.", code="bot_not_found")
    return bot


def _checked_id(raw, *, field_name: str, max_length: int) -> str | None:
    """A chat id or channel field as stored and shown, or None when absent: invisible characters
    stripped, and refused if it is not short plain text or holds a secret (R-SAVE-8)."""
    if raw in (None, ""):
        return None
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)  # some platforms number their chats and users
    text = clean_text(raw, field=field_name, max_length=max_length).text
    findings = inspect_text(field_name=field_name, text=text, opaque_id=True)
    if findings.refusal:
        code, detail = findings.refusal
        raise DomainError(detail, code=code, **findings.refusal_fields)
    return text or None


def _channel(kind: str, channel) -> dict:
    if kind != Turn.Kind.MESSAGING:
        return {}
    channel = channel if isinstance(channel, dict) else {}
    sender = channel.get("sender") if isinstance(channel.get("sender"), dict) else {}
    chat_kind = channel.get("chat_kind")
    return {
        "platform": _checked_id(channel.get("platform"), field_name="channel.platform", max_length=40) or "unknown",
        # A chat kind the host does not know counts as a group: nothing saves at once (R-MSG-1).
        "chat_kind": chat_kind if chat_kind in CHAT_KINDS else "group",
        "conversation": _checked_id(channel.get("conversation") or channel.get("conversation_id"),
                                    field_name="channel.conversation", max_length=150),
        "sender_id": _checked_id(sender.get("id") or channel.get("sender_id"), field_name="channel.sender.id",
                                 max_length=150),
        "sender_paired": bool(sender.get("paired", channel.get("sender_paired", False))) is True,
        "sender_can_confirm": bool(sender.get("can_confirm", channel.get("sender_can_confirm", False))) is True,
    }


def turn_start(
    *, actor: Actor, kind: str = "chat", chat_id=None, bot_ref=None, table_ref=None, private=None, channel=None
) -> Turn:
    """A new turn. ``private`` is the chat's switch (R-PRIVATE-1): True makes the chat private,
    False turns private back off (for the person who made it private), None leaves it as it is.
    Without a ``chat_id`` nothing is remembered: True makes this one turn private."""
    if not actor.can("turns:start"):
        raise NotFound("No such workspace, or you are not a member of it.")
    if kind not in Turn.Kind.values:
        raise DomainError(f"Unknown turn kind {kind!r}; use one of {', '.join(Turn.Kind.values)}.", code="invalid_kind")
    if private is not None and not isinstance(private, bool):
        raise DomainError("private is true or false.", code="invalid_private")
    bot = _bot_for_turn(actor, bot_ref)
    workspace = actor.workspace
    alias = workspace.db_alias
    table_id = None
    if table_ref not in (None, ""):
        table_id = parse_uuid(table_ref)
        if table_id is None or not Table.objects.for_workspace(workspace).filter(id=table_id).exists():
            raise DomainError("No such table in this workspace.", code="table_not_found", status=400)
    chat_id = _checked_id(chat_id, field_name="chat_id", max_length=200)
    person_id = bot.owner_id if bot else actor.user.pk
    turn = Turn(
        workspace_id=workspace.id,
        user_id=person_id,
        caller_user_id=actor.user.pk,
        bot_id=bot.id if bot else None,
        kind=kind,
        chat_id=chat_id,
        table_id=table_id,
        private=private is True,
        channel=_channel(kind, channel),
        expires_at=timezone.now() + settings.APPENDA["TURN_TTL"],
    )
    if not chat_id and kind != Turn.Kind.MESSAGING:
        turn.save(using=alias, force_insert=True)  # one statement: no transaction to open
        return turn
    with transaction.atomic(using=alias):
        # R-MSG-2: a conversation someone else registered is refused here, before the turn exists.
        conversation_register(workspace=workspace, turn=turn)
        if chat_id:
            turn.private = private_chat_set(workspace=workspace, chat_id=chat_id, person_id=person_id,
                                            private=private)
        turn.save(using=alias, force_insert=True)
    return turn


def private_chat_set(*, workspace, chat_id: str, person_id: int, private: bool | None) -> bool:
    """Turns a chat's private switch on or off, or reads it (``private`` None); answers whether the
    chat is private now. Only the person who made a chat private turns it back off: anyone else's
    ``false`` leaves it private, so nobody reads or saves memory in someone else's private chat."""
    alias = workspace.db_alias
    chats = PrivateChat.objects.for_workspace(workspace).filter(chat_id=chat_id)
    if private is True:
        try:
            with transaction.atomic(using=alias):  # a savepoint: a concurrent switch-on is no error
                PrivateChat(workspace_id=workspace.id, chat_id=chat_id, user_id=person_id).save(using=alias)
        except IntegrityError:
            pass  # already private
        return True
    if private is False:
        chats.filter(user_id=person_id).delete()
    return chats.exists()


def private_chats_of(*, actor: Actor) -> list[PrivateChat]:
    """The chats the caller made private in this workspace, newest first (the Private chats page)."""
    return list(PrivateChat.objects.for_workspace(actor.workspace).filter(user_id=actor.user.pk)
                .order_by("-created_at", "chat_id"))


def private_chat_switch(*, actor: Actor, chat_id, private: bool) -> bool:
    """A person's own switch for one chat (the Private chats page): on makes it private, off
    brings memory back to it. Off works only on a chat the caller made private (404 otherwise);
    answers whether the chat is private now."""
    if actor.bot is not None:
        raise Forbidden("Only a person can change a chat's private switch; a bot's token cannot.",
                        code="person_required")
    if not isinstance(private, bool):
        raise DomainError("private is true or false.", code="invalid_private")
    chat_id = _checked_id(chat_id, field_name="chat_id", max_length=200)
    if not chat_id:
        raise DomainError("Name the chat: its chat id, as your agent host sends it.", code="invalid_chat_id")
    workspace = actor.workspace
    if not private and not PrivateChat.objects.for_workspace(workspace).filter(
            chat_id=chat_id, user_id=actor.user.pk).exists():
        raise NotFound("No such private chat of yours in this workspace.")
    with transaction.atomic(using=workspace.db_alias):
        return private_chat_set(workspace=workspace, chat_id=chat_id, person_id=actor.user.pk, private=private)


def turn_for_actor(*, actor: Actor, turn_id, lock: bool = False) -> Turn:
    """The caller's own live turn, or ``turn_unknown``. ``lock`` takes a row lock (inside a transaction)."""
    turn_uuid = parse_uuid(turn_id)
    if turn_uuid is None:
        raise _turn_unknown()
    if lock:
        turn = Turn.objects.for_workspace(actor.workspace).filter(id=turn_uuid).select_for_update().first()
    else:  # on every tool call: hand-written SQL, a third of the ORM query's time (appenda.db.fast)
        turn = select_one(Turn, actor.workspace.db_alias, id=turn_uuid, workspace_id=actor.workspace.id)
    if turn is None or turn.caller_user_id != actor.user.pk or turn.expires_at <= timezone.now():
        raise _turn_unknown()
    return turn


def turn_bot(turn: Turn) -> Bot | None:
    return select_one(Bot, "default", id=turn.bot_id) if turn.bot_id else None


def _label(workspace, source: str, ref: str) -> str:
    """How a read is shown beside a held note; ``ref`` is already cleaned and redacted."""
    if source == TurnRead.Source.TABLE:
        table_id = parse_uuid(ref)
        table = Table.objects.for_workspace(workspace).filter(id=table_id).first() if table_id else None
        return f"table {table.name}" if table else f"table {ref[:80]}"
    return f"{source} {ref[:150]}"


def turn_record_read(*, actor: Actor, turn_id, source: str, ref: str) -> TurnRead:
    """Records a read and taints the turn. The ref is stored and shown (beside held notes), so it
    is cleaned (R-SAVE-8) but never refused for what it holds: a refused read would leave the
    turn untainted. A secret in it is replaced; ``read.redacted`` and ``read.stripped`` say what
    was changed, for the answer."""
    if source not in TurnRead.Source.values:
        raise DomainError(
            f"Unknown source {source!r}; use one of {', '.join(TurnRead.Source.values)}.", code="invalid_source"
        )
    raw = str(ref or "")
    if not raw.strip():
        raise DomainError("Say what was read in ref (a table id, a URL, a file name…).", code="invalid_ref")
    clean = readable_text(raw[:READ_REF_SCAN_MAX], max_length=READ_REF_SCAN_MAX)
    ref, redacted = redact_secrets(clean.text or "\ufffd")  # invisible characters only: still a read
    ref = ref[:READ_REF_MAX]
    workspace = actor.workspace
    alias = workspace.db_alias
    with transaction.atomic(using=alias):
        turn = turn_for_actor(actor=actor, turn_id=turn_id, lock=True)
        read = TurnRead(workspace_id=workspace.id, turn=turn, source=source, ref=ref, label=_label(workspace, source, ref))
        read.save(using=alias)
        read.redacted, read.stripped = redacted, clean.stripped
        if not turn.tainted:
            Turn.objects.using(alias).filter(pk=turn.pk).update(tainted=True)
    return read


def turn_sources(turn: Turn) -> list[dict]:
    reads = TurnRead.objects.using(turn._state.db).filter(turn=turn).order_by("created_at")
    return [{"source": r.source, "ref": r.ref, "label": r.label} for r in reads]
