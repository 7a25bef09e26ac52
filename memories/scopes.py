"""Who may read and write which layer (SPEC §3), and which memory levels are off.

One place answers, for a person or a turn: which notes may I see, which layer does a save
go to, may I write it. Views and services ask here; they never compare role names.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q

from appenda.db.fast import execute, fast_cursor
from memories.models import Layer, Note, Turn
from workspaces.capabilities import Actor
from workspaces.models import Bot, InstanceRule, MemorySettings

# The narrowest level that is off wins (issue 8): private chat, the bot's "none", the person's
# switch, the workspace switch.
OFF_LEVELS_NARROWEST_FIRST = ("private_chat", "bot", "user", "workspace")


@dataclass(frozen=True)
class PersonMemorySettings:
    enabled: bool = True
    save_mode: str | None = "auto"
    messaging_save: str | None = "ask"


def person_settings_and_rules(user_id: int) -> tuple[PersonMemorySettings, list[tuple[str, str, str]]]:
    """A person's memory settings and every active instance rule as (id, key, value) by key: what each
    turn's context and each search read of the control database, in one round trip.

    Hand-written SQL (the same on PostgreSQL and SQLite) because it is on every turn's path:
    0.2 ms where the two ORM queries took 0.7-1.0 ms, most of it building and compiling them;
    prepared on PostgreSQL (``appenda.db.fast``).
    It reads no note, so no visibility rule is restated here."""
    quote = connection.ops.quote_name
    sql = (
        f"SELECT 0, CASE WHEN {quote('enabled')} THEN 'on' ELSE 'off' END, {quote('save_mode')}, "
        f"{quote('messaging_save')} FROM {quote(MemorySettings._meta.db_table)} WHERE {quote('user_id')} = %s "
        f"UNION ALL SELECT 1, CAST({quote('id')} AS TEXT), {quote('key')}, {quote('value')} "
        f"FROM {quote(InstanceRule._meta.db_table)} WHERE {quote('state')} = 'active' ORDER BY 1, 3"
    )
    with fast_cursor(connection) as cursor:
        execute(cursor, connection, sql, [user_id])
        rows = cursor.fetchall()
    settings, rules = PersonMemorySettings(), []
    for part, first, second, third in rows:
        if part == 0:
            settings = PersonMemorySettings(first == "on", second, third)
        else:
            rules.append((str(uuid.UUID(first)), second, third))
    return settings, rules


def person_settings(user_id: int) -> PersonMemorySettings:
    row = MemorySettings.objects.filter(user_id=user_id).values_list("enabled", "save_mode", "messaging_save")[:1]
    return PersonMemorySettings(*row[0]) if row else PersonMemorySettings()


def memory_off_level(*, workspace, settings: PersonMemorySettings, bot: Bot | None, turn: Turn | None) -> str | None:
    if turn is not None and turn.private:
        return "private_chat"
    if bot is not None and bot.memory == Bot.MemoryChoice.NONE:
        return "bot"
    if not settings.enabled:
        return "user"
    if not workspace.memory_enabled:
        return "workspace"
    return None


def bot_reads(bot: Bot | None) -> frozenset[str]:
    """The personal layers a turn reads, by the bot's memory choice (R-AGENT-1)."""
    if bot is None:
        return frozenset({Layer.MINE})
    return {
        Bot.MemoryChoice.MINE_AND_OWN: frozenset({Layer.MINE, Layer.BOT}),
        Bot.MemoryChoice.OWN: frozenset({Layer.BOT}),
        Bot.MemoryChoice.MINE: frozenset({Layer.MINE}),
        Bot.MemoryChoice.NONE: frozenset(),
        None: frozenset({Layer.MINE, Layer.BOT}),  # "as before"
    }[bot.memory]


def conversation_id_of(turn: Turn | None) -> str | None:
    if turn is None or turn.kind != Turn.Kind.MESSAGING:
        return None
    channel = turn.channel or {}
    return f"{channel.get('platform', 'unknown')}:{channel.get('conversation') or turn.chat_id or turn.id}"


WORKSPACE_SCOPE = "workspace"
INSTANCE_SCOPE = "instance"


def user_scope(user_id) -> str:
    return f"user:{user_id}"


def bot_scope(bot_id) -> str:
    return f"bot:{bot_id}"


def conversation_scope(conversation_id: str) -> str:
    return f"conversation:{conversation_id}"


def turn_read_scopes(turn: Turn, bot: Bot | None) -> list[str]:
    """The scopes of the notes a turn may read (state and trash are filtered by the caller).

    The one statement of what a turn reads: ``turn_read_filter`` (the ORM's) and the search's
    hand-written SQL (``memories.search.candidates``) both take this list. A note's scope names
    its layer and owner ("user:7" is a ``mine`` note of person 7): every write sets it from
    the same functions above."""
    layers = bot_reads(bot)
    found = [WORKSPACE_SCOPE]
    if Layer.MINE in layers:
        found.append(user_scope(turn.user_id))
    if Layer.BOT in layers and turn.bot_id:
        found.append(bot_scope(turn.bot_id))
    conversation = conversation_id_of(turn)
    if conversation:
        found.append(conversation_scope(conversation))
    return found


def turn_read_filter(turn: Turn, bot: Bot | None) -> Q:
    """The notes a turn may read, as an ORM condition (see ``turn_read_scopes``)."""
    return Q(scope__in=turn_read_scopes(turn, bot))


def person_visible_filter(actor: Actor) -> Q:
    """The notes a caller may see in listings (held ones included)."""
    if actor.bot is not None:
        q = Q(layer=Layer.WORKSPACE) | Q(layer=Layer.BOT, bot_id=actor.bot.id)
        if Layer.MINE in bot_reads(actor.bot):
            q |= Q(layer=Layer.MINE, owner_user_id=actor.bot.owner_id)
        return q
    if not actor.can("memory:read"):
        return Q(pk__in=[])
    owned_bots = list(Bot.objects.filter(workspace=actor.workspace, owner_id=actor.user.pk).values_list("id", flat=True))
    q = Q(layer=Layer.MINE, owner_user_id=actor.user.pk) | Q(layer=Layer.WORKSPACE)
    if owned_bots:
        q |= Q(layer=Layer.BOT, bot_id__in=owned_bots)
    if actor.can("agents:manage"):
        q |= Q(layer=Layer.CONVERSATION)
    return q


def owned_scopes(actor: Actor) -> list[str]:
    """The scopes whose notes are the caller's own: their ``mine`` notes and their bots' notes."""
    bots = Bot.objects.filter(workspace=actor.workspace, owner_id=actor.user.pk).values_list("id", flat=True)
    return [user_scope(actor.user.pk), *(bot_scope(bot) for bot in bots)]


def can_change_note(actor: Actor, note: Note) -> bool:
    """May this caller edit, pin, keep or delete this (visible) note?"""
    if note.layer == Layer.MINE:
        return note.owner_user_id == actor.person_id and (actor.bot is None or Layer.MINE in bot_reads(actor.bot))
    if note.layer == Layer.WORKSPACE:
        return actor.can("memory:write_workspace")
    if note.layer == Layer.BOT:
        if actor.bot is not None:
            return actor.bot.id == note.bot_id
        return Bot.objects.filter(id=note.bot_id, owner_id=actor.user.pk).exists()
    if note.layer == Layer.CONVERSATION:
        return actor.can("agents:manage")
    return False
