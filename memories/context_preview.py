"""What reaches an agent, for the Memory page: the context a chat would start with, its budget
(R-RECALL-2) and, per note, whether it starts every chat, comes only when searched, or is left
out for the budget.

The preview is ``recall.turn_context`` itself, run for a turn that is never saved (the person's
chat, or one of their bots', with a table in view or none), so the page cannot tell a different
story from the one a model gets.
"""

from __future__ import annotations

from dataclasses import dataclass

from memories import recall
from memories.models import Layer, Note, Turn
from memories.quoting import encode_note
from memories.scopes import bot_reads
from workspaces.capabilities import Actor

STARTS_EVERY_CHAT = "starts every chat"
ONLY_WHEN_SEARCHED = "only when searched"
OVER_BUDGET = "left out: over budget"
MEMORY_OFF = "reaches no chat: memory is off"
STARTS_ITS_CONVERSATION = "starts its conversation's chats"
BOT_GONE = "reaches no chat: its bot is deleted"
BOT_READS_NOT = "reaches no chat: the bot's memory choice leaves out its own notes"
SECTION_LABELS = {"instance": "Required rules", "mine": "Your pinned notes", "workspace": "Workspace pinned notes",
                  "bot": "The bot's pinned notes", "table": "Notes about the table in view"}


def context_preview(actor: Actor, *, bot=None, table_id=None) -> dict:
    """The context a new chat of this person (or of their ``bot``) would start with."""
    turn = Turn(workspace_id=actor.workspace.id, user_id=actor.user.pk, caller_user_id=actor.user.pk,
                bot_id=bot.id if bot else None, kind=Turn.Kind.CHAT, table_id=table_id)
    return recall.turn_context(turn=turn, workspace=actor.workspace)


@dataclass(frozen=True)
class SectionUse:
    name: str
    label: str
    lines: int
    bytes: int
    max_lines: int = recall.SECTION_MAX_LINES
    max_bytes: int = recall.SECTION_MAX_BYTES


@dataclass(frozen=True)
class Budget:
    bytes: int
    max_bytes: int
    lines: int
    sections: list[SectionUse]
    left_out: int


def _line_size(note: dict) -> int:
    data = {"layer": note["layer"], "key": note["key"], "value": note["value"]}
    if note.get("subject"):
        data["subject"] = note["subject"]
    return len(encode_note(data).encode()) + 1


def context_budget(context: dict) -> Budget:
    """How much of the budget the context's notes use, in all and per section."""
    used: dict[str, list[int]] = {}
    for note in context.get("notes", []):
        used.setdefault(note["section"], []).append(_line_size(note))
    sections = [SectionUse(name, SECTION_LABELS.get(name, name), len(sizes), sum(sizes))
                for name in recall.SECTIONS if (sizes := used.get(name))]
    return Budget(sum(s.bytes for s in sections), recall.TOTAL_BUDGET_BYTES, sum(s.lines for s in sections),
                  sections, context.get("left_out", 0))


def reach_of(note: Note, context: dict, bot_contexts: dict[str, dict], bots: dict[str, object]) -> str | None:
    """How an active note reaches an agent; None for a held note (it reaches none until kept).
    ``context``: the person's chat; ``bot_contexts``: their bots' chats, by bot id; ``bots``:
    the bots by id, to say why a bot's note reaches no chat."""
    if note.state != Note.State.ACTIVE:
        return None
    if note.layer == Layer.BOT:
        bot = bots.get(str(note.bot_id))
        if bot is None or getattr(bot, "deleted_at", None) is not None:
            return BOT_GONE
        if Layer.BOT not in bot_reads(bot):
            return BOT_READS_NOT
        context = bot_contexts.get(str(note.bot_id), context)
    if context.get("memory") == "off":
        return MEMORY_OFF
    if note.layer == Layer.CONVERSATION:
        return STARTS_ITS_CONVERSATION if note.pinned else ONLY_WHEN_SEARCHED
    if str(note.id) in {n["id"] for n in context.get("notes", [])}:
        return STARTS_EVERY_CHAT
    if note.pinned:
        return OVER_BUDGET
    return ONLY_WHEN_SEARCHED
